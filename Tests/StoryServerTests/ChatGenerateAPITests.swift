import Foundation
import LanguageModels
import Platform
@testable import StoryServer
import StoryWorkflows
import Testing
import TestSupport
import VaporTesting
import VendorHTTP

/// POST /api/chat/generate with the user's own model (a loopback server in OpenAI's wire
/// format): a premium account gets a kept conversation; an answer that never fits, a model
/// without a key or a free account create nothing.
@Suite("Chat stories generation over the API")
struct ChatGenerateAPITests {
    static let story = #"""
        {"title": "Leftovers", "characters": [{"name": "Jo", "is_me": true}, {"name": "Rae", "is_me": false}],
         "messages": [{"from": "Jo", "text": "who ate my pasta"}, {"from": "Rae", "text": "not me 👀"}, {"from": "Jo", "text": "there's sauce on your face"},
                      {"from": "Rae", "text": "that's ketchup"}, {"from": "Jo", "text": "from WHAT"}]}
        """#

    func withGenerator(_ answer: String, _ body: (Application, String, LoopbackServer) async throws -> Void) async throws {
        try await withGenerator(handler: { VendorWire.success(.openai, answer: answer, for: $0) }, body)
    }

    func withGenerator(handler: @escaping LoopbackServer.Handler, _ body: (Application, String, LoopbackServer) async throws -> Void) async throws {
        try await LoopbackServer.withServer(handler: handler) { model in
            try await withServer(adjust: { config in
                config.models = ModelAccess(
                    factory: LanguageModelFactory(environment: ["OPENAI_BASE_URL": model.baseURL + "/v1"], timeout: loopbackTimeout, retry: RetryPolicy(maxAttempts: 1)),
                    box: config.models.box, cacheDirectory: config.dataDirectory.url.appendingPathComponent("llm"))
            }) { app, _, _ in
                let ada = try await app.register("ada@example.com").access_token
                #expect(try await app.send(.PUT, "/api/settings", token: ada, json: #"{"api_keys":{"openai":"sk-chat-0123456789abcdef"}}"#).status == .ok)
                try await body(app, ada, model)
            }
        }
    }

    static let ask = #"{"prompt":"my roommate eats my food","genre":"comedy","mood":"funny","length":"short","model":"openai:gpt-4o-mini"}"#

    @Test("premium: the model's conversation is kept and listed")
    func written() async throws {
        try await withGenerator(Self.story) { app, ada, model in
            try await app.grantPremium("ada@example.com")
            let reply = try await app.send(.POST, "/api/chat/generate", token: ada, json: Self.ask)
            #expect(reply.status == .created, "\(reply.body.string)")
            let conversation = try #require(reply.json)
            #expect(conversation["title"] == "Leftovers")
            #expect(conversation["messages"]?.arrayValue?.count == 5)
            let id = try #require(conversation["id"]?.stringValue)
            let kept = try await app.send(.GET, "/api/chat/conversations/\(id)", token: ada).json
            #expect(kept?["messages"]?[1]?["text"] == "not me 👀")
            let prompt = try #require(VendorWire.prompt(of: model.requests[0], provider: .openai))
            #expect(prompt.user.contains("my roommate eats my food") && prompt.user.contains("comedy"))
        }
    }

    @Test("an answer that never fits: 503, asked twice, nothing kept")
    func unusable() async throws {
        try await withGenerator("Sorry, I can't write that.") { app, ada, model in
            try await app.grantPremium("ada@example.com")
            let reply = try await app.send(.POST, "/api/chat/generate", token: ada, json: Self.ask)
            #expect(reply.status == .serviceUnavailable && reply.errorCode == "unusable_answer", "\(reply.body.string)")
            #expect(model.requests.count == 2)
            #expect(try await app.send(.GET, "/api/chat/conversations", token: ada).json?["conversations"]?.arrayValue?.isEmpty == true)
        }
    }

    @Test("refusals: free account 403, no key 422, out-of-range request 422, an address in the spec 422; no model asked")
    func refused() async throws {
        try await withGenerator(Self.story) { app, ada, model in
            let free = try await app.send(.POST, "/api/chat/generate", token: ada, json: Self.ask)
            #expect(free.status == .forbidden && free.errorCode == "premium_required")
            try await app.grantPremium("ada@example.com")
            let noKey = try await app.send(.POST, "/api/chat/generate", token: ada, json: #"{"prompt":"x","model":"anthropic:claude-3-5-haiku-latest"}"#)
            #expect(noKey.status == .unprocessableEntity && noKey.errorCode == "missing_key", "\(noKey.body.string)")
            let many = try await app.send(.POST, "/api/chat/generate", token: ada, json: #"{"prompt":"x","characters":7,"model":"openai:gpt-4o-mini"}"#)
            #expect(many.status == .unprocessableEntity, "\(many.body.string)")
            let elsewhere = try await app.send(.POST, "/api/chat/generate", token: ada, json: #"{"prompt":"x","model":"openai-compatible:m@http://10.0.0.1/v1"}"#)
            #expect(elsewhere.status == .unprocessableEntity && elsewhere.errorCode == "invalid_model")
            #expect(model.requests.isEmpty)
        }
    }

    /// The story streamed in OpenAI's format, its last piece held until `release` says so.
    static func held(until release: @escaping @Sendable () async -> Void) -> LoopbackServer.Handler {
        { _ in
            var reply = VendorWire.streamed(.openai, pieces: VendorWire.pieces(of: story, every: 20), pause: .zero)
            let last = (reply.pieces?.count ?? 1) - 1
            reply.beforePiece = { index in if index == last { await release() } }
            return reply
        }
    }

    @Test("with Accept: text/event-stream each message arrives while the model is still writing, then the kept conversation")
    func streamed() async throws {
        let shown = LockedValue(0)
        let heldUntilShown = LockedValue<Bool?>(nil)
        try await withGenerator(handler: Self.held {
            let seen = await eventually(timeout: 60) { shown.withLock { $0 } > 0 }
            heldUntilShown.withLock { $0 = seen }
        }) { app, ada, _ in
            try await app.grantPremium("ada@example.com")
            let events = try await LiveEvents.post(app, "/api/chat/generate", token: ada, json: Self.ask) { name, data in
                if name == "writing", data["messages"]?.arrayValue?.isEmpty == false { shown.withLock { $0 += 1 } }
                return true
            }
            #expect(heldUntilShown.withLock { $0 } == true, "no message arrived before the model's answer ended")
            let names = events.map(\.name)
            #expect(names.first == "writing" && names.last == "conversation", "\(names)")
            let counts = events.filter { $0.name == "writing" }.compactMap { $0.data["messages"]?.arrayValue?.count }
            #expect(counts == counts.sorted() && counts.last == 5, "\(counts)")
            let kept = try #require(events.last?.data)
            #expect(kept["title"] == "Leftovers" && kept["messages"]?.arrayValue?.count == 5)
            let id = try #require(kept["id"]?.stringValue)
            #expect(try await app.send(.GET, "/api/chat/conversations/\(id)", token: ada).json?["messages"]?[1]?["text"] == "not me 👀")
        }
    }

    @Test("hanging up stops the model's request at once and keeps nothing")
    func hangingUpStopsTheModel() async throws {
        let released = LockedValue(false)
        try await withGenerator(handler: Self.held { await eventually(timeout: 60) { released.withLock { $0 } } }) { app, ada, model in
            try await app.grantPremium("ada@example.com")
            // The client reads until the first message, then hangs up (the page's Cancel).
            _ = try await LiveEvents.post(app, "/api/chat/generate", token: ada, json: Self.ask) { name, data in
                !(name == "writing" && data["messages"]?.arrayValue?.isEmpty == false)
            }
            #expect(await eventually(timeout: 60) { model.hungUp == 1 }, "the model's request was not stopped")
            released.withLock { $0 = true }
            #expect(model.requests.count == 1)
            #expect(try await app.send(.GET, "/api/chat/conversations", token: ada).json?["conversations"]?.arrayValue?.isEmpty == true)
        }
    }
}

/// A streamed reply read over a real connection as it arrives, as the web app reads it.
enum LiveEvents {
    /// POSTs `json` to the running server with `Accept: text/event-stream` and hands each event
    /// to `keepReading`; stops (hanging up) when it answers false, or when the reply ends.
    static func post(
        _ app: Application, _ path: String, token: String, json: String, keepReading: @escaping @Sendable (String, JSONValue) -> Bool
    ) async throws -> [(name: String, data: JSONValue)] {
        try await app.server.start(address: .hostname("127.0.0.1", port: 0))
        do {
            let events = try await read(app, path, token: token, json: json, keepReading: keepReading)
            await app.server.shutdown()
            return events
        } catch {
            await app.server.shutdown()
            throw error
        }
    }

    private static func read(
        _ app: Application, _ path: String, token: String, json: String, keepReading: @escaping @Sendable (String, JSONValue) -> Bool
    ) async throws -> [(name: String, data: JSONValue)] {
        let port = try #require(app.http.server.shared.localAddress?.port)
        let transport = VendorTransport(key: nil, timeout: 120, retry: RetryPolicy(maxAttempts: 1), limiter: ConcurrencyLimiter(limit: 1))
        let request = VendorRequest(url: "http://127.0.0.1:\(port)\(path)", headers: [
            ("Authorization", "Bearer \(token)"), ("Content-Type", "application/json"), ("Accept", "text/event-stream"),
        ], body: Data(json.utf8))
        let events = LockedValue<[(name: String, data: JSONValue)]>([])
        struct Enough: Error {}
        var name = ""
        do {
            try await transport.streamLines(request, logger: Logger(label: "test")) { line in
                if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
                guard line.hasPrefix("data: "), let data = JSONValue(parsing: Data(line.dropFirst(6).utf8)) else { return }
                events.withLock { $0.append((name, data)) }
                if !keepReading(name, data) { throw Enough() }
            }
        } catch is Enough {}
        return events.value
    }
}
