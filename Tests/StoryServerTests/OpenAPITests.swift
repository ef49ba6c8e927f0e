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

    @Test("every route is documented and every documented route exists")
    func documentMatchesRoutes() async throws {
        try await withServer { app, _, _ in
            let yaml = try String(contentsOf: publicDirectory.appendingPathComponent("openapi.yaml"), encoding: .utf8)
            let documented = Self.documentedOperations(yaml)
            let routes = Set(app.routes.all.map { route in
                let path = route.path.map { component -> String in
                    switch component {
                    case .parameter(let name): "{\(name)}"
                    default: component.description
                    }
                }.joined(separator: "/")
                return "\(route.method.rawValue) /\(path)"
            })
            #expect(routes.count > 10)
            #expect(routes.subtracting(documented).sorted() == [], "routes missing from openapi.yaml")
            #expect(documented.subtracting(routes).sorted() == [], "openapi.yaml names routes that do not exist")
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
