import Foundation
import Synchronization
import LanguageModels
import TestSupport
import Testing
import VendorHTTP

/// An OpenAI chat-completion chunk, as OpenAI, llama.cpp and vLLM stream them.
func chunk(_ text: String?, finish: String? = nil) -> String {
    let delta: JSONValue = text.map { ["content": .string($0)] } ?? [:]
    let choice: JSONValue = ["index": 0, "delta": delta, "finish_reason": finish.map { .string($0) } ?? .null]
    return JSONValue.object(["model": "test-model", "choices": [choice]]).canonicalText
}

let usageChunk = JSONValue.object(["choices": [], "usage": ["prompt_tokens": 21, "completion_tokens": 3]]).canonicalText

@Suite("Streamed answers and conversations")
struct StreamingTests {
    @Test("an OpenAI-compatible stream arrives piece by piece, then whole with its usage")
    func streamsPieces() async throws {
        try await LoopbackServer.withServer { server in
            server.enqueue(.events([chunk("Once"), chunk(" upon"), chunk(" a time."), chunk(nil, finish: "stop"), usageChunk, "[DONE]"],
                                   pause: .milliseconds(20)))
            let model = makeModel(.openaiCompatible, server: server)
            var pieces: [String] = []
            var finished: CompletionResponse?
            for try await event in model.stream(CompletionRequest(system: "Tell a story.", user: "Begin.")) {
                switch event {
                case .text(let piece): pieces.append(piece)
                case .finished(let response): finished = response
                }
            }
            #expect(pieces == ["Once", " upon", " a time."])
            #expect(finished?.text == "Once upon a time.")
            #expect(finished?.usage == TokenUsage(inputTokens: 21, outputTokens: 3))
            let body = try #require(server.requests.first?.json)
            #expect(body["stream"] == true)
            #expect(body["stream_options"]?["include_usage"] == true)
        }
    }

    @Test("a stream stopped by the token limit, or cut before its end, is an error, not a short answer")
    func refusesTruncatedStreams() async throws {
        try await LoopbackServer.withServer { server in
            server.enqueue(
                .events([chunk("Once upon"), chunk(nil, finish: "length"), "[DONE]"]),
                .events([chunk("Once upon")]))
            let model = makeModel(.openaiCompatible, server: server)
            for expected in ["cut off at the output token limit", "ended before the answer did"] {
                let error = await #expect(throws: LanguageModelError.self) {
                    _ = try await model.stream(CompletionRequest(system: "s", user: "u")).response()
                }
                #expect(error?.detail?.contains(expected) == true, "\(String(describing: error))")
            }
        }
    }

    @Test("cancelling the listener hangs up on the server mid-answer")
    func cancellingHangsUp() async throws {
        try await LoopbackServer.withServer { server in
            server.enqueue(.events((0..<200).map { chunk("word \($0) ") } + [chunk(nil, finish: "stop")], pause: .milliseconds(20)))
            let model = makeModel(.openaiCompatible, server: server)
            let listener = Task {
                var count = 0
                for try await event in model.stream(CompletionRequest(system: "s", user: "u")) {
                    if case .text = event { count += 1 }
                    if count == 3 { break }
                }
                return count
            }
            #expect(try await listener.value == 3)
            // The server notices when its next write finds the connection closed.
            for _ in 0..<200 where server.abandoned == 0 { try await Task.sleep(for: .milliseconds(50)) }
            #expect(server.abandoned == 1)
        }
    }

    @Test("earlier turns go between the system message and the question, in each vendor's shape")
    func conversationHistory() async throws {
        try await LoopbackServer.withServer(handler: { request in
            let provider: Provider = request.uri.contains("generateContent") ? .gemini : request.uri.contains("messages") ? .anthropic : .openai
            return VendorWire.success(provider, answer: "fine", for: request)
        }) { server in
            let request = CompletionRequest(
                system: "Be kind.", history: [ChatTurn(.user, "Hi"), ChatTurn(.assistant, "Hello!")], user: "How are you?")
            for provider in [Provider.openai, .anthropic, .gemini] {
                _ = try await makeModel(provider, server: server).complete(request)
            }
            let bodies = server.requests.compactMap(\.json)
            #expect(bodies[0]["messages"]?.arrayValue?.compactMap { $0["role"]?.stringValue } == ["system", "user", "assistant", "user"])
            #expect(bodies[0]["messages"]?[2]?["content"] == "Hello!")
            #expect(bodies[1]["messages"]?.arrayValue?.compactMap { $0["role"]?.stringValue } == ["user", "assistant", "user"])
            #expect(bodies[2]["contents"]?.arrayValue?.compactMap { $0["role"]?.stringValue } == ["user", "model", "user"])
            // A conversation is part of what an answer is cached under.
            let bare = CompletionRequest(system: "Be kind.", user: "How are you?")
            #expect(ResponseCache.key(for: request, provider: .openai, model: "m") != ResponseCache.key(for: bare, provider: .openai, model: "m"))
        }
    }
}

