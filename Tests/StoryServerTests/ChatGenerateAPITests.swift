import Foundation
import LanguageModels
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
        try await LoopbackServer.withServer(handler: { VendorWire.success(.openai, answer: answer, for: $0) }) { model in
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
}
