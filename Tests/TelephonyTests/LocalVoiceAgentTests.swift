import Audio
import Calls
import Foundation
import LanguageModels
import Telephony
import TestSupport
import Testing
import VendorHTTP

/// The agent that runs on this machine, through the same bridge: its model a loopback server in
/// OpenAI's streaming format, its ears and voice deterministic closures (the real audio
/// conversion in between: the caller's μ-law to a 16 kHz WAV, each sentence's 22 kHz WAV to
/// 8 kHz μ-law).
@Suite("The local voice agent on a call")
struct LocalVoiceAgentTests {
    static let greeting = ["Hello there my good friend. ", "I have been waiting all day to call you. ", "Here is my very best joke for you."]
    static let answer = ["Why did the chicken cross the road? ", "To get to the other side, of course!"]

    /// Every sentence is one second of a 22,050 Hz tone: 8,000 μ-law bytes, 50 frames.
    @Sendable static func speak(_ text: String) async throws -> Data {
        let rate = 22_050
        return WAV.encode(PCMAudio(sampleRate: rate, samples: (0..<rate).map { Int16(5000 * sin(2 * Double.pi * 330 * Double($0) / Double(rate))) }))
    }

    static func model(_ server: LoopbackServer) -> RemoteLanguageModel {
        RemoteLanguageModel(provider: .openaiCompatible, model: "test", baseURL: server.baseURL + "/v1", key: nil,
                            timeout: loopbackTimeout, retry: .none, limiter: ConcurrencyLimiter(limit: 1))
    }

    struct Heard: Sendable {
        var sampleRate: Int
        var seconds: Double
    }

    /// The voice `speak` stands for, as openings are kept by voice.
    static let voice = "test:voice"

    static func conversation(
        openings: CallOpenings? = nil, authorize: @escaping @Sendable (MediaStreamStart) async -> MediaStreamGrant? = Fixtures.grants(),
        words: @escaping @Sendable (_ call: Int) -> String = { _ in "Tell me a joke." },
        speak: @escaping @Sendable (String) async throws -> Data = speak,
        prepared: LockedValue<[JSONValue]>? = nil,
        _ body: @escaping @Sendable (Bridge, LockedValue<[JSONValue]>, LockedValue<[Heard]>) async throws -> Void
    ) async throws {
        let prompts = LockedValue<[JSONValue]>([])
        let heard = LockedValue<[Heard]>([])
        try await LoopbackServer.withServer(handler: { request in
            // The model reading the conversation while the caller speaks: nothing is written.
            if request.json?["max_tokens"]?.intValue == 1 {
                prepared?.withLock { $0.append(request.json ?? .null) }
                return VendorWire.streamed(.openaiCompatible, pieces: ["."]) }
            let count = prompts.withLock { $0.append(request.json ?? .null); return $0.count }
            return VendorWire.streamed(.openaiCompatible, pieces: count == 1 ? greeting : answer)
        }) { server in
            let effects = LocalVoiceAgent.Effects(
                transcribe: { recording in
                    guard case .samples(let audio) = recording else { throw CancellationError() }
                    let call = heard.withLock { $0.append(Heard(sampleRate: audio.sampleRate, seconds: audio.durationSeconds)); return $0.count }
                    return words(call)
                },
                model: model(server), speak: speak)
            try await Bridge.serve(authorize: authorize, makeAgent: LocalVoiceAgent.factory(effects, openings: openings, voice: voice)) { bridge in
                try await body(bridge, prompts, heard)
            }
        }
    }

    @Test("it greets first, hears a turn, answers it in 160-byte μ-law frames; the scenario is its system prompt")
    func turn() async throws {
        try await Self.conversation { bridge, prompts, heard in
            let client = try await MediaStreamClient.connect(to: bridge.url, options: .init(parameters: ["call_token": "token-comedian"], playbackSpeed: 16))
            #expect(await eventually { client.frames.count == 150 && client.echoed.count == 3 && bridge.log.marksPlayed == 3 })
            let first = try #require(prompts.withLock { $0.first })
            let system = first["messages"]?[0]?["content"]?.stringValue ?? ""
            #expect(system.hasPrefix(Fixtures.comedian.instructions))
            #expect(system.contains("phone call"))
            #expect(client.frames.allSatisfy { $0.payload.count == 160 })
            // The tone came through: loud, not silence.
            let level = MuLaw.decode(client.frames[25].payload).map { abs(Int($0)) }.max() ?? 0
            #expect(level > 4000 && level < 6000)

            try await client.sendAudio(callerSpeech(seconds: 1) + [UInt8](repeating: MuLaw.silence, count: 8000))
            #expect(await eventually { client.frames.count == 250 })
            // The utterance as it ended (the transcriber may have heard part of it before).
            let spoken = try #require(heard.withLock { $0.last })
            #expect(heard.withLock { $0.allSatisfy { $0.sampleRate == 16_000 } })
            #expect(spoken.seconds >= 1 && spoken.seconds < 2)
            let second = try #require(prompts.withLock { $0.count == 2 ? $0[1] : nil })
            let messages = second["messages"]?.arrayValue ?? []
            #expect(messages.last?["content"]?.stringValue == "Tell me a joke.")
            #expect(messages.contains { $0["role"]?.stringValue == "assistant" && $0["content"]?.stringValue?.contains("best joke") == true })
            await client.stop()
            #expect(await eventually { bridge.log.endedSummaries.count == 1 })
        }
    }

