import Calls
import Foundation
import Telephony
import TestSupport
import Testing
import VendorHTTP

@Suite struct TwilioRESTClientTests {
    private func client(_ server: LoopbackServer, _ wire: TwilioWire) throws -> TwilioClient {
        TwilioClient(configuration: TwilioConfiguration(
            accountSID: wire.accountSID, authToken: Secret(wire.authToken), fromNumber: try PhoneNumber("+15005550006"),
            publicBaseURL: "https://calls.example.com", apiBaseURL: server.baseURL), timeout: loopbackTimeout)
    }

    @Test func aCallIsCreatedWithTheStreamTheCallbackAndTheTimeLimit() async throws {
        let wire = TwilioWire()
        try await LoopbackServer.withServer(handler: wire.handler) { server in
            let twiml = CallTwiML.connectStream(url: "wss://calls.example.com/media-stream", parameters: [(name: "call_token", value: "t<&>\"")])
            let call = try await client(server, wire).createCall(to: try PhoneNumber("+14155550100"), twiml: twiml, timeLimit: 90)
            #expect(call.sid.hasPrefix("CA"))
            #expect(call.status == "queued")
            let placed = try #require(wire.calls.first)
            #expect(placed.to == "+14155550100")
            #expect(placed.from == "+15005550006")
            #expect(placed.timeLimit == 90)
            #expect(placed.statusCallback == "https://calls.example.com/call-end-webhook")
            #expect(placed.statusCallbackEvents == ["initiated", "ringing", "answered", "completed"])
            #expect(placed.twiml.contains(#"<Connect><Stream url="wss://calls.example.com/media-stream">"#))
            #expect(placed.twiml.contains(#"<Parameter name="call_token" value="t&lt;&amp;&gt;&quot;"/>"#))
        }
    }

    @Test func twiliosRefusalOfANumberComesBackWithItsCode() async throws {
        let wire = TwilioWire()
        try await LoopbackServer.withServer(handler: wire.handler) { server in
            await #expect(throws: TwilioError(code: 21211, message: "The 'To' number +15550000000 is not a valid phone number.", status: 400)) {
                _ = try await client(server, wire).createCall(to: try PhoneNumber("+15550000000"), twiml: "<Response/>", timeLimit: 60)
            }
        }
    }

    @Test func creatingACallIsNeverRetried() async throws {
        try await LoopbackServer.withServer(handler: { _ in TwilioWire.error(status: 503, code: 20500, message: "Internal Server Error") }) { server in
            let wire = TwilioWire()
            await #expect(throws: TwilioError.self) {
                _ = try await client(server, wire).createCall(to: try PhoneNumber("+14155550100"), twiml: "<Response/>", timeLimit: 60)
            }
            #expect(server.requests.count == 1)
        }
    }

    @Test func wrongCredentialsSayWhatToCheck() async throws {
        let wire = TwilioWire()
        try await LoopbackServer.withServer(handler: wire.handler) { server in
            let wrong = TwilioClient(configuration: TwilioConfiguration(
                accountSID: wire.accountSID, authToken: Secret("not-the-token"), fromNumber: try PhoneNumber("+15005550006"),
                publicBaseURL: "https://calls.example.com", apiBaseURL: server.baseURL), timeout: loopbackTimeout)
            do {
                _ = try await wrong.createCall(to: try PhoneNumber("+14155550100"), twiml: "<Response/>", timeLimit: 60)
                Issue.record("a call was placed with the wrong token")
            } catch let error as TwilioError {
                #expect(error.status == 401)
                #expect(!error.message.contains("not-the-token"))
            }
        }
    }

    @Test func endingACallCompletesItAndAnEndedCallIsNotAnError() async throws {
        let wire = TwilioWire()
        try await LoopbackServer.withServer(handler: wire.handler) { server in
            let client = try client(server, wire)
            let call = try await client.createCall(to: try PhoneNumber("+14155550100"), twiml: "<Response/>", timeLimit: 60)
            wire.answer(sid: call.sid)
            try await client.endCall(sid: call.sid)
            #expect(wire.calls.first?.status == "completed")
            try await client.endCall(sid: call.sid)
            let ends = server.requests.filter { $0.uri.hasSuffix("/Calls/\(call.sid).json") }
            #expect(ends.count == 2)
            #expect(TwilioWire.form(ends[0].body).contains { $0 == ("Status", "completed") })
        }
    }

    @Test func theMediaStreamAddressFollowsThePublicURL() throws {
        let secure = TwilioConfiguration(accountSID: "AC1", authToken: Secret("x"), fromNumber: try PhoneNumber("+15005550006"), publicBaseURL: "https://calls.example.com/")
        #expect(secure.mediaStreamURL == "wss://calls.example.com/media-stream")
        let plain = TwilioConfiguration(accountSID: "AC1", authToken: Secret("x"), fromNumber: try PhoneNumber("+15005550006"), publicBaseURL: "http://127.0.0.1:8080")
        #expect(plain.mediaStreamURL == "ws://127.0.0.1:8080/media-stream")
    }
}
