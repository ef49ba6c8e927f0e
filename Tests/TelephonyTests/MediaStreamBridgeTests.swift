import Audio
import Calls
import Foundation
import Telephony
import TestSupport
import Testing
import VendorHTTP

/// Calls bridged end to end over real sockets: a Twilio-like client → the media-stream session
/// → the Realtime API's wire on loopback.
@Suite("Media stream ↔ Realtime bridge")
struct MediaStreamBridgeTests {
    @Test("a call: the session is configured from the scenario, caller audio reaches the agent, the agent's audio reaches the caller in 160-byte frames with marks, stop releases everything")
    func bridgedCall() async throws {
        let wire = RealtimeWire()
        try await wire.serve { wire in
            try await Bridge.bridged(to: wire) { bridge in
                let client = try await MediaStreamClient.connect(
                    to: bridge.url, options: .init(parameters: ["call_token": "token-comedian"], playbackSpeed: 8))
                // The greeting: 10 deltas of 800 bytes, so 50 frames and 10 marks, all echoed.
                #expect(await eventually { client.frames.count >= 50 && client.echoed.count >= 10 })
                let connection = try #require(wire.connections.first)
                let session = try #require(connection.sessionUpdate)
                #expect(session["voice"]?.stringValue == "ash")
                #expect(session["instructions"]?.stringValue == Fixtures.comedian.instructions)
                #expect(session["temperature"]?.doubleValue == 0.6)  // 0.5 clamped to the API's floor
                #expect(session["input_audio_format"]?.stringValue == "g711_ulaw")
                #expect(session["output_audio_format"]?.stringValue == "g711_ulaw")
                #expect(session["turn_detection"]?["type"]?.stringValue == "server_vad")
                #expect(connection.request.header("Authorization") == "Bearer \(Fixtures.key.value)")
                #expect(connection.request.header("OpenAI-Beta") == "realtime=v1")
                #expect(connection.request.uri == "/v1/realtime?model=gpt-realtime-test")
                #expect(connection.events("response.create").count == 1)

                #expect(client.frames.allSatisfy { $0.payload.count == 160 })
                #expect(client.frames.count == 50)
                #expect(client.marks.count == 10)
                let sent = (0..<10).flatMap { index in (0..<800).map { UInt8(truncatingIfNeeded: 0x10 + (index + $0) % 64) } }
                #expect(client.audio == sent)

                let speech = callerSpeech(seconds: 1)
                try await client.sendAudio(speech)
                #expect(await eventually { connection.appendedAudio.count >= speech.count })
                #expect(connection.appendedAudio == speech)
                #expect(await bridge.registry.count == 1)

                await client.stop()
                #expect(await eventually { bridge.log.endedSummaries.count == 1 })
                #expect(await eventually { connection.isClosed })
                let summary = try #require(bridge.log.endedSummaries.first)
                #expect(summary.reason == .stopped)
                #expect(summary.callID == "call-comedian")
                #expect(summary.callSid == client.options.callSid)
                #expect(summary.framesSent == 50)
                #expect(await bridge.registry.count == 0)
                #expect(bridge.log.limitCalls.isEmpty)
            }
        }
    }

    @Test("the caller interrupts: the reply is cut, Twilio's buffer cleared, and the agent told how much was heard")
    func interruption() async throws {
        let wire = RealtimeWire()
        try await wire.serve { wire in
            try await Bridge.bridged(to: wire) { bridge in
                // The caller's phone plays the first two chunks (200 ms) and is still playing.
                let client = try await MediaStreamClient.connect(
                    to: bridge.url, options: .init(parameters: ["call_token": "token-comedian"], playbackSpeed: 4, echoLimit: 2))
                #expect(await eventually { client.frames.count == 50 && bridge.log.marksPlayed == 2 })
                let connection = try #require(wire.connections.first)
                await connection.sendSpeechStarted()
                #expect(await eventually { client.clears == 1 && connection.truncates.count == 1 })
                let truncate = try #require(connection.truncates.first)
                #expect(truncate["item_id"]?.stringValue == "item_reply_1")
                #expect(truncate["content_index"]?.intValue == 0)
                #expect(truncate["audio_end_ms"]?.intValue == 200)

                // Audio of the cut reply still in flight is not played; the next reply is.
                await connection.sendAudio(itemID: "item_reply_1", [UInt8](repeating: 0x20, count: 800))
                await connection.sendAudio(itemID: "item_reply_2", [UInt8](repeating: 0x30, count: 320))
                #expect(await eventually { client.frames.count == 52 })
                #expect(client.frames.suffix(2).allSatisfy { $0.payload == [UInt8](repeating: 0x30, count: 160) })

                // The phone still plays nothing more (its echo limit), so a second interruption
                // cuts the second reply with none of it heard.
                await connection.sendSpeechStarted()
                #expect(await eventually { client.clears == 2 && connection.truncates.count == 2 })
                #expect(connection.truncates.last?["item_id"]?.stringValue == "item_reply_2")
                #expect(connection.truncates.last?["audio_end_ms"]?.intValue == 0)
                await client.stop()
                #expect(await eventually { bridge.log.endedSummaries.count == 1 })
                #expect(bridge.log.endedSummaries.first?.interruptions == 2)
            }
        }
    }

