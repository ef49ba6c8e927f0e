import Foundation
@testable import StoryServer
import StoryWorkflows
import Testing
import VaporTesting

@Suite("OpenAPI document")
struct OpenAPITests {
    /// "GET /api/jobs/{id}" for every operation under `paths:` in the hand-written document.
    static func documentedOperations(_ yaml: String) -> Set<String> {
        let methods: Set<String> = ["get", "put", "post", "patch", "delete", "head", "options"]
        var operations = Set<String>()
        var inPaths = false
        var currentPath: String?
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" ") && !line.isEmpty {
                inPaths = line == "paths:"
                continue
            }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), line.hasSuffix(":"), !line.hasPrefix("   ") {
                currentPath = String(line.dropFirst(2).dropLast())
            } else if line.hasPrefix("    "), !line.hasPrefix("     "), let path = currentPath {
                let key = line.trimmingCharacters(in: .whitespaces).dropLast()
                if methods.contains(String(key)) { operations.insert("\(key.uppercased()) \(path)") }
            }
        }
        return operations
    }

    /// "METHOD /path" of every route `app` registered.
    static func registeredOperations(_ app: Application) -> Set<String> {
        Set(app.routes.all.map { route in
            let path = route.path.map { component -> String in
                switch component {
                case .parameter(let name): "{\(name)}"
                default: component.description
                }
            }.joined(separator: "/")
            return "\(route.method.rawValue) /\(path)"
        })
    }

    /// The /test/* routes exist only in development mode (`STORYVOICE_ENV=development`). They are
    /// documented, marked `x-development-only: true`, so the check runs twice: a development
    /// server has exactly the documented routes, and any other server exactly those less the
    /// marked ones (so a marked route that leaks into production, or an unmarked one that is
    /// missing there, fails). Leaving them out of the document instead would let them drift
    /// unchecked, and the calls contract walk could not check their replies.
    @Test("every route is documented and every documented route exists (development-only ones only in development mode)")
    func documentMatchesRoutes() async throws {
        let yaml = try String(contentsOf: publicDirectory.appendingPathComponent("openapi.yaml"), encoding: .utf8)
        let documented = Self.documentedOperations(yaml)
        let contract = try OpenAPIContract(yaml: yaml)
        var developmentOnly = Set<String>()
        for (path, item) in contract.root["paths"]?.objectValue ?? [:] {
            for (method, operation) in item.objectValue ?? [:] where operation["x-development-only"] == .bool(true) {
                developmentOnly.insert("\(method.uppercased()) \(path)")
            }
        }
        #expect(!developmentOnly.isEmpty && developmentOnly.allSatisfy { $0.contains(" /test/") })
        try await withServer(adjust: { $0.developmentMode = true }) { app, _, _ in
            let routes = Self.registeredOperations(app)
            #expect(routes.count > 10)
            #expect(routes.subtracting(documented).sorted() == [], "routes missing from openapi.yaml")
            #expect(documented.subtracting(routes).sorted() == [], "openapi.yaml names routes that do not exist")
        }
        try await withServer { app, _, _ in
            let routes = Self.registeredOperations(app)
            #expect(routes.subtracting(documented).sorted() == [], "routes missing from openapi.yaml")
            #expect(documented.subtracting(developmentOnly).subtracting(routes).sorted() == [], "openapi.yaml names routes that do not exist")
            #expect(routes.intersection(developmentOnly).sorted() == [], "development-only routes outside development mode")
        }
    }

    @Test("the document is served and declares OpenAPI 3.1")
    func served() async throws {
        try await withServer { app, _, _ in
            let reply = try await app.send(.GET, "/openapi.yaml")
            #expect(reply.status == .ok)
            #expect(reply.body.string.hasPrefix("openapi: 3.1.0"))
        }
    }

    @Test("unknown routes answer the JSON error shape")
    func unknownRoute() async throws {
        try await withServer { app, _, _ in
            let reply = try await app.send(.GET, "/api/nothing-here")
            #expect(reply.status == .notFound)
            #expect(reply.errorCode == "not_found")
            #expect(try await app.send(.GET, "/health").body.string == #"{"status":"ok"}"#)
            let page = try await app.send(.GET, "/")
            #expect(page.status == .ok)
            #expect(page.body.string.contains("<title>StoryVoice</title>"))
        }
    }
}
