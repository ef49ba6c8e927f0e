import Audio
import Calls
import Foundation
import LanguageModels
import Telephony
import TestSupport
import Testing
import VendorHTTP

/// The agent speaks first, at once (issue 45): a call's opening is made ahead, per scenario and
/// voice, and played the moment the stream starts, without waiting on the model; the model
/// later hears it as what the agent said.
@Suite("Call openings made ahead")
struct CallOpeningTests {
    typealias Agent = LocalVoiceAgentTests

    /// The comedian with its first words written, as the built-in scenarios have them.
    static let written = {
        var scenario = Fixtures.comedian
        scenario.opening = "Hey, it is Benny on the line with new jokes. Have you got a minute for the best one?"
        return scenario
    }()

    static func grant(_ scenario: CallScenario) -> @Sendable (MediaStreamStart) async -> MediaStreamGrant? {
        { _ in MediaStreamGrant(callID: "call-opening", scenario: scenario, durationLimit: 600) }
    }

    @Test("an opening made ahead is heard before the model is asked anything, and the model's first turn knows it was said")
    func openingMadeAhead() async throws {
        let openings = CallOpenings(directory: nil)
        let opening = try await CallOpening.voicing(
            "Hi, it is the comedian calling you back. Have you got a minute for a joke?", speak: Agent.speak)
        #expect(opening.sentences.count == 2)
        await openings.keep(opening, for: CallOpenings.Key(scenario: Fixtures.comedian, voice: Agent.voice))
        try await Agent.conversation(openings: openings) { bridge, prompts, _ in
            let client = try await MediaStreamClient.connect(to: bridge.url, options: .init(parameters: ["call_token": "token-comedian"], playbackSpeed: 16))
            // Two sentences of one second each, marked as any reply is, and nothing asked.
            #expect(await eventually { client.frames.count >= 100 && client.echoed.count >= 2 })
            #expect(prompts.withLock { $0.isEmpty })
            #expect(client.frames.count == 100 && client.echoed.count == 2)

            try await client.sendAudio(callerSpeech(seconds: 1) + [UInt8](repeating: MuLaw.silence, count: 8000))
            #expect(await eventually { prompts.withLock { $0.count } == 1 })
            let messages = prompts.withLock { $0[0] }["messages"]?.arrayValue ?? []
            let said = messages.filter { $0["role"]?.stringValue == "assistant" }.compactMap { $0["content"]?.stringValue }
            #expect(said == [opening.text])
            #expect(messages.last?["content"]?.stringValue == "Tell me a joke.")
            await client.stop()
            #expect(await eventually { bridge.log.endedSummaries.count == 1 })
        }
    }

    @Test("a scenario's written opening is voiced without the model, and kept for the next call")
    func writtenOpening() async throws {
        let openings = CallOpenings(directory: nil)
        try await Agent.conversation(openings: openings, authorize: Self.grant(Self.written)) { bridge, prompts, _ in
            let client = try await MediaStreamClient.connect(to: bridge.url, options: .init(parameters: ["call_token": "any"], playbackSpeed: 16))
            #expect(await eventually { client.frames.count >= 100 })
            #expect(prompts.withLock { $0.isEmpty })
            let kept = await openings.ready(CallOpenings.Key(scenario: Self.written, voice: Agent.voice))
            #expect(kept?.text == Self.written.opening)
            await client.stop()
            #expect(await eventually { bridge.log.endedSummaries.count == 1 })
        }
    }

    @Test("the greeting the model writes on a first call is kept: the next call opens with it, and the model is not asked again")
    func liveGreetingKept() async throws {
        let openings = CallOpenings(directory: nil)
        try await Agent.conversation(openings: openings) { bridge, prompts, _ in
            let first = try await MediaStreamClient.connect(to: bridge.url, options: .init(parameters: ["call_token": "token-comedian"], playbackSpeed: 16))
            #expect(await eventually { first.frames.count == 150 })
            let key = CallOpenings.Key(scenario: Fixtures.comedian, voice: Agent.voice)
            #expect(await eventually { await openings.ready(key) != nil })
            // As spoken: the pieces the voice was given (a first clause may be one), in order.
            let kept = await openings.ready(key)
            #expect(kept?.text == Agent.greeting.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " "), "\(kept?.sentences.map(\.text) ?? [])")
            await first.stop()

            let second = try await MediaStreamClient.connect(to: bridge.url, options: .init(parameters: ["call_token": "token-comedian"], playbackSpeed: 16))
            #expect(await eventually { second.frames.count == 150 })
            #expect(prompts.withLock { $0.count } == 1)
            await second.stop()
            #expect(await eventually { bridge.log.endedSummaries.count == 2 })
        }
    }

    @Test("an opening the model writes ahead is written once for askers at once, with the call's prompt, and kept on disk")
    func writtenAheadOnce() async throws {
        let prompts = LockedValue<[JSONValue]>([])
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("call-openings-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await LoopbackServer.withServer(handler: { request in
            prompts.withLock { $0.append(request.json ?? .null) }
            return VendorWire.success(.openaiCompatible, answer: Agent.greeting.joined(), for: request)
        }) { server in
            let model = Agent.model(server)
            let openings = CallOpenings(directory: directory)
            let key = CallOpenings.Key(scenario: Fixtures.comedian, voice: Agent.voice)
            let write: @Sendable () async throws -> String = {
                try await LocalVoiceAgent.writeOpening(for: Fixtures.comedian, model: model, priority: .background)
            }
            let made = try await withThrowingTaskGroup(of: CallOpening.self) { group in
                for _ in 0..<3 { group.addTask { try await openings.opening(key, write: write, speak: Agent.speak) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(prompts.withLock { $0.count } == 1)
            #expect(Set(made).count == 1 && made.first?.sentences.count == 3)
            let messages = prompts.withLock { $0[0] }["messages"]?.arrayValue ?? []
            #expect(messages.first?["content"]?.stringValue?.hasPrefix(Fixtures.comedian.instructions) == true)
            #expect(messages.last?["content"]?.stringValue?.contains("The call has just been answered") == true)
            // Another server process (or a restart) finds it on disk.
            #expect(await CallOpenings(directory: directory).ready(key) == made.first)
            #expect(await CallOpenings(directory: directory).ready(CallOpenings.Key(scenario: Self.written, voice: Agent.voice)) == nil)
        }
    }
}
