import ChatStories
import ChatWorkflows
import Foundation
import LanguageModels
import Logging
import Testing
import TestSupport
import VendorHTTP

/// The generator against loopback servers speaking each provider's wire format: a good answer,
/// one that can be repaired, one asked again, and one that never fits.
struct ChatGeneratorTests {
    static let request = ChatGenerationRequest(prompt: "a lost key", genre: .mystery, mood: .scary, length: .short)

    static let good = #"""
        {"title": "The key", "characters": [{"name": "Sam", "is_me": false}, {"name": "Jo", "is_me": true}],
         "messages": [{"from": "Sam", "text": "who has the key?"}, {"from": "Jo", "text": "I do 🔑"}, {"from": "Sam", "text": "check again"},
                      {"from": "Jo", "text": "it's gone"}, {"from": "Sam", "text": "I know."}]}
        """#

    static func model(_ provider: Provider, server: LoopbackServer) -> RemoteLanguageModel {
        RemoteLanguageModel(
            provider: provider, model: provider == .gemini ? "gemini-2.0-flash" : "test-model",
            baseURL: [.openai, .openaiCompatible].contains(provider) ? server.baseURL + "/v1" : server.baseURL,
            key: Secret("sk-chat-test-0123456789"), timeout: loopbackTimeout, retry: RetryPolicy(maxAttempts: 1),
            limiter: ConcurrencyLimiter(limit: 2), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        )
    }

    static let providers: [Provider] = [.openai, .anthropic, .gemini, .openaiCompatible]

    @Test(arguments: providers)
    func aGoodAnswerBecomesAConversation(provider: Provider) async throws {
        try await LoopbackServer.withServer(handler: { VendorWire.success(provider, answer: Self.good, for: $0) }) { server in
            let conversation = try await ChatGenerator(model: Self.model(provider, server: server)).generate(Self.request)
            #expect(conversation.title == "The key")
            #expect(conversation.characters.map(\.name) == ["Sam", "Jo"])
            #expect(conversation.me?.name == "Jo")
            #expect(conversation.messages.map(\.text) == ["who has the key?", "I do 🔑", "check again", "it's gone", "I know."])
            #expect(conversation.messages[1].characterID == conversation.me?.id)
            try conversation.validateForExport()
            #expect(server.requests.count == 1)
            let prompt = try #require(VendorWire.prompt(of: server.requests[0], provider: provider))
            #expect(prompt.user.contains("a lost key") && prompt.user.contains("mystery") && prompt.user.contains("between 5 and 10"))
        }
    }

    @Test(arguments: providers)
    func halfAnArrayInACodeFenceIsRepairedWithoutAskingAgain(provider: Provider) async throws {
        // Anthropic answers a forced tool call: its input is JSON, never words or a fence.
        guard provider != .anthropic else { return }
        let cut = "Here it is:\n```json\n" + #"{"title": "Cut", "characters": [{"name": "Sam", "is_me": true}, {"name": "Jo", "is_me": true}], "messages": ["#
            + (1...6).map { #"{"from": "\#($0 % 2 == 0 ? "Sam" : "jo")", "text": "line \#($0)"}"# }.joined(separator: ", ")
            + #", {"from": "Sam", "te"#
        try await LoopbackServer.withServer(handler: { VendorWire.success(provider, answer: cut, for: $0) }) { server in
            let conversation = try await ChatGenerator(model: Self.model(provider, server: server)).generate(Self.request)
            #expect(conversation.messages.count == 6, "the cut-off seventh message is dropped")
            #expect(conversation.characters.filter(\.isMe).map(\.name) == ["Sam"], "one 'me': the first who claims it")
            #expect(conversation.messages[0].characterID == conversation.characters[1].id, "names match whatever their case")
            #expect(server.requests.count == 1)
        }
    }

    @Test(arguments: providers)
    func proseIsAskedAgainWithWhatWasWrong(provider: Provider) async throws {
        let replies = LockedValue(["Sure! Here's a spooky story about a key.", Self.good])
        try await LoopbackServer.withServer(handler: { request in
            VendorWire.success(provider, answer: replies.withLock { $0.removeFirst() }, for: request)
        }) { server in
            let conversation = try await ChatGenerator(model: Self.model(provider, server: server)).generate(Self.request)
            #expect(conversation.messages.count == 5)
            #expect(server.requests.count == 2)
            // The second request carries the first answer and what was wrong with it.
            let retry = String(decoding: server.requests[1].body, as: UTF8.self)
            #expect(retry.contains(provider == .anthropic ? "could not be read" : "not JSON"), "\(retry)")
        }
    }

    @Test(arguments: providers)
    func anAnswerThatNeverFitsCreatesNothingAndSaysSo(provider: Provider) async throws {
        let strangers = #"{"title": "x", "characters": [{"name": "A", "is_me": true}, {"name": "B", "is_me": false}], "messages": [{"from": "Zed", "text": "hi"}]}"#
        try await LoopbackServer.withServer(handler: { VendorWire.success(provider, answer: strangers, for: $0) }) { server in
            await #expect {
                try await ChatGenerator(model: Self.model(provider, server: server)).generate(Self.request)
            } throws: { error in
                guard let error = error as? ChatGenerationError, case .unusableAnswer(let problems) = error else { return false }
                return problems.contains { $0.contains("Zed") } && error.description.contains("Nothing was created")
            }
            #expect(server.requests.count == 2, "asked once more, then given up")
        }
    }

    @Test func aRequestOutsideTheLimitsIsRefusedBeforeAnyModelIsAsked() async throws {
        try await LoopbackServer.withServer(handler: { VendorWire.success(.openai, answer: Self.good, for: $0) }) { server in
            let generator = ChatGenerator(model: Self.model(.openai, server: server))
            for bad in [ChatGenerationRequest(prompt: "  "), ChatGenerationRequest(prompt: "x", characters: 9),
                        ChatGenerationRequest(prompt: String(repeating: "x", count: 1_001))] {
                await #expect(throws: ChatGenerationError.self) { try await generator.generate(bad) }
            }
            #expect(server.requests.isEmpty)
        }
    }
}

/// The answer streamed: messages are shown while the model is still writing, and a caller that
/// stops listening stops the model's request.
struct ChatGeneratorStreamingTests {
    static let streamingProviders: [Provider] = [.openai, .gemini, .openaiCompatible]

    @Test("each message is shown once written, before the answer ends", arguments: streamingProviders)
    func messagesArriveBeforeTheAnswerEnds(provider: Provider) async throws {
        let shown = LockedValue<[ChatConversation]>([])
        let heldUntilShown = LockedValue<Bool?>(nil)
        let pieces = VendorWire.pieces(of: ChatGeneratorTests.good, every: 20)
        try await LoopbackServer.withServer(handler: { _ in
            var reply = VendorWire.streamed(provider, pieces: pieces, pause: .zero)
            // The answer's last piece waits until the caller has shown a message (or gives up).
            let last = (reply.pieces?.count ?? 1) - 1
            reply.beforePiece = { index in
                guard index == last else { return }
                let seen = await eventually(timeout: 60) { shown.withLock { $0.contains { !$0.messages.isEmpty } } }
                heldUntilShown.withLock { $0 = seen }
            }
            return reply
        }) { server in
            let conversation = try await ChatGenerator(model: ChatGeneratorTests.model(provider, server: server)).generate(ChatGeneratorTests.request) { progress in
                if case .writing(let partial) = progress { shown.withLock { $0.append(partial) } }
            }
            #expect(heldUntilShown.withLock { $0 } == true, "no message was shown before the answer ended")
            let partials = shown.withLock { $0 }
            #expect(partials.map(\.messages.count) == partials.map(\.messages.count).sorted(), "messages are only added")
            for partial in partials {
                #expect(Array(conversation.messages.prefix(partial.messages.count)).map(\.text) == partial.messages.map(\.text))
            }
            #expect(conversation.messages.count == 5)
        }
    }

    @Test("a caller that stops listening hangs up on the model at once")
    func cancellingStopsTheRequest() async throws {
        let shown = LockedValue(0)
        let released = LockedValue(false)
        let pieces = VendorWire.pieces(of: ChatGeneratorTests.good, every: 20)
        try await LoopbackServer.withServer(handler: { _ in
            var reply = VendorWire.streamed(.openai, pieces: pieces, pause: .zero)
            let last = (reply.pieces?.count ?? 1) - 1
            // Held until the test has cancelled: the model is still "writing" when it is stopped.
            reply.beforePiece = { index in if index == last { await eventually(timeout: 600) { released.withLock { $0 } } } }
            return reply
        }) { server in
            let generator = ChatGenerator(model: ChatGeneratorTests.model(.openai, server: server))
            let writing = Task {
                try await generator.generate(ChatGeneratorTests.request) { progress in
                    if case .writing(let partial) = progress, !partial.messages.isEmpty { shown.withLock { $0 += 1 } }
                }
            }
            // A backstop for a loaded machine (the whole suite runs at once), not a timing.
            #expect(await eventually(timeout: 600) { shown.withLock { $0 } > 0 })
            writing.cancel()
            await #expect(throws: CancellationError.self) { try await writing.value }
            released.withLock { $0 = true }
            // The server's next write finds the connection closed: the request was hung up on.
            #expect(await eventually(timeout: 60) { server.abandoned == 1 })
            #expect(server.requests.count == 1, "not asked again")
        }
    }
}
