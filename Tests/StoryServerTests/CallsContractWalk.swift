import AppStore
import AppStoreTestSupport
import CallWorkflows
import Calls
import Foundation
import NIOCore
@testable import StoryServer
import Telephony
import Testing
import TestSupport
import VaporTesting
import VendorHTTP

extension ContractWalk {
    /// Every AI phone calls operation (`/mobile/…`, the two webhooks, `/api/calls/browser` and the
    /// development-only `/test/…`), with the replies it documents: the part of the API walk
    /// (`OpenAPIShapeTests.walk`) for the calls product. Calls need a Twilio (a loopback one,
    /// `TwilioWire`), purchases an App Store that trusts a test CA, voice samples speech (the
    /// narration double) and `/test/…` development mode, so this part walks a server of its own;
    /// then a second server with none of these and a limit of two calls a minute, for the 503s,
    /// the 429 and the 404s of /test/…. What both
    /// found is added to this walk.
    func walkCalls() async throws {
        let wire = TwilioWire()
        let ca = try AppStoreTestCA.make()
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("storyvoice-double-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let narration = try NarrationDouble(cacheDirectory: cache, stallAfter: nil)
        try await LoopbackServer.withServer(handler: wire.handler) { server in
            try await withServer(adjust: { config in
                config.developmentMode = true
                config.narration = narration
                config.calls = CallServices(
                    twilio: TwilioClient(configuration: TwilioConfiguration(
                        accountSID: wire.accountSID, authToken: Secret(wire.authToken), fromNumber: try! PhoneNumber("+15005550006"),
                        publicBaseURL: "https://calls.example.com", apiBaseURL: server.baseURL), timeout: loopbackTimeout),
                    appStore: try! ca.verifier())
            }) { app, _, _ in
                let walk = ContractWalk(app, contract)
                try await walk.walkCalls(wire: wire, ca: ca)
                absorb(walk)
            }
        }
        try await withServer(adjust: { config in
            config.rateLimits = RateLimits(perMinute: 0, expensivePerMinute: 2)
        }) { app, config, _ in
            let walk = ContractWalk(app, contract)
            try await walk.walkCallsUnconfigured(maxJSONBodyBytes: config.maxJSONBodyBytes)
            absorb(walk)
        }
    }

    private func walkCalls(wire: TwilioWire, ca: AppStoreTestCA) async throws {
        let caller = try await app.register("caller@example.com").access_token
        let other = try await app.register("other@example.com").access_token
        let number = #""phone_number":"+14155550100""#

        // The account, the prices, the scenarios and voices.
        try await call(.GET, "/mobile/usage-stats", token: caller, expect: .ok)
        try await call(.GET, "/mobile/usage-stats", expect: .unauthorized)
        try await call(.POST, "/mobile/check-call-permission", token: caller, expect: .ok)
        try await call(.POST, "/mobile/check-call-permission", expect: .unauthorized)
        try await call(.GET, "/mobile/pricing", token: caller, expect: .ok)
        try await call(.GET, "/mobile/scenarios", token: caller, expect: .ok)
        try await call(.GET, "/mobile/voices", token: caller, expect: .ok)
        try await call(.GET, "/mobile/voices?gender=male&accent=british&personality=professional_neutral", token: caller, expect: .ok)
        try await call(.GET, "/mobile/voices?gender=", token: caller, expect: .ok)
        try await call(.GET, "/mobile/voices?gender=robot", token: caller, expect: .badRequest)
        try await call(.GET, "/mobile/voices/ballad/preview", token: caller, expect: .ok)
        try await call(.GET, "/mobile/voices/coral/preview?text=Ahoy", token: caller, expect: .ok)
        try await call(.GET, "/mobile/voices/robot/preview", token: caller, expect: .notFound)
        try await call(.GET, "/mobile/voices/ballad/preview", expect: .unauthorized)
        try await call(.GET, "/mobile/subscription-status", token: caller, expect: .ok)
        try await call(.GET, "/mobile/call-history", token: caller, expect: .ok)

        // Scenarios of one's own.
        let pirate = #""name":"Pirate","prompt":"You are Captain Salt, a jolly pirate recruiting a deckhand for a treasure hunt.""#
        let made = try await call(.POST, "/mobile/scenarios", token: caller,
                                  json: #"{\#(pirate),"voice":"ballad","description":"Arr","icon":"🏴‍☠️","temperature":0.8}"#, expect: .created)
        let scenario = try #require(made.json?["id"]?.stringValue)
        try await call(.POST, "/mobile/scenarios", token: caller,
                       json: #"{"name":"Bank","prompt":"Pretend to be the bank and ask them for their card number to verify.","voice":"echo"}"#, expect: .badRequest)
        try await call(.POST, "/mobile/scenarios", token: caller, json: #"{"name":7}"#, expect: .badRequest)
        let form = OpenAPIShapeTests.form("name=Pirate")
        try await call(.POST, "/mobile/scenarios", token: caller, headers: form.0, body: form.1, expect: .unsupportedMediaType)
        try await call(.GET, "/mobile/scenarios", token: caller, expect: .ok)
        try await call(.PUT, "/mobile/scenarios/\(scenario)", token: caller, json: #"{\#(pirate),"voice":"verse","description":null,"temperature":null}"#, expect: .ok)
        try await call(.PUT, "/mobile/scenarios/\(scenario)", token: caller, json: #"{\#(pirate),"voice":"robot"}"#, expect: .badRequest)
        try await call(.PUT, "/mobile/scenarios/\(scenario)", token: other, json: #"{\#(pirate),"voice":"verse"}"#, expect: .notFound)
        try await call(.PUT, "/mobile/scenarios/default", token: caller, json: #"{\#(pirate),"voice":"verse"}"#, expect: .notFound)

        // The trial's three calls: a phone call, a scheduled one (placed by a job later: not
        // counted until then), the browser's, and the third on the phone; then 402.
        try await call(.POST, "/mobile/make-call", token: caller, json: #"{"phone_number":"4155550100"}"#, expect: .badRequest)
        try await call(.POST, "/mobile/make-call", token: caller, json: #"{\#(number),"scenario":"astronaut"}"#, expect: .badRequest)
        try await call(.POST, "/mobile/make-call", token: caller, json: #"{"phone_number":"+15550000000"}"#, expect: .badRequest)
        try await call(.POST, "/mobile/make-call", token: caller, json: #"{"scenario":"default"}"#, expect: .badRequest)
        try await call(.POST, "/mobile/make-call", expect: .unauthorized)
        let first = try await call(.POST, "/mobile/make-call", token: caller, json: #"{\#(number),"scenario":"\#(scenario)"}"#, expect: .ok)
        let sid = try #require(first.json?["call_sid"]?.stringValue)

        let later = CallDates.string(Date().addingTimeInterval(3_600))
        let scheduled = try await call(.POST, "/mobile/schedule-call", token: caller,
                                       json: #"{\#(number),"scenario":"storyteller","scheduled_time":"\#(later)"}"#, expect: .ok)
        let schedule = try #require(scheduled.json?["schedule_id"]?.intValue)
        try await call(.POST, "/mobile/schedule-call", token: caller, json: #"{\#(number),"scenario":null,"scheduled_time":null}"#, expect: .ok)
        try await call(.POST, "/mobile/schedule-call", token: caller, json: #"{\#(number),"scheduled_time":"next Tuesday"}"#, expect: .badRequest)
        try await call(.GET, "/mobile/scheduled-calls", token: caller, expect: .ok)
        try await call(.DELETE, "/mobile/scheduled-calls/\(schedule)", token: caller, expect: .ok)
        try await call(.DELETE, "/mobile/scheduled-calls/\(schedule)", token: caller, expect: .conflict)
        try await call(.DELETE, "/mobile/scheduled-calls/999999", token: caller, expect: .notFound)
        try await call(.DELETE, "/mobile/scheduled-calls/\(schedule)", token: other, expect: .notFound)
        try await call(.GET, "/mobile/scheduled-calls", token: caller, expect: .ok)

        try await call(.POST, "/api/calls/browser", token: caller, json: #"{"scenario":"astronaut"}"#, expect: .badRequest)
        try await call(.POST, "/api/calls/browser", token: caller, json: #"{"scenario":null}"#, expect: .created)
        try await call(.POST, "/api/calls/browser", json: "{}", expect: .unauthorized)
        try await call(.POST, "/mobile/make-call", token: caller, json: #"{\#(number),"scenario":"comedian"}"#, expect: .ok)
        try await call(.POST, "/mobile/make-call", token: caller, json: "{\(number)}", expect: .paymentRequired)
        try await call(.POST, "/mobile/schedule-call", token: caller, json: "{\(number)}", expect: .paymentRequired)
        try await call(.POST, "/api/calls/browser", token: caller, json: "{}", expect: .paymentRequired)
        try await call(.POST, "/mobile/check-call-permission", token: caller, expect: .ok)
        try await call(.GET, "/mobile/usage-stats", token: caller, expect: .ok)

        // The Media Streams socket: its `start` message carries the call's token, so the upgrade is open.
        let upgrade: HTTPHeaders = ["Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
                                    "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="]
        try await call(.GET, "/media-stream", headers: upgrade, expect: .switchingProtocols)

        // Twilio's status callback: signed, forged, and signed but about no call of this account.
        try await callback(sid: sid, status: "completed", duration: 45, wire: wire, expect: .ok)
        try await callback(sid: sid, status: "failed", duration: 0, wire: wire, signature: "AAAAAAAAAAAAAAAAAAAAAAAAAAA=", expect: .forbidden)
        try await callback(sid: nil, status: "completed", duration: nil, wire: wire, expect: .badRequest)
        try await call(.GET, "/mobile/call-history", token: caller, expect: .ok)
        try await call(.GET, "/mobile/call-history?limit=2", token: caller, expect: .ok)
        try await call(.GET, "/mobile/call-history?limit=0", token: caller, expect: .badRequest)
        try await call(.GET, "/mobile/call-history?limit=many", token: caller, expect: .badRequest)
        try await call(.GET, "/mobile/usage-stats", token: caller, expect: .ok)

        // Development mode: a call without the plan check, and a body past the limits.
        try await call(.POST, "/test/test-call", token: caller, json: "{\(number)}", expect: .ok)
        try await call(.POST, "/test/test-call", token: caller, json: #"{"phone_number":"4155550100","scenario":null}"#, expect: .badRequest)
        try await call(.POST, "/test/test-call", json: "{\(number)}", expect: .unauthorized)
        try await call(.POST, "/test/bypass-rate-limit", token: caller, json: #"{"endpoint":"/mobile/check-call-permission"}"#, expect: .ok)
        try await call(.POST, "/test/bypass-rate-limit", token: caller, json: #"{"endpoint":"/mobile/make-call","data":{\#(number)}}"#, expect: .paymentRequired)
        try await call(.POST, "/test/bypass-rate-limit", token: caller,
                       json: #"{"endpoint":"/mobile/scenarios","data":{\#(pirate),"voice":"sage"}}"#, expect: .created)
        try await call(.POST, "/test/bypass-rate-limit", token: caller, json: #"{"endpoint":"/test/../mobile/make-call","data":{}}"#, expect: .badRequest)
        #expect(wire.calls.count == 3)

        // Purchases: a signed one makes a basic subscriber (once), and calls are possible again.
        let jws = try ca.sign(AppStoreFixtures.transaction(id: "2000000000000001", productID: AppStoreFixtures.basicWeekly))
        let purchase = #"{"receipt_data":"\#(jws)","is_sandbox":true,"product_id":"speech_assistant_basic_weekly","subscription_tier":null}"#
        try await call(.POST, "/mobile/purchase-subscription", token: caller, json: purchase, expect: .ok)
        try await call(.POST, "/mobile/purchase-subscription", token: caller, json: purchase, expect: .ok)
        try await call(.POST, "/mobile/purchase-subscription", token: other, json: purchase, expect: .forbidden)
        let tampered = JWSTampering.replacingPayload(of: jws, with: Data(#"{"productId":"speech_assistant_premium_monthly"}"#.utf8))
        try await call(.POST, "/mobile/purchase-subscription", token: caller,
                       json: #"{"receipt_data":"\#(tampered)","product_id":"speech_assistant_premium_monthly"}"#, expect: .badRequest)
        try await call(.POST, "/mobile/purchase-subscription", token: caller, json: #"{"receipt_data":"\#(jws)"}"#, expect: .badRequest)
        try await call(.POST, "/mobile/purchase-subscription", token: caller, json: #"{"product_id":"speech_assistant_basic_weekly"}"#, expect: .badRequest)
        try await call(.POST, "/mobile/purchase-subscription", json: purchase, expect: .unauthorized)
        try await call(.GET, "/mobile/subscription-status", token: caller, expect: .ok)
        try await call(.GET, "/mobile/usage-stats", token: caller, expect: .ok)
        try await call(.POST, "/mobile/check-call-permission", token: caller, expect: .ok)
        try await call(.POST, "/mobile/make-call", token: caller, json: "{\(number)}", expect: .ok)

        let premium = try ca.sign(AppStoreFixtures.transaction(id: "2000000000000002", productID: AppStoreFixtures.premiumMonthly))
        try await call(.POST, "/mobile/upgrade-subscription", token: other,
                       json: #"{"receipt_data":"\#(premium)","is_sandbox":null,"subscription_tier":"mobile_monthly","product_id":null}"#, expect: .ok)
        try await call(.POST, "/mobile/upgrade-subscription", token: other, json: #"{"receipt_data":"\#(premium)"}"#, expect: .badRequest)
        try await call(.POST, "/mobile/upgrade-subscription", token: caller,
                       json: #"{"receipt_data":"\#(premium)","subscription_tier":"mobile_monthly"}"#, expect: .forbidden)
        try await call(.POST, "/mobile/upgrade-subscription", json: "{}", expect: .unauthorized)
        try await call(.GET, "/mobile/subscription-status", token: other, expect: .ok)
        try await call(.POST, "/mobile/check-call-permission", token: other, expect: .ok)
        try await call(.POST, "/mobile/make-call", token: other, json: "{\(number)}", expect: .ok)

        let addon = try ca.sign(AppStoreFixtures.transaction(id: "2000000000000003", productID: AppStoreFixtures.addonCalls))
        try await call(.POST, "/mobile/purchase-subscription", token: caller,
                       json: #"{"receipt_data":"\#(addon)","product_id":"speech_assistant_addon_calls"}"#, expect: .ok)
        try await call(.GET, "/mobile/usage-stats", token: caller, expect: .ok)

        // Apple's notification: received, a retry answered the same, a forged or unsigned one refused.
        var refunded = AppStoreFixtures.transaction(id: "2000000000000001", productID: AppStoreFixtures.basicWeekly)
        refunded.revocationDate = AppStoreFixtures.milliseconds(Date().addingTimeInterval(-1))
        refunded.revocationReason = 0
        let signed = try ca.signNotification(AppStoreFixtures.notification(.refund, uuid: "refund-1"), transaction: refunded)
        try await call(.POST, "/mobile/app-store/webhook", json: #"{"signedPayload":"\#(signed)"}"#, expect: .ok)
        try await call(.POST, "/mobile/app-store/webhook", json: #"{"signedPayload":"\#(signed)"}"#, expect: .ok)
        try await call(.POST, "/mobile/app-store/webhook", json: #"{"signedPayload":"\#(signed.dropLast(4))AAAA"}"#, expect: .badRequest)
        try await call(.POST, "/mobile/app-store/webhook", json: #"{"notificationType":"REFUND"}"#, expect: .badRequest)
        try await call(.POST, "/mobile/app-store/webhook", headers: form.0, body: form.1, expect: .unsupportedMediaType)

        try await call(.DELETE, "/mobile/scenarios/\(scenario)", token: other, expect: .notFound)
        try await call(.DELETE, "/mobile/scenarios/\(scenario)", token: caller, expect: .noContent)
        try await call(.DELETE, "/mobile/scenarios/\(scenario)", token: caller, expect: .notFound)
    }

    /// A server with neither Twilio nor the App Store, out of development mode, with two calls a
    /// minute; and a body over the JSON limit.
    private func walkCallsUnconfigured(maxJSONBodyBytes: Int) async throws {
        let caller = try await app.register("caller@example.com").access_token
        let number = #""phone_number":"+14155550100""#
        let oversize = #"{"name":"Long","voice":"sage","prompt":"\#(String(repeating: "x", count: maxJSONBodyBytes))"}"#
        try await call(.POST, "/mobile/scenarios", token: caller, json: oversize, expect: .payloadTooLarge)
        try await call(.POST, "/mobile/make-call", token: caller, json: "{\(number)}", expect: .serviceUnavailable)
        // Out of development mode the /test/* routes do not exist (the call limit counts /test/test-call all the same).
        try await call(.POST, "/test/test-call", token: caller, json: "{\(number)}", expect: .notFound)
        try await call(.POST, "/test/bypass-rate-limit", token: caller, json: #"{"endpoint":"/mobile/make-call"}"#, expect: .notFound)
        let limited = try await call(.POST, "/mobile/make-call", token: caller, json: "{\(number)}", expect: .tooManyRequests)
        #expect(limited.headers.first(name: .retryAfter).flatMap(Int.init) != nil)
        try await call(.POST, "/mobile/schedule-call", token: caller, json: "{\(number)}", expect: .tooManyRequests)
        try await call(.GET, "/mobile/usage-stats", token: caller, expect: .ok)
        try await call(.GET, "/mobile/voices/sage/preview", token: caller, expect: .serviceUnavailable)
        try await call(.POST, "/mobile/purchase-subscription", token: caller,
                       json: #"{"receipt_data":"eyJ","product_id":"speech_assistant_basic_weekly"}"#, expect: .serviceUnavailable)
        try await call(.POST, "/mobile/upgrade-subscription", token: caller,
                       json: #"{"receipt_data":"eyJ","subscription_tier":"mobile_weekly"}"#, expect: .serviceUnavailable)
        try await call(.POST, "/mobile/app-store/webhook", json: #"{"signedPayload":"eyJ"}"#, expect: .serviceUnavailable)
        let (headers, body) = OpenAPIShapeTests.form("AccountSid=AC0&CallSid=CA0&CallStatus=completed")
        var signed = headers
        signed.add(name: "X-Twilio-Signature", value: "AAAAAAAAAAAAAAAAAAAAAAAAAAA=")
        try await call(.POST, "/call-end-webhook", headers: signed, body: body, expect: .serviceUnavailable)
    }

    /// Twilio's status callback, signed as Twilio signs it unless `signature` is given.
    @discardableResult
    private func callback(
        sid: String?, status: String, duration: Int?, wire: TwilioWire, signature: String? = nil,
        expect: HTTPResponseStatus, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> TestingHTTPResponse {
        var fields = [("AccountSid", wire.accountSID), ("CallStatus", status), ("To", "+14155550100"), ("From", "+15005550006")]
        if let sid { fields.append(("CallSid", sid)) }
        if let duration { fields.append(("CallDuration", String(duration))) }
        let signed = TwilioSignature.sign(
            url: "https://calls.example.com/call-end-webhook", parameters: fields.map { (name: $0.0, value: $0.1) }, authToken: wire.authToken)
        let (headers, body) = OpenAPIShapeTests.form(
            fields.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)" }.joined(separator: "&"))
        var signedHeaders = headers
        signedHeaders.add(name: "X-Twilio-Signature", value: signature ?? signed)
        let reply = try await call(.POST, "/call-end-webhook", headers: signedHeaders, body: body, expect: expect, sourceLocation: sourceLocation)
        if expect == .ok {
            #expect(reply.headers.first(name: .contentType) == "text/xml" && reply.body.string == "<Response/>", sourceLocation: sourceLocation)
        }
        return reply
    }
}