    @Test("a call at its limit: limitReached once with the CallSid, and the session ends")
    func limit() async throws {
        let wire = RealtimeWire()
        try await wire.serve { wire in
            try await Bridge.bridged(to: wire, authorize: Fixtures.grants(limit: 1)) { bridge in
                let client = try await MediaStreamClient.connect(to: bridge.url, options: .init(parameters: ["call_token": "token-comedian"]))
                #expect(await eventually { bridge.log.endedSummaries.count == 1 })
                #expect(await eventually { client.isClosed })
                #expect(await eventually { wire.connections.first?.isClosed == true })
                let limits = bridge.log.limitCalls
                #expect(limits.count == 1)
                #expect(limits.first?.callSid == client.options.callSid)
                #expect(limits.first?.callID == "call-comedian")
                #expect(bridge.log.endedSummaries.first?.reason == .limitReached)
                #expect((bridge.log.endedSummaries.first?.secondsConnected ?? 0) >= 1)
            }
        }
    }

    @Test("a browser's call (no CallSid) at its limit is closed, with no call to end through Twilio")
    func browserLimit() async throws {
        let wire = RealtimeWire()
        try await wire.serve { wire in
            try await Bridge.bridged(to: wire, authorize: Fixtures.grants(limit: 1)) { bridge in
                let client = try await MediaStreamClient.connect(
                    to: bridge.url, options: .init(callSid: "", parameters: ["call_token": "token-storyteller"]))
                #expect(await eventually { bridge.log.endedSummaries.count == 1 && client.isClosed })
                #expect(bridge.log.limitCalls.isEmpty)
                #expect(bridge.log.endedSummaries.first?.reason == .limitReached)
            }
        }
    }

    /// Issue 46: a caller that went quiet (a socket left open, a client that stopped) held the
    /// session and its agent until the plan's limit, where Twilio sends 50 frames a second.
    @Test("a caller that sends nothing for the idle limit is ended, the agent released, and no call ended through Twilio")
    func idleCaller() async throws {
        let wire = RealtimeWire()
        try await wire.serve { wire in
            try await Bridge.bridged(to: wire, idleLimit: .milliseconds(500)) { bridge in
                let client = try await MediaStreamClient.connect(to: bridge.url, options: .init(parameters: ["call_token": "token-comedian"]))
                #expect(await eventually { bridge.log.endedSummaries.count == 1 && client.isClosed })
                #expect(await eventually { wire.connections.first?.isClosed == true })
                #expect(bridge.log.endedSummaries.first?.reason == .idle)
                #expect(bridge.log.limitCalls.isEmpty, "the plan's limit was not reached")
            }
        }
    }

    @Test("a caller who keeps sending is not idle, however long the call")
    func talkingCallerIsNotIdle() async throws {
        let wire = RealtimeWire()
        try await wire.serve { wire in
            try await Bridge.bridged(to: wire, idleLimit: .seconds(2)) { bridge in
                let client = try await MediaStreamClient.connect(to: bridge.url, options: .init(parameters: ["call_token": "token-comedian"]))
                // Three idle limits' worth of frames, each 50 ms after the last (the limit counts
                // arrivals on the socket's event loop, so a busy session does not look idle).
                // On a machine loaded enough to hold this task for the whole limit the caller
                // really was silent that long: only then may the call have ended.
                var longestGap = Duration.zero
                var last = ContinuousClock.now
                for _ in 0..<120 {
                    longestGap = max(longestGap, .now - last)
                    last = .now
                    do { try await client.sendAudio([UInt8](repeating: 0xFF, count: 160)) } catch { break }
                    try await Task.sleep(for: .milliseconds(50))
                }
                guard longestGap < .seconds(2) else { return }
                #expect(bridge.log.endedSummaries.isEmpty && !client.isClosed)
                await client.stop()
                #expect(await eventually { bridge.log.endedSummaries.first?.reason == .stopped })
            }
        }
    }