@Suite("Answer checks")
struct AnswerCheckTests {
    @Test("loops, other scripts, markup and lengths are caught; plain prose passes")
    func problems() {
        let check = AnswerCheck(words: 3...60)
        #expect(check.problems(in: "The tide came in slowly, and the boats lifted off the sand one by one.").isEmpty)
        #expect(!check.problems(in: "Yes.").isEmpty)
        #expect(!check.problems(in: String(repeating: "and then the cat ", count: 6)).isEmpty)
        #expect(!check.problems(in: "The story continues 然后他们去了海边看日落，一起吃了晚饭，聊了很久很久很久").isEmpty)
        #expect(!check.problems(in: "**Chapter one** The tide came in.").isEmpty)
        #expect(!check.problems(in: "```\nThe tide came in.\n```").isEmpty)
        #expect(!check.problems(in: "<p>The tide came in.</p>").isEmpty)
        #expect(AnswerCheck(words: 1...2000).problems(in: "Café déjà vu, naïve Zoë.").isEmpty)
    }

    @Test("a bad answer is asked for once more; a second bad one is an error with the reason")
    func retriesOnce() async throws {
        let answers = Mutex(["la la la la la la la la la la la la la la la la la la", "The lighthouse keeper waved from the rocks.", "ok", "ok"])
        try await LoopbackServer.withServer(handler: { request in
            VendorWire.success(.openai, answer: answers.withLock { $0.removeFirst() }, for: request)
        }) { server in
            let checked = CheckedModel(makeModel(.openai, server: server), check: AnswerCheck(words: 3...40))
            let answer = try await checked.complete(CompletionRequest(system: "s", user: "u"))
            #expect(answer.text == "The lighthouse keeper waved from the rocks.")
            #expect(server.requests.count == 2)
            #expect((server.requests[1].json?["temperature"]?.doubleValue ?? 0) > 0)

            let error = await #expect(throws: LanguageModelError.self) { _ = try await checked.complete(CompletionRequest(system: "s", user: "u")) }
            #expect(error?.detail?.contains("words") == true)
        }
    }
}

/// Anthropic's and Gemini's streams, event by event as their APIs send them.
@Suite("Anthropic and Gemini streams")
struct VendorStreamTests {
    static func stream(_ events: [String]) -> LoopbackReply { VendorWire.stream(events) }
    static func anthropic(_ texts: [String], stop: String = "end_turn") -> LoopbackReply { VendorWire.streamed(.anthropic, pieces: texts, stop: stop) }
    static func gemini(_ texts: [String], finish: String = "STOP") -> LoopbackReply { VendorWire.streamed(.gemini, pieces: texts, stop: finish) }

    func collect(_ model: RemoteLanguageModel) async throws -> ([String], CompletionResponse?) {
        var pieces: [String] = []
        var finished: CompletionResponse?
        for try await event in model.stream(CompletionRequest(system: "Be brief.", user: "Hello?")) {
            switch event {
            case .text(let piece): pieces.append(piece)
            case .finished(let response): finished = response
            }
        }
        return (pieces, finished)
    }

    @Test("Anthropic: text deltas piece by piece, usage from the first and last events, stream: true")
    func anthropicStreams() async throws {
        try await LoopbackServer.withServer { server in
            server.enqueue(Self.anthropic(["Hello", " there", "."]))
            let (pieces, finished) = try await collect(makeModel(.anthropic, server: server))
            #expect(pieces == ["Hello", " there", "."])
            #expect(finished?.text == "Hello there.")
            #expect(finished?.usage == TokenUsage(inputTokens: 25, outputTokens: 15))
            #expect(finished?.model == "claude-test")
            #expect(server.requests.first?.uri == "/v1/messages")
            #expect(server.requests.first?.json?["stream"] == true)

            // Cut off at the token limit, or an error event mid-stream: an error, not a short answer.
            server.enqueue(Self.anthropic(["Hello"], stop: "max_tokens"))
            await #expect(throws: LanguageModelError.self) { _ = try await collect(makeModel(.anthropic, server: server)) }
            server.enqueue(Self.stream(["event: error\ndata: " + JSONValue.object(["type": "error", "error": ["type": "overloaded_error", "message": "Overloaded"]]).canonicalText]))
            let error = await #expect(throws: LanguageModelError.self) { _ = try await collect(makeModel(.anthropic, server: server, retry: .none)) }
            #expect(error?.detail?.contains("Overloaded") == true)
        }
    }

    @Test("Gemini: streamGenerateContent?alt=sse, each event a response holding the next piece")
    func geminiStreams() async throws {
        try await LoopbackServer.withServer { server in
            server.enqueue(Self.gemini(["Hello", " world."]))
            let (pieces, finished) = try await collect(makeModel(.gemini, server: server))
            #expect(pieces == ["Hello", " world."])
            #expect(finished?.text == "Hello world.")
            #expect(finished?.usage == TokenUsage(inputTokens: 9, outputTokens: 3))
            #expect(server.requests.first?.uri == "/v1beta/models/test-model:streamGenerateContent?alt=sse")

            server.enqueue(Self.gemini(["Hello"], finish: "MAX_TOKENS"))
            await #expect(throws: LanguageModelError.self) { _ = try await collect(makeModel(.gemini, server: server)) }
        }
    }
}
