import Foundation
import LanguageModels
import Testing
import TestSupport
import VendorHTTP

@Suite("Wire formats")
struct WireFormatTests {
    @Test("OpenAI: path, bearer key, json_schema response format, usage")
    func openAI() async throws {
        try await LoopbackServer.withServer(handler: answering(.openai, #"{"word":"hello","note":null}"#)) { server in
            let response = try await makeModel(.openai, server: server, model: "gpt-4o-mini").complete(structuredRequest)
            #expect(response.text == #"{"word":"hello","note":null}"#)
            #expect(response.provider == .openai)
            #expect(response.model == "gpt-4o-mini")
            let recorded = try #require(server.requests.first)
            #expect(recorded.method == "POST")
            #expect(recorded.uri == "/v1/chat/completions")
            #expect(recorded.header("authorization") == "Bearer \(testKey)")
            #expect(recorded.header("content-type") == "application/json")
            let body = try #require(recorded.json)
            #expect(body["model"] == "gpt-4o-mini")
            #expect(body["messages"]?[0]?["role"] == "system")
            #expect(body["messages"]?[0]?["content"] == "You answer in one word.")
            #expect(body["messages"]?[1]?["role"] == "user")
            #expect(body["messages"]?[1]?["content"] == "Say hello.")
            #expect(body["temperature"] == 0.2)
            #expect(body["max_completion_tokens"] == 64)
            #expect(body["response_format"]?["type"] == "json_schema")
            #expect(body["response_format"]?["json_schema"]?["name"] == "answer")
            #expect(body["response_format"]?["json_schema"]?["strict"] == true)
            #expect(body["response_format"]?["json_schema"]?["schema"] == answerSchema.schema)
            let expectedInput = VendorWire.inputTokens(try #require(VendorWire.prompt(of: recorded, provider: .openai)))
            #expect(response.usage.inputTokens == expectedInput)
            #expect(response.usage.outputTokens == TokenCount.approximate(response.text))
        }
    }

    @Test("OpenAI-compatible: same path under the given base, no key needed, max_tokens")
    func compatible() async throws {
        try await LoopbackServer.withServer(handler: answering(.openaiCompatible, #"{"word":"hi","note":null}"#)) { server in
            let spec = try ModelSpec(parsing: "openai-compatible:llama3@\(server.baseURL)/v1")
            let model = try LanguageModelFactory(environment: [:], timeout: loopbackTimeout).makeModel(spec)
            let response = try await model.complete(structuredRequest)
            #expect(response.json?["word"] == "hi")
            let recorded = try #require(server.requests.first)
            #expect(recorded.uri == "/v1/chat/completions")
            #expect(recorded.header("authorization") == nil)
            #expect(recorded.json?["model"] == "llama3")
            #expect(recorded.json?["max_tokens"] == 64)
            #expect(recorded.json?["response_format"]?["json_schema"]?["strict"] == true)
        }
    }

    @Test("prose that must not loop is sampled with DRY by the model on this machine (llama.cpp), and by no other server")
    func repetitionSampling() async throws {
        try await LoopbackServer.withServer(handler: answering(.openaiCompatible, "Once upon a time.")) { server in
            let prose = CompletionRequest(system: "You tell stories.", user: "Tell one.", temperature: 0.8, maxOutputTokens: 64, discouragesRepetition: true)
            for provider in [Provider.local, .openaiCompatible] {
                let model = RemoteLanguageModel(provider: provider, model: "m", baseURL: server.baseURL + "/v1", key: nil,
                                                timeout: loopbackTimeout, retry: .none, limiter: ConcurrencyLimiter(limit: 1))
                _ = try await model.complete(prose)
                _ = try await model.complete(CompletionRequest(system: "s", user: "u", maxOutputTokens: 8))
            }
            let bodies = server.requests.compactMap(\.json)
            #expect(bodies.count == 4)
            #expect(bodies[0]["dry_multiplier"] == 0.8 && bodies[0]["dry_base"] == 1.75 && bodies[0]["dry_allowed_length"] == 2)
            #expect(bodies[1]["dry_multiplier"] == nil, "only prose asks for it")
            #expect(bodies[2]["dry_multiplier"] == nil && bodies[3]["dry_multiplier"] == nil, "another server may not know llama.cpp's fields")
        }
    }

    @Test("Anthropic: x-api-key, version header, forced tool with input_schema")
    func anthropic() async throws {
        try await LoopbackServer.withServer(handler: answering(.anthropic, #"{"note":null,"word":"hello"}"#)) { server in
            let response = try await makeModel(.anthropic, server: server, model: "claude-3-5-haiku-latest").complete(structuredRequest)
            #expect(response.json == ["word": "hello", "note": nil])
            let recorded = try #require(server.requests.first)
            #expect(recorded.uri == "/v1/messages")
            #expect(recorded.header("x-api-key") == testKey)
            #expect(recorded.header("anthropic-version") == "2023-06-01")
            #expect(recorded.header("authorization") == nil)
            let body = try #require(recorded.json)
            #expect(body["system"] == "You answer in one word.")
            #expect(body["messages"]?[0]?["role"] == "user")
            #expect(body["messages"]?[0]?["content"] == "Say hello.")
            #expect(body["max_tokens"] == 64)
            #expect(body["tools"]?[0]?["name"] == "answer")
            #expect(body["tools"]?[0]?["input_schema"] == answerSchema.schema)
            #expect(body["tool_choice"] == ["type": "tool", "name": "answer"])
            #expect(response.usage.inputTokens > 0)
        }
    }

    @Test("Gemini: model in the path, x-goog-api-key, responseSchema in Gemini's dialect, usageMetadata")
    func gemini() async throws {
        try await LoopbackServer.withServer(handler: answering(.gemini, #"{"word":"hello","note":null}"#)) { server in
            let response = try await makeModel(.gemini, server: server, model: "gemini-2.0-flash").complete(structuredRequest)
            #expect(response.json?["word"] == "hello")
            let recorded = try #require(server.requests.first)
            #expect(recorded.uri == "/v1beta/models/gemini-2.0-flash:generateContent")
            #expect(recorded.header("x-goog-api-key") == testKey)
            #expect(!recorded.uri.contains("key="))
            let body = try #require(recorded.json)
            #expect(body["systemInstruction"]?["parts"]?[0]?["text"] == "You answer in one word.")
            #expect(body["contents"]?[0]?["role"] == "user")
            #expect(body["contents"]?[0]?["parts"]?[0]?["text"] == "Say hello.")
            let config = try #require(body["generationConfig"])
            #expect(config["responseMimeType"] == "application/json")
            #expect(config["maxOutputTokens"] == 64)
            let schema = try #require(config["responseSchema"])
            #expect(schema["type"] == "OBJECT")
            #expect(schema["additionalProperties"] == nil)
            #expect(schema["properties"]?["word"]?["type"] == "STRING")
            #expect(schema["properties"]?["note"] == ["type": "STRING", "nullable": true])
            #expect(schema["propertyOrdering"] == ["note", "word"])
            #expect(response.usage.inputTokens == VendorWire.inputTokens(try #require(VendorWire.prompt(of: recorded, provider: .gemini))))
        }
    }

    @Test("OPENAI_BASE_URL with /v1, and the other vendors' base URL variables, are honoured")
    func baseURLsFromEnvironment() async throws {
        try await LoopbackServer.withServer(handler: { request in
            let provider: Provider = request.uri.hasPrefix("/v1/messages") ? .anthropic : request.uri.hasPrefix("/v1beta") ? .gemini : .openai
            return VendorWire.success(provider, answer: #"{"word":"x","note":null}"#, for: request)
        }) { server in
            let factory = LanguageModelFactory(environment: [
                "OPENAI_BASE_URL": server.baseURL + "/v1", "OPENAI_API_KEY": testKey,
                "ANTHROPIC_BASE_URL": server.baseURL, "ANTHROPIC_API_KEY": testKey,
                "GEMINI_BASE_URL": server.baseURL, "GEMINI_API_KEY": testKey,
            ], timeout: loopbackTimeout, retry: RetryPolicy(maxAttempts: 1))
            for spec in ["openai:gpt-4o-mini", "anthropic:claude-3-5-haiku-latest", "gemini:gemini-2.0-flash"] {
                _ = try await factory.makeModel(try ModelSpec(parsing: spec)).complete(structuredRequest)
            }
            #expect(server.requests.map(\.uri) == ["/v1/chat/completions", "/v1/messages", "/v1beta/models/gemini-2.0-flash:generateContent"])
        }
    }

    @Test("Model specs parse, and bad ones say how to write them")
    func modelSpecs() throws {
        #expect(try ModelSpec(parsing: "openai:gpt-4o-mini") == ModelSpec(provider: .openai, model: "gpt-4o-mini"))
        #expect(try ModelSpec(parsing: "anthropic:claude-3-5-haiku-latest").provider == .anthropic)
        #expect(try ModelSpec(parsing: "gemini:gemini-2.0-flash").model == "gemini-2.0-flash")
        let local = try ModelSpec(parsing: "openai-compatible:llama3@http://localhost:11434/v1")
        #expect(local == ModelSpec(provider: .openaiCompatible, model: "llama3", baseURL: "http://localhost:11434/v1"))
        #expect(local.description == "openai-compatible:llama3@http://localhost:11434/v1")
        #expect(throws: ModelSpec.ParseError.unknownProvider("mistral")) { try ModelSpec(parsing: "mistral:large") }
        #expect(throws: ModelSpec.ParseError.missingProvider("gpt-4o")) { try ModelSpec(parsing: "gpt-4o") }
        #expect(throws: ModelSpec.ParseError.missingBaseURL("openai-compatible:llama3")) { try ModelSpec(parsing: "openai-compatible:llama3") }
        // --base-url supplies (or replaces) the address.
        #expect(try ModelSpec(parsing: "openai-compatible:llama3", baseURL: "http://127.0.0.1:8000/v1")
            == ModelSpec(provider: .openaiCompatible, model: "llama3", baseURL: "http://127.0.0.1:8000/v1"))
        #expect(try ModelSpec(parsing: "openai:gpt-4o-mini@http://a/v1", baseURL: "http://b/v1").baseURL == "http://b/v1")
    }

    @Test("Retry-After is read as seconds or as an HTTP date")
    func retryAfterParsing() {
        #expect(RetryPolicy.retryAfterSeconds("3") == 3)
        #expect(RetryPolicy.retryAfterSeconds("0.5") == 0.5)
        let now = Date(timeIntervalSince1970: 1_445_412_480) // Wed, 21 Oct 2015 07:28:00 GMT
        #expect(RetryPolicy.retryAfterSeconds("Wed, 21 Oct 2015 07:28:10 GMT", now: now) == 10)
        #expect(RetryPolicy.retryAfterSeconds("Wed, 21 Oct 2015 07:27:00 GMT", now: now) == 0)
        #expect(RetryPolicy.retryAfterSeconds("soon") == nil)
    }
}