    @Test("two calls at once stay separate: each its own agent, scenario, audio and end")
    func twoCalls() async throws {
        let wire = RealtimeWire()
        try await wire.serve { wire in
            try await Bridge.bridged(to: wire) { bridge in
                let first = try await MediaStreamClient.connect(to: bridge.url, options: .init(parameters: ["call_token": "token-comedian"], playbackSpeed: 8))
                let second = try await MediaStreamClient.connect(to: bridge.url, options: .init(parameters: ["call_token": "token-storyteller"], playbackSpeed: 8))
                #expect(await eventually { wire.connections.count == 2 && first.frames.count == 50 && second.frames.count == 50 })
                #expect(await bridge.registry.count == 2)
                let byVoice = Dictionary(uniqueKeysWithValues: wire.connections.compactMap { c in c.sessionUpdate?["voice"]?.stringValue.map { ($0, c) } })
                let comedian = try #require(byVoice["ash"]), storyteller = try #require(byVoice["coral"])
                #expect(storyteller.sessionUpdate?["temperature"]?.doubleValue == 0.8)

                try await first.sendAudio([UInt8](repeating: 0x11, count: 1600))
                try await second.sendAudio([UInt8](repeating: 0x22, count: 3200))
                #expect(await eventually { comedian.appendedAudio.count == 1600 && storyteller.appendedAudio.count == 3200 })
                #expect(comedian.appendedAudio.allSatisfy { $0 == 0x11 })
                #expect(storyteller.appendedAudio.allSatisfy { $0 == 0x22 })

                await storyteller.sendAudio(itemID: "item_story", [UInt8](repeating: 0x33, count: 480))
                #expect(await eventually { second.frames.count == 53 })
                #expect(first.frames.count == 50)

                await first.stop()
                #expect(await eventually { bridge.log.endedSummaries.count == 1 && comedian.isClosed })
                #expect(!storyteller.isClosed)
                #expect(await bridge.registry.count == 1)
                #expect(await bridge.registry.entry(callSid: second.options.callSid)?.callID == "call-storyteller")
                try await second.sendAudio([UInt8](repeating: 0x22, count: 160))
                #expect(await eventually { storyteller.appendedAudio.count == 3360 })
                await second.stop()
                #expect(await eventually { bridge.log.endedSummaries.count == 2 && storyteller.isClosed })
                #expect(Set(bridge.log.endedSummaries.map(\.callID)) == ["call-comedian", "call-storyteller"])
            }
        }
    }

    @Test("no grant: the socket is closed and no agent is opened")
    func refused() async throws {
        let wire = RealtimeWire()
        try await wire.serve { wire in
            try await Bridge.bridged(to: wire) { bridge in
                let stranger = try await MediaStreamClient.connect(to: bridge.url, options: .init(parameters: ["call_token": "forged"]))
                let nobody = try await MediaStreamClient.connect(to: bridge.url)
                #expect(await eventually { stranger.isClosed && nobody.isClosed })
                #expect(wire.connections.isEmpty)
                #expect(bridge.log.agentsMade.withLock { $0 } == 0)
                #expect(bridge.log.endedSummaries.isEmpty)
                #expect(await bridge.registry.count == 0)
            }
        }
    }

    @Test("a socket that never sends start is closed after the start timeout, with no agent")
    func noStart() async throws {
        let configuration = RealtimeAgent.Configuration(apiKey: Fixtures.key, baseURL: "ws://127.0.0.1:1/v1/realtime")
        try await Bridge.serve(makeAgent: RealtimeAgent.factory(configuration), startTimeout: .milliseconds(300)) { bridge in
            var options = MediaStreamClient.Options()
            options.sendsStart = false
            let stranger = try await MediaStreamClient.connect(to: bridge.url, options: options)
            #expect(await eventually { stranger.isClosed })
            #expect(bridge.log.agentsMade.withLock { $0 } == 0)
            #expect(bridge.log.endedSummaries.isEmpty)
        }
    }