    @Test("the caller is heard while speaking: the transcriber is asked before they stop, and the turn is answered with what was heard")
    func heardWhileSpeaking() async throws {
        try await Self.conversation(words: { "Question number \($0)." }) { bridge, prompts, heard in
            let client = try await MediaStreamClient.connect(to: bridge.url, options: .init(parameters: ["call_token": "token-comedian"], playbackSpeed: 16))
            #expect(await eventually { client.frames.count == 150 && bridge.log.marksPlayed == 3 })
            // Three seconds of speech and no pause yet: the caller has not stopped.
            try await client.sendAudio(callerSpeech(seconds: 3))
            #expect(await eventually { !heard.withLock { $0.isEmpty } })
            let pass = try #require(heard.withLock { $0.first })
            #expect(pass.sampleRate == 16_000 && pass.seconds < 3.5)
            #expect(prompts.withLock { $0.count } == 1)

            try await client.sendAudio([UInt8](repeating: MuLaw.silence, count: 8000))
            #expect(await eventually { client.frames.count == 250 && prompts.withLock { $0.count } == 2 })
            // The turn's question is the same listening's last words: after its passes.
            let calls = heard.withLock { $0.count }
            #expect(calls >= 2)
            let messages = prompts.withLock { $0[1] }["messages"]?.arrayValue ?? []
            #expect(messages.last?["content"]?.stringValue == "Question number \(calls).")
            await client.stop()
            #expect(await eventually { bridge.log.endedSummaries.count == 1 })
        }
    }

    @Test("the reply starts at the caller's pause but is heard only once their turn has ended; speaking on cancels it")
    func earlyReply() async throws {
        let spoken = LockedValue<[String]>([])
        let prepared = LockedValue<[JSONValue]>([])
        try await Self.conversation(speak: { text in
            spoken.withLock { $0.append(text) }
            return try await Self.speak(text)
        }, prepared: prepared) { bridge, prompts, _ in
            let client = try await MediaStreamClient.connect(to: bridge.url, options: .init(parameters: ["call_token": "token-comedian"], playbackSpeed: 16))
            #expect(await eventually { client.frames.count == 150 && bridge.log.marksPlayed == 3 })
            let greeting = spoken.withLock { $0.count }

            // A pause of 0.5 s: long enough to start the reply, too short to end the turn.
            try await client.sendAudio(callerSpeech(seconds: 1) + [UInt8](repeating: MuLaw.silence, count: 4000))
            #expect(await eventually { spoken.withLock { $0.count } == greeting + Self.answer.count })
            #expect(prompts.withLock { $0.count } == 2)
            // The model read the conversation (the greeting) when the caller began.
            let reading = try #require(prepared.withLock { $0.first })
            #expect(reading["messages"]?.arrayValue?.contains { $0["content"]?.stringValue?.contains("best joke") == true } == true)
            try await Task.sleep(for: .milliseconds(500))
            #expect(client.frames.count == 150, "the reply was heard before the caller's turn ended")

            // The caller goes on: that reply is dropped, and the turn ends after the next pause.
            try await client.sendAudio(callerSpeech(seconds: 1) + [UInt8](repeating: MuLaw.silence, count: 8000))
            #expect(await eventually { client.frames.count == 250 })
            #expect(prompts.withLock { $0.count } == 3)
            try await Task.sleep(for: .milliseconds(500))
            #expect(client.frames.count == 250, "the dropped reply was heard too")
            await client.stop()
            #expect(await eventually { bridge.log.endedSummaries.count == 1 })
        }
    }

    @Test("the caller speaks over the greeting: it is cut, and the model remembers only what was heard")
    func interrupted() async throws {
        try await Self.conversation { bridge, prompts, _ in
            // The phone plays the first piece (1 s) and nothing more.
            let client = try await MediaStreamClient.connect(
                to: bridge.url, options: .init(parameters: ["call_token": "token-comedian"], playbackSpeed: 4, echoLimit: 1))
            #expect(await eventually { client.frames.count == 150 && bridge.log.marksPlayed == 1 })
            try await client.sendAudio(callerSpeech(seconds: 1))
            #expect(await eventually { client.clears == 1 })
            #expect(await eventually {
                bridge.log.events.withLock { $0.contains { if case .interrupted(_, 1000) = $0 { true } else { false } } }
            })
            try await client.sendAudio([UInt8](repeating: MuLaw.silence, count: 8000))
            #expect(await eventually { prompts.withLock { $0.count } == 2 })
            let messages = prompts.withLock { $0[1] }["messages"]?.arrayValue ?? []
            let said = messages.filter { $0["role"]?.stringValue == "assistant" }.compactMap { $0["content"]?.stringValue }
            // The one second the phone played: the first sentence.
            #expect(said == ["Hello there my good friend."])
            await client.stop()
            #expect(await eventually { bridge.log.endedSummaries.count == 1 })
        }
    }
}
