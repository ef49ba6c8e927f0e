import Foundation
import NIOCore
@testable import StoryServer
import StoryWorkflows
import TestSupport
import Testing
import VaporTesting

@Suite("Hostile request bodies")
struct HostileBodyTests {
    static let boundary = "XyZ-boundary"

    static func form(_ fields: [(name: String, filename: String?, body: [UInt8])], boundary: String = boundary) -> [UInt8] {
        var bytes: [UInt8] = []
        for field in fields {
            var disposition = "Content-Disposition: form-data; name=\"\(field.name)\""
            if let filename = field.filename { disposition += "; filename=\"\(filename)\"" }
            bytes += Array("--\(boundary)\r\n\(disposition)\r\nContent-Type: text/plain\r\n\r\n".utf8) + field.body + Array("\r\n".utf8)
        }
        return bytes + Array("--\(boundary)--\r\n".utf8)
    }

    @Test("the multipart parser reads a browser's form: fields, quoted and UTF-8 file names, a preamble")
    func parsesForms() throws {
        var bytes = Array("a preamble line\r\n".utf8)
        bytes += Self.form([
            ("file", #"Caf\"é\" story.txt"#, Array("“Hello,” said Vera.\r\nNext line.".utf8)),
            ("title", nil, Array("The Open Window".utf8)),
        ])
        let form = try MultipartForm(bytes: bytes, boundary: Self.boundary)
        #expect(form.parts.count == 2)
        #expect(form.part(named: "file")?.filename == #"Caf"é" story.txt"#)
        #expect(form.part(named: "file")?.text == "“Hello,” said Vera.\r\nNext line.")
        #expect(form.part(named: "file")?.contentType == "text/plain")
        #expect(form.part(named: "title")?.text == "The Open Window")
    }

    @Test("malformed forms are refused with a reason, never a trap")
    func refusesMalformedForms() {
        let cases: [(String, [UInt8])] = [
            ("the reported crash: a header byte ≥ 0x80", Array("--XX\r\n".utf8) + [0xFF] + Array("--XX--\r\n".utf8)),
            ("no opening boundary", Array("hello".utf8)),
            ("no closing boundary", Array("--XX\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nbody".utf8)),
            ("headers without a blank line", Array("--XX\r\nContent-Disposition: form-data".utf8)),
            ("no field name", Array("--XX\r\nContent-Disposition: form-data\r\n\r\nx\r\n--XX--".utf8)),
            ("a header that is not Name: value", Array("--XX\r\nnonsense\r\n\r\nx\r\n--XX--".utf8)),
            ("empty", []),
        ]
        for (what, bytes) in cases {
            #expect(throws: MultipartForm.Failure.self, "\(what)") { try MultipartForm(bytes: bytes, boundary: "XX") }
        }
    }

    @Test("any bytes: the parser answers (parts or a Failure) and a form it wrote reads back unchanged")
    func parserProperties() throws {
        var random = SeededGenerator(seed: 25)
        let seed = Self.form([("file", "story.txt", Array("Some text.".utf8)), ("author", nil, Array("Saki".utf8))])
        for _ in 0..<20_000 {
            let bytes = Bool.random(using: &random) ? random.mutate(seed) : random.bytes(Int.random(in: 0...64, using: &random))
            _ = try? MultipartForm(bytes: bytes, boundary: Self.boundary)
        }
        for _ in 0..<500 {
            // Bodies of any bytes (even CRLF and dashes) survive, as long as they do not hold the delimiter.
            let body = random.bytes(Int.random(in: 0...300, using: &random))
            guard MultipartForm.find(Array("\r\n--\(Self.boundary)".utf8), in: body, from: 0) == nil else { continue }
            let form = try MultipartForm(bytes: Self.form([("file", "a.txt", body), ("title", nil, [])]), boundary: Self.boundary)
            #expect(form.part(named: "file")?.body == body)
            #expect(form.part(named: "title")?.body == [])
        }
    }

    @Test("the reported upload that killed the server gets 400 over HTTP, and the server keeps answering")
    func crashingUploadIsRefused() async throws {
        try await withServer { app, _, _ in
            let token = try await app.register("ada@example.com").access_token
            let live = try app.testing(method: .running(port: 0))
            var headers = HTTPHeaders()
            headers.bearerAuthorization = BearerAuthorization(token: token)
            headers.replaceOrAdd(name: .contentType, value: "multipart/form-data; boundary=XX")
            var body = ByteBuffer(string: "--XX\r\n")
            body.writeBytes([0xFF])
            body.writeString("--XX--\r\n")
            let reply = try await live.sendRequest(.POST, "/api/stories", headers: headers, body: body)
            #expect(reply.status == .badRequest)
            #expect(reply.errorCode == "invalid_body")
            #expect(try await live.sendRequest(.GET, "/health").status == .ok)
            // A good upload still works after it.
            let (good, goodBody) = StoriesAPITests.multipart(filename: "story.txt", contents: "“Hello,” said Vera.")
            var goodHeaders = good
            goodHeaders.bearerAuthorization = BearerAuthorization(token: token)
            #expect(try await live.sendRequest(.POST, "/api/stories", headers: goodHeaders, body: goodBody).status == .created)
        }
    }

    @Test("random and mutated bodies on every body-reading endpoint: never a 5xx, never a dead server")
    func fuzzEveryBodyEndpoint() async throws {
        try await withNarrationServer { app, config, _ in
            let ada = try await app.register("ada@example.com")
            let token = ada.access_token
            let story = try await app.analyzedSample(token, config)
            let analysis = try #require(try await app.analysis(story, token).analysis)
            let character = try #require(analysis.characters.first { $0.lines > 0 }).id
            let other = try #require(analysis.characters.first { $0.id != character }).id
            var endpoints = EndpointErrorTests.jsonEndpoints(story: story, character: character, other: other)
                .map { ($0.0, $0.1, Array("{\($0.2)}".utf8)) }
            endpoints.append((.POST, "/auth/login", Array("username=ada%40example.com&password=wrong".utf8)))
            endpoints.append((.POST, "/api/stories", Self.form([("file", "story.txt", Array("“Hi,” said Vera.".utf8))])))
            let contentTypes = [
                "application/json", "application/x-www-form-urlencoded", "multipart/form-data; boundary=\(Self.boundary)",
                "multipart/form-data", "text/plain; charset=utf-8", "application/json; charset=\u{FF}",
            ]
            var random = SeededGenerator(seed: 2026)
            var sent = 0
            for _ in 0..<40 {
                for (method, path, seed) in endpoints {
                    var headers = HTTPHeaders()
                    headers.bearerAuthorization = BearerAuthorization(token: token)
                    headers.replaceOrAdd(name: .contentType, value: contentTypes.randomElement(using: &random)!)
                    let bytes = Bool.random(using: &random) ? random.mutate(seed) : random.bytes(Int.random(in: 0...96, using: &random))
                    let reply = try await app.testing().sendRequest(method, path, headers: headers, body: ByteBuffer(bytes: bytes))
                    #expect(reply.status.code < 500, "\(method) \(path) with \(bytes): \(reply.status) \(reply.body.string.prefix(200))")
                    sent += 1
                }
            }
            #expect(sent == 40 * endpoints.count)
            #expect(try await app.send(.GET, "/health").status == .ok)
        }
    }

    /// Issue 46: refusals quoted what was sent, so 900 KB in a voice id, a model or a phone
    /// number came back as a 900 KB (or, with `detail`, 1.8 MB) error. Every string field of
    /// every JSON endpoint, made 900 KB long: never a 5xx, never a reply that repeats it.
    @Test("a 900 KB string in any field is refused or taken without being sent back")
    func hugeStringsAreNotRepeated() async throws {
        try await withNarrationServer { app, config, _ in
            let token = try await app.register("ada@example.com").access_token
            let story = try await app.analyzedSample(token, config)
            let analysis = try #require(try await app.analysis(story, token).analysis)
            let character = try #require(analysis.characters.first { $0.lines > 0 }).id
            let other = try #require(analysis.characters.first { $0.id != character }).id
            var endpoints = EndpointErrorTests.jsonEndpoints(story: story, character: character, other: other)
                .filter { $0.1 != "/api/stories" }  // a story's text is hers to send, and it is kept
            endpoints += [
                (.POST, "/api/voice/speak", #""text":"Hello.","voice":"test:alto""#),
                (.POST, "/api/voice/reply", #""text":"Hello.","model":"openai:gpt-4o-mini""#),
                (.POST, "/mobile/make-call", #""phone_number":"+14155550100","scenario":"storyteller""#),
                (.POST, "/mobile/schedule-call", #""phone_number":"+14155550100","scheduled_time":"2030-01-01T10:00:00Z""#),
                (.POST, "/api/calls/browser", #""scenario":"storyteller""#),
                (.POST, "/mobile/purchase-subscription", #""receipt_data":"a.b.c","product_id":"premium_monthly""#),
            ]
            let huge = String(repeating: "Qx, é", count: 170_000)
            var tried = 0
            for (method, path, fields) in endpoints {
                let values = fields.matches(of: /"([a-z_]+)":"([^"]*)"/)
                for value in values {
                    let body = fields.replacingOccurrences(of: String(value.output.0), with: "\"\(value.output.1)\":\"\(huge)\"")
                    let reply = try await app.send(method, path, token: token, json: "{\(body)}")
                    #expect(reply.status.code < 500, "\(method) \(path) \(value.output.1): \(reply.status)")
                    #expect(reply.body.readableBytes < 4_096, "\(method) \(path) \(value.output.1): \(reply.status), \(reply.body.readableBytes) bytes")
                    tried += 1
                }
            }
            #expect(tried > 25)
        }
    }
}

@Suite("Health and headers")
struct HealthAndHeaderTests {
    @Test("every reply, pages and errors alike, carries the security headers")
    func securityHeaders() async throws {
        try await withServer { app, _, _ in
            for path in ["/", "/health", "/api/stories", "/nowhere"] {
                let reply = try await app.send(.GET, path)
                #expect(reply.headers.first(name: "Content-Security-Policy")?.contains("frame-ancestors 'none'") == true, "\(path)")
                #expect(reply.headers.first(name: "X-Frame-Options") == "DENY", "\(path)")
                #expect(reply.headers.first(name: "X-Content-Type-Options") == "nosniff", "\(path)")
            }
        }
    }

    @Test("health says unhealthy, and why, when the data directory cannot be written")
    func healthChecksTheDataDirectory() async throws {
        try await withServer { app, config, _ in
            #expect(try await app.send(.GET, "/health").status == .ok)
            // A file where the directory was: unwritable even for root (CI runs as root, which
            // permission bits do not stop).
            let directory = config.dataDirectory.url
            let moved = directory.appendingPathExtension("moved")
            try FileManager.default.moveItem(at: directory, to: moved)
            #expect(FileManager.default.createFile(atPath: directory.path, contents: Data("not a folder".utf8)))
            let reply = try await app.send(.GET, "/health")
            #expect(reply.status == .serviceUnavailable)
            #expect(reply.body.string.contains("cannot be written"), "\(reply.body.string)")
            try FileManager.default.removeItem(at: directory)
            try FileManager.default.moveItem(at: moved, to: directory)
            #expect(try await app.send(.GET, "/health").status == .ok)
        }
    }
}

@Suite("Methods")
struct MethodTests {
    @Test("a known path with a method it does not take answers 405 with Allow; an unknown path 404")
    func methodNotAllowed() async throws {
        try await withServer { app, _, _ in
            let token = try await app.register("ada@example.com").access_token
            let wrong = try await app.send(.DELETE, "/api/stories", token: token)
            #expect(wrong.status == .methodNotAllowed)
            #expect(wrong.errorCode == "method_not_allowed")
            #expect(wrong.headers.first(name: .allow) == "GET, HEAD, POST")
            let story = try await app.send(.PUT, "/api/stories/\(UUID())", token: token)
            #expect(story.status == .methodNotAllowed)
            #expect(story.headers.first(name: .allow)?.contains("PATCH") == true)
            #expect(try await app.send(.GET, "/api/nowhere", token: token).status == .notFound)
        }
    }

    @Test("the web app's files answer GET and HEAD; any other method 405 with Allow")
    func staticFiles() async throws {
        try await withServer { app, _, _ in
            #expect(try await app.send(.GET, "/index.html").status == .ok)
            #expect(try await app.send(.HEAD, "/openapi.yaml").status == .ok)
            for (method, path) in [(HTTPMethod.DELETE, "/index.html"), (.POST, "/openapi.yaml"), (.PUT, "/"), (.PATCH, "/js/routes.js")] {
                let reply = try await app.send(method, path)
                #expect(reply.status == .methodNotAllowed, "\(method) \(path)")
                #expect(reply.headers.first(name: .allow) == "GET, HEAD")
                #expect(reply.errorCode == "method_not_allowed")
            }
            #expect(try await app.send(.DELETE, "/no-such-file.html").status == .notFound)
            #expect(try await app.send(.POST, "/../Package.swift").status != .ok)
        }
    }
}