    @Test("unknown events, DTMF and unreadable frames are ignored; the call goes on")
    func unknownEvents() async throws {
        let wire = RealtimeWire()
        try await wire.serve { wire in
            try await Bridge.bridged(to: wire) { bridge in
                let client = try await MediaStreamClient.connect(
                    to: bridge.url, options: .init(parameters: ["call_token": "token-comedian"], playbackSpeed: 8, unknownEventEvery: 1))
                try await client.sendDTMF("5")
                try await client.sendAudio(callerSpeech(seconds: 0.5))
                #expect(await eventually { wire.connections.first?.appendedAudio.count == 4000 })
                #expect(await eventually { client.frames.count == 50 })
                #expect(!client.isClosed)
                #expect(bridge.log.endedSummaries.isEmpty)
                await client.stop()
                #expect(await eventually { bridge.log.endedSummaries.first?.reason == .stopped })
            }
        }
    }

    @Test("the agent's socket closes: the call is closed and the session released")
    func agentCloses() async throws {
        let wire = RealtimeWire()
        try await wire.serve { wire in
            try await Bridge.bridged(to: wire) { bridge in
                let client = try await MediaStreamClient.connect(to: bridge.url, options: .init(parameters: ["call_token": "token-comedian"], playbackSpeed: 8))
                #expect(await eventually { client.frames.count == 50 })
                await wire.connections.first?.close()
                #expect(await eventually { client.isClosed && bridge.log.endedSummaries.count == 1 })
                #expect(bridge.log.endedSummaries.first?.reason == .agentClosed)
                #expect(await bridge.registry.count == 0)
            }
        }
    }

    @Test("the caller's socket drops without stop: the agent's socket is released")
    func callerDrops() async throws {
        let wire = RealtimeWire()
        try await wire.serve { wire in
            try await Bridge.bridged(to: wire) { bridge in
                let client = try await MediaStreamClient.connect(to: bridge.url, options: .init(parameters: ["call_token": "token-comedian"], playbackSpeed: 8))
                #expect(await eventually { wire.connections.count == 1 })
                await client.close()
                #expect(await eventually { wire.connections.first?.isClosed == true && bridge.log.endedSummaries.count == 1 })
                #expect(bridge.log.endedSummaries.first?.reason == .socketClosed)
            }
        }
    }

    @Test("an error event is reported, not fatal; GA-named audio deltas play too")
    func errorEventAndGADeltas() async throws {
        let wire = RealtimeWire(answersResponseCreate: false)
        try await wire.serve { wire in
            try await Bridge.bridged(to: wire) { bridge in
                let client = try await MediaStreamClient.connect(to: bridge.url, options: .init(parameters: ["call_token": "token-comedian"], playbackSpeed: 8))
                #expect(await eventually { wire.connections.first?.sessionUpdate != nil })
                let connection = try #require(wire.connections.first)
                await connection.sendError(code: "invalid_value", message: "Invalid value for 'voice'.")
                await connection.sendAudio(itemID: "item_ga", [UInt8](repeating: 0x55, count: 400), type: "response.output_audio.delta")
                await connection.sendResponseDone()
                // 400 bytes: two frames, and the half frame padded with silence at response.done.
                #expect(await eventually { client.frames.count == 3 && client.marks.count == 2 })
                #expect(client.frames.last?.payload == [UInt8](repeating: 0x55, count: 80) + [UInt8](repeating: 0xFF, count: 80))
                #expect(!client.isClosed)
                await client.stop()
                #expect(await eventually { bridge.log.endedSummaries.count == 1 })
            }
        }
    }

    @Test("the Realtime API unreachable: the call is closed, ended says the agent failed")
    func agentUnreachable() async throws {
        let configuration = RealtimeAgent.Configuration(apiKey: Fixtures.key, baseURL: "ws://127.0.0.1:1/v1/realtime")
        try await Bridge.serve(makeAgent: RealtimeAgent.factory(configuration)) { bridge in
            let client = try await MediaStreamClient.connect(to: bridge.url, options: .init(parameters: ["call_token": "token-comedian"]))
            #expect(await eventually { client.isClosed && bridge.log.endedSummaries.count == 1 })
            #expect(bridge.log.endedSummaries.first?.reason == .agentFailed)
        }
    }
}
