import CallWorkflows
import Calls
import FluentKit
import Foundation
import NIOCore
import Persistence
@testable import StoryServer
import Telephony
import Testing
import TestSupport
import VaporTesting
import VendorHTTP

/// The media stream wired into the server: a browser call's ticket opens a session on
/// `/media-stream`, bridged to the OpenAI Realtime API (a loopback speaking its wire format)
/// with the scenario's voice and prompt; the call is recorded when it ends; a token works once.
@Suite("Calls over the media stream", .serialized)
struct CallMediaStreamTests {
    /// Waits for `condition` (a loaded machine may take long; nothing is timed).
    func eventually(_ what: String, _ condition: () async throws -> Bool) async throws {
        for _ in 0..<6_000 {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("never: \(what)")
    }

    @Test("a browser call: the ticket's token opens a Realtime session with the scenario, audio flows both ways, the end is recorded, the token works once")
    func browserCall() async throws {
        let realtime = RealtimeWire()
        try await realtime.serve { realtime in
            try await withServer(adjust: { config in
                config.calls = CallServices(realtime: RealtimeAgent.Configuration(apiKey: Secret("sk-loopback"), baseURL: realtime.baseURL))
            }) { app, _, _ in
                let token = try await app.register("caller@example.com").access_token
                let ticket = try await app.send(.POST, "/api/calls/browser", token: token, json: #"{"scenario":"comedian"}"#)
                #expect(ticket.status == .created, "\(ticket.body.string)")
                let callToken = try #require(ticket.json?["token"]?.stringValue)
                #expect(ticket.json?["media_stream_path"]?.stringValue == "/media-stream")

                try await app.server.start(address: .hostname("127.0.0.1", port: 0))
                let port = try #require(app.http.server.shared.localAddress?.port)
                let client = try await MediaStreamClient.connect(
                    to: "ws://127.0.0.1:\(port)/media-stream",
                    options: .init(callSid: "", parameters: ["call_token": callToken], playbackSpeed: 8))
                try await eventually("the Realtime session is configured") { realtime.connections.first?.sessionUpdate != nil }
                let session = try #require(realtime.connections.first?.sessionUpdate)
                #expect(session["voice"]?.stringValue == "ash")
                #expect(session["instructions"]?.stringValue?.contains("Benny Punchline") == true)
                #expect(session["input_audio_format"]?.stringValue == "g711_ulaw")

                try await client.sendAudio([UInt8](repeating: 0x7F, count: 1_600))
                try await eventually("the caller's audio reaches the agent") { (realtime.connections.first?.appendedAudio.count ?? 0) >= 1_600 }
                await realtime.connections.first?.sendReply(itemID: "item_1")
                try await eventually("the agent's audio reaches the caller") { client.audio.count >= 8_000 }
                #expect(client.frames.allSatisfy { $0.payload.count == 160 })

                await client.stop()
                try await eventually("the call is recorded as completed") {
                    let history = try await app.send(.GET, "/mobile/call-history", token: token)
                    return history.json?["call_history"]?[0]?["status"]?.stringValue == "completed"
                }
                try await eventually("the agent's socket is released") { realtime.connections.first?.isClosed == true }

                // The same token again: no session, no second agent.
                let replay = try await MediaStreamClient.connect(
                    to: "ws://127.0.0.1:\(port)/media-stream", options: .init(callSid: "", parameters: ["call_token": callToken]))
                try await eventually("a reused token is refused") { replay.isClosed }
                #expect(realtime.connections.count == 1)
                await app.server.shutdown()
            }
        }
    }

    @Test("a browser call in which the agent never spoke is given back")
    func silentAgentIsNotCharged() async throws {
        let realtime = RealtimeWire(answersResponseCreate: false)
        try await realtime.serve { realtime in
            try await withServer(adjust: { config in
                config.calls = CallServices(realtime: RealtimeAgent.Configuration(apiKey: Secret("sk-loopback"), baseURL: realtime.baseURL))
            }) { app, _, _ in
                let token = try await app.register("caller@example.com").access_token
                let ticket = try await app.send(.POST, "/api/calls/browser", token: token, json: #"{"scenario":"storyteller"}"#)
                let callToken = try #require(ticket.json?["token"]?.stringValue)
                try await app.server.start(address: .hostname("127.0.0.1", port: 0))
                let port = try #require(app.http.server.shared.localAddress?.port)
                let client = try await MediaStreamClient.connect(
                    to: "ws://127.0.0.1:\(port)/media-stream", options: .init(callSid: "", parameters: ["call_token": callToken]))
                try await eventually("the Realtime session is configured") { realtime.connections.first?.sessionUpdate != nil }
                await client.stop()
                try await eventually("the silent call is recorded as failed") {
                    try await app.send(.GET, "/mobile/call-history", token: token).json?["call_history"]?[0]?["status"]?.stringValue == "failed"
                }
                #expect(try await app.send(.GET, "/mobile/usage-stats", token: token).json?["trial_calls_remaining"]?.intValue == 3)
                await app.server.shutdown()
            }
        }
    }

    /// The whole phone path: make-call places the call through Twilio's REST API, Twilio's
    /// stream connects with the TwiML's parameters, the agent talks, and at the trial's 60 s
    /// the server ends the call itself (`Status=completed`, no warning said). About a minute.
    @Test("a phone call placed by make-call, streamed with its TwiML's token, is ended by the server at its plan's limit")
    func phoneCallEndedAtItsLimit() async throws {
        let wire = TwilioWire()
        let realtime = RealtimeWire()
        try await realtime.serve { realtime in
            try await LoopbackServer.withServer(handler: wire.handler) { twilioServer in
                try await withServer(adjust: { config in
                    // The test's caller is silent after the greeting, where Twilio sends 50 frames a second.
                    config.connectionLimits.mediaStreamIdle = .seconds(600)
                    config.calls = CallServices(
                        twilio: TwilioClient(configuration: TwilioConfiguration(
                            accountSID: wire.accountSID, authToken: Secret(wire.authToken), fromNumber: try! PhoneNumber("+15005550006"),
                            publicBaseURL: "https://calls.example.com", apiBaseURL: twilioServer.baseURL), timeout: loopbackTimeout),
                        realtime: RealtimeAgent.Configuration(apiKey: Secret("sk-loopback"), baseURL: realtime.baseURL))
                }) { app, _, _ in
                    let token = try await app.register("caller@example.com").access_token
                    let placed = try await app.send(.POST, "/mobile/make-call", token: token, json: #"{"phone_number":"+14155550100","scenario":"storyteller"}"#)
                    #expect(placed.status == .ok, "\(placed.body.string)")
                    #expect(placed.json?["duration_limit"]?.intValue == 60)
                    let call = try #require(wire.calls.first)
                    let callToken = try #require(Self.parameter("call_token", in: call.twiml))
                    wire.answer(sid: call.sid)

                    try await app.server.start(address: .hostname("127.0.0.1", port: 0))
                    let port = try #require(app.http.server.shared.localAddress?.port)
                    let client = try await MediaStreamClient.connect(
                        to: "ws://127.0.0.1:\(port)/media-stream",
                        options: .init(callSid: call.sid, accountSid: wire.accountSID,
                                       parameters: ["call_token": callToken, "scenario": Self.parameter("scenario", in: call.twiml) ?? ""]))
                    try await eventually("the Realtime session is configured") { realtime.connections.first?.sessionUpdate != nil }
                    try await eventually("the agent's greeting reaches the caller") { !client.audio.isEmpty }
                    #expect(wire.calls.first?.status != "completed")
                    // The limit counts from the stream's start: wait past it (no clock is asserted).
                    for _ in 0..<3_000 where wire.calls.first?.status != "completed" {
                        try await Task.sleep(for: .milliseconds(200))
                    }
                    #expect(wire.calls.first?.status == "completed")
                    try await eventually("the session is released") { client.isClosed && realtime.connections.first?.isClosed == true }
                    // Nothing was said to announce the end: the greeting was the agent's only reply.
                    #expect(realtime.connections.first?.events("response.create").count == 1)
                    #expect(realtime.connections.first?.events("conversation.item.create").isEmpty == true)
                    await app.server.shutdown()
                }
            }
        }
    }

    /// A `<Parameter name="…" value="…"/>` of a TwiML `<Stream>`.
    static func parameter(_ name: String, in twiml: String) -> String? {
        guard let range = twiml.range(of: #"<Parameter name="\#(name)" value=""#) else { return nil }
        return twiml[range.upperBound...].split(separator: "\"", maxSplits: 1).first.map(String.init)
    }

    @Test("a call at its limit is ended through Twilio's REST API")
    func limitEndsTheCall() async throws {
        let wire = TwilioWire()
        try await LoopbackServer.withServer(handler: wire.handler) { server in
            let twilio = TwilioClient(configuration: TwilioConfiguration(
                accountSID: wire.accountSID, authToken: Secret(wire.authToken), fromNumber: try PhoneNumber("+15005550006"),
                publicBaseURL: "https://calls.example.com", apiBaseURL: server.baseURL), timeout: loopbackTimeout)
            let call = try await twilio.createCall(to: try PhoneNumber("+14155550100"), twiml: "<Response/>", timeLimit: 75)
            wire.answer(sid: call.sid)
            try await withServer(adjust: { $0.calls = CallServices(twilio: twilio) }) { app, config, _ in
                await PhoneCalls(database: app.appDatabase, services: config.calls).limitReached(callSid: call.sid)
                #expect(wire.calls.first?.status == "completed")
            }
        }
    }
}
