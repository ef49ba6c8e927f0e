import AppStore
import AppStoreTestSupport
import CallWorkflows
import Calls
import DatabaseTestSupport
import FluentKit
import Foundation
import Jobs
import NIOCore
@testable import Persistence
@testable import StoryServer
import Telephony
import Testing
import TestSupport
import VaporTesting
import VendorHTTP

/// The AI phone calls' mobile API as the iPhone app uses it: every reply decoded with the app's
/// own structs (`MobileClient`), calls placed through a loopback Twilio, purchases signed by a
/// test CA that carries Apple's OIDs.
@Suite("Mobile calls API", .serialized)
struct MobileAPITests: CallsAPITesting {
    @Test("a trial account: usage, permission, pricing, scenarios, three calls through Twilio, then 402 with what to buy", arguments: Backend.available)
    func trialToPaymentRequired(_ backend: Backend) async throws {
        try await withCallsServer(backend) { app, config, wire, _ in
            let token = try await registerMobile(app, "caller@example.com")
            var headers = Self.mobile
            headers.bearerAuthorization = BearerAuthorization(token: token)

            let stats = try decode(MobileClient.UsageStats.self, try await app.send(.GET, "/mobile/usage-stats", headers: headers))
            #expect(stats.app_type == "mobile_consumer" && stats.is_trial_active && stats.trial_calls_remaining == 3)
            #expect(stats.subscription_tier == nil && stats.addon_calls_expiry == nil)
            let permission = try decode(MobileClient.CallPermission.self, try await app.send(.POST, "/mobile/check-call-permission", headers: headers))
            #expect(permission.can_make_call && permission.status == "trial_call_available" && permission.details.duration_limit == 60)
            let pricing = try decode(MobileClient.PricingInfo.self, try await app.send(.GET, "/mobile/pricing", headers: headers))
            #expect(pricing.plans.map(\.id) == ["basic", "premium"] && pricing.addon.price == "$4.99")
            let scenarios = try decode(MobileClient.ScenariosResponse.self, try await app.send(.GET, "/mobile/scenarios", headers: headers)).scenarios
            #expect(scenarios.count == 23 && scenarios.first?.id == "default" && scenarios.first?.category == "Entertainment")
            #expect(scenarios.first { $0.id == "yacht_party" }?.is_family_friendly == false)

            // The app's own makeCall, which asks check-call-permission first.
            var sids: [String] = []
            for scenario in ["default", "comedian", "birthday_wishes"] {
                let call = try await appMakeCall(app, token: token, phoneNumber: "+14155550100", scenario: scenario)
                #expect(call.status == "initiated" && call.duration_limit == 60)
                sids.append(call.call_sid)
            }
            #expect(wire.calls.map(\.sid) == sids)
            let placed = try #require(wire.calls.first)
            #expect(placed.to == "+14155550100" && placed.from == "+15005550006")
            #expect(placed.timeLimit == 75)
            #expect(placed.twiml.contains(#"<Stream url="wss://calls.example.com/media-stream">"#))
            #expect(placed.twiml.contains(#"<Parameter name="call_token""#) && placed.twiml.contains(#"<Parameter name="scenario" value="default"/>"#))

            // At the trial's end the app's code finds the status it compares with, and shows its
            // upgrade alert (a generic error on any other word: issue 49).
            do {
                _ = try await appMakeCall(app, token: token, phoneNumber: "+14155550100", scenario: "default")
                Issue.record("a fourth trial call was placed")
            } catch MobileClient.CallError.trialExhausted {
            } catch {
                Issue.record("the app would show \(error), not its upgrade alert")
            }
            let refused = try await app.send(.POST, "/mobile/make-call", json: #"{"phone_number":"+14155550100","scenario":"default"}"#, headers: headers)
            #expect(refused.status == .paymentRequired)
            let payment = try decode(MobileClient.PaymentRequiredError.self, refused)
            #expect(payment.detail.error == "trial_calls_exhausted")
            #expect(payment.detail.upgrade_options?.map(\.product_id) == ["speech_assistant_basic_weekly", "speech_assistant_premium_monthly"])
            #expect(wire.calls.count == 3)

            // Twilio says how the calls went: one connected for 45 s, one was never answered.
            #expect(try await callback(app, config, wire, sid: sids[0], status: "completed", duration: 45).status == .ok)
            #expect(try await callback(app, config, wire, sid: sids[1], status: "no-answer", duration: 0).status == .ok)
            let after = try decode(MobileClient.UsageStats.self, try await app.send(.GET, "/mobile/usage-stats", headers: headers))
            #expect(after.total_call_duration_this_week == 45)
            // The call never answered is given back, and still counted among the calls made, as
            // the history lists it.
            #expect(after.trial_calls_remaining == 1 && after.calls_made_this_week == 2 && after.calls_made_total == 3)

            let history = try decode(MobileClient.CallHistoryResponse.self, try await app.send(.GET, "/mobile/call-history?limit=2", headers: headers))
            #expect(history.total_calls == 3 && history.call_history.count == 2)
            #expect(history.call_history.last?.status == "no-answer")
        }
    }

    @Test("two calls placed at the same moment cannot both take the trial's last call", arguments: Backend.available)
    func lastCallRace(_ backend: Backend) async throws {
        try await withCallsServer(backend) { app, _, wire, _ in
            let token = try await registerMobile(app, "racer@example.com")
            for _ in 0..<2 { #expect(try await app.send(.POST, "/mobile/make-call", token: token, json: #"{"phone_number":"+14155550100"}"#).status == .ok) }
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for _ in 0..<2 {
                    group.addTask { try await app.send(.POST, "/mobile/make-call", token: token, json: #"{"phone_number":"+14155550100"}"#).status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .ok }.count == 1, "\(statuses)")
            #expect(wire.calls.count == 3)
            #expect(try decode(MobileClient.UsageStats.self, try await app.send(.GET, "/mobile/usage-stats", token: token)).trial_calls_used == 3)
        }
    }

    @Test("placing a call voices the scenario's opening while the phone rings, and keeps it for the local agent")
    func openingVoicedWhileRinging() async throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("storyvoice-double-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let narration = try NarrationDouble(cacheDirectory: cache)
        try await withCallsServer(adjust: { $0.narration = narration }) { app, config, _, _ in
            let token = try await registerMobile(app, "ringer@example.com")
            let scenario = try #require(ScenarioCatalog.scenario(id: "birthday_wishes"))
            let voice = try await CallAgents.localVoice(like: scenario.voice, narration: narration)
            let key = CallOpenings.Key(scenario: scenario, voice: voice.voice)
            #expect(await config.callOpenings.ready(key) == nil)
            let call = try await app.send(.POST, "/mobile/make-call", token: token, json: #"{"phone_number":"+14155550100","scenario":"birthday_wishes"}"#)
            #expect(call.status == .ok)
            var kept: CallOpening?
            for _ in 0..<6_000 where kept == nil {
                kept = await config.callOpenings.ready(key)
                if kept == nil { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(kept?.text == scenario.opening)
            #expect(kept?.sentences.allSatisfy { !$0.mulaw.isEmpty } == true)
        }
    }

    @Test("a server that warms the openings voices every built-in scenario's once it runs, then lets the workers go")
    func openingsWarmedAtStart() async throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("storyvoice-double-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let narration = try NarrationDouble(cacheDirectory: cache)
        try await withCallsServer(adjust: { $0.narration = narration; $0.warmsCallOpenings = true }) { app, config, _, _ in
            #expect(try await app.send(.GET, "/health").status == .ok)  // booted
            var keys: [CallOpenings.Key] = []
            for scenario in ScenarioCatalog.all {
                keys.append(CallOpenings.Key(scenario: scenario, voice: try await CallAgents.localVoice(like: scenario.voice, narration: narration).voice))
            }
            var missing = keys.count
            for _ in 0..<6_000 where missing > 0 {
                missing = 0
                for key in keys where await config.callOpenings.ready(key) == nil { missing += 1 }
                if missing > 0 { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(missing == 0)
            // The workers that spoke them are not left idle beside the server's first work.
            for _ in 0..<6_000 where narration.releasedVoices.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
            #expect(Set(narration.releasedVoices) == Set(keys.map(\.voice)))
        }
    }

    @Test("a status callback with a bad signature changes nothing")
    func forgedCallback() async throws {
        try await withCallsServer { app, config, wire, _ in
            let token = try await registerMobile(app, "caller@example.com")
            let call = try await app.send(.POST, "/mobile/make-call", token: token, json: #"{"phone_number":"+14155550100"}"#)
            let sid = try decode(MobileClient.CallResponse.self, call).call_sid
            let forged = try await callback(app, config, wire, sid: sid, status: "failed", duration: 0, signature: "AAAAAAAAAAAAAAAAAAAAAAAAAAA=")
            #expect(forged.status == .forbidden)
            let history = try decode(MobileClient.CallHistoryResponse.self, try await app.send(.GET, "/mobile/call-history", token: token))
            #expect(history.call_history.first?.status == "initiated")
            #expect(try decode(MobileClient.UsageStats.self, try await app.send(.GET, "/mobile/usage-stats", token: token)).trial_calls_remaining == 2)
        }
    }

    @Test("numbers Twilio cannot call, unknown scenarios and a server without Twilio: clear errors, nothing counted")
    func refusals() async throws {
        try await withCallsServer { app, _, wire, _ in
            let token = try await registerMobile(app, "caller@example.com")
            let local = try await app.send(.POST, "/mobile/make-call", token: token, json: #"{"phone_number":"4155550100"}"#)
            #expect(local.status == .badRequest && local.errorCode == "invalid_phone_number")
            #expect(try decode(MobileClient.PurchaseError.self, local).detail.contains("+14155550100"))
            let refusedByTwilio = try await app.send(.POST, "/mobile/make-call", token: token, json: #"{"phone_number":"+15550000000"}"#)
            #expect(refusedByTwilio.status == .badRequest && refusedByTwilio.errorMessage?.contains("not a valid phone number") == true)
            let unknown = try await app.send(.POST, "/mobile/make-call", token: token, json: #"{"phone_number":"+14155550100","scenario":"astronaut"}"#)
            #expect(unknown.status == .badRequest && unknown.errorCode == "unknown_scenario")
            #expect(wire.calls.isEmpty)
            #expect(try decode(MobileClient.UsageStats.self, try await app.send(.GET, "/mobile/usage-stats", token: token)).trial_calls_remaining == 3)
            #expect(try await app.send(.GET, "/mobile/usage-stats").status == .unauthorized)
        }
        try await withCallsServer(twilio: false) { app, _, _, _ in
            let token = try await registerMobile(app, "caller@example.com")
            let unconfigured = try await app.send(.POST, "/mobile/make-call", token: token, json: #"{"phone_number":"+14155550100"}"#)
            #expect(unconfigured.status == .serviceUnavailable && unconfigured.errorCode == "telephony_not_configured")
            // The operator's settings are the operator's: the app's user is told what they can do.
            #expect(unconfigured.errorMessage?.contains("TWILIO") == false && unconfigured.errorMessage?.contains("browser") == true)
            #expect(try decode(MobileClient.UsageStats.self, try await app.send(.GET, "/mobile/usage-stats", token: token)).trial_calls_remaining == 3)
        }
    }

    @Test("a signed purchase makes a basic subscriber once; a tampered one or another account's is refused", arguments: Backend.available)
    func purchases(_ backend: Backend) async throws {
        try await withCallsServer(backend) { app, _, _, ca in
            let token = try await registerMobile(app, "buyer@example.com")
            let jws = try ca.sign(AppStoreFixtures.transaction(id: "2000000000000001", productID: AppStoreFixtures.basicWeekly))
            let body = #"{"receipt_data":"\#(jws)","is_sandbox":true,"product_id":"speech_assistant_basic_weekly"}"#
            let bought = try await app.send(.POST, "/mobile/purchase-subscription", token: token, json: body)
            #expect(bought.status == .ok, "\(bought.body.string)")
            let purchase = try decode(MobileClient.PurchaseResponse.self, bought)
            #expect(purchase.success && purchase.usage_stats.subscription_tier == "mobile_basic" && purchase.usage_stats.is_subscribed)
            #expect(bought.json?["usage_stats"]?["calls_remaining_this_week"]?.intValue == 5)
            let again = try decode(MobileClient.PurchaseResponse.self, try await app.send(.POST, "/mobile/purchase-subscription", token: token, json: body))
            #expect(again.message.contains("already"))
            let permission = try decode(MobileClient.CallPermission.self, try await app.send(.POST, "/mobile/check-call-permission", token: token))
            #expect(permission.status == "basic_call_available" && permission.details.calls_remaining_this_week == 5)
            // The same subscription is the chat stories' premium.
            #expect(try await app.send(.GET, "/api/chat/entitlement", token: token).json?["premium"] == .bool(true))
            let status = try decode(MobileClient.SubscriptionStatus.self, try await app.send(.GET, "/mobile/subscription-status", token: token))
            #expect(status.subscription_status == "active" && status.billing_cycle == "weekly" && status.app_store_transaction_id == "2000000000000001")

            let tampered = JWSTampering.replacingPayload(of: jws, with: Data(#"{"productId":"speech_assistant_premium_monthly"}"#.utf8))
            let forged = try await app.send(.POST, "/mobile/purchase-subscription", token: token,
                                            json: #"{"receipt_data":"\#(tampered)","is_sandbox":true,"product_id":"speech_assistant_premium_monthly"}"#)
            #expect(forged.status == .badRequest)
            #expect(try decode(MobileClient.PurchaseError.self, forged).detail.isEmpty == false)
            let other = try await registerMobile(app, "other@example.com")
            let stolen = try await app.send(.POST, "/mobile/purchase-subscription", token: other, json: body)
            #expect(stolen.status == .forbidden)

            let legacyJWS = try ca.sign(AppStoreFixtures.transaction(id: "2000000000000002", productID: AppStoreFixtures.premiumMonthly))
            let legacy = try await app.send(.POST, "/mobile/upgrade-subscription", token: other,
                                            json: #"{"receipt_data":"\#(legacyJWS)","is_sandbox":true,"subscription_tier":"mobile_monthly"}"#)
            #expect(legacy.status == .ok, "\(legacy.body.string)")
            let upgrade = try decode(MobileClient.UpgradeResponse.self, legacy)
            #expect(upgrade.subscription_tier == "mobile_monthly" && upgrade.usage_stats.subscription_tier == "mobile_premium")
        }
    }

    /// The purchase as the app's code makes it (issue 49): the base64 app receipt, read for the
    /// transaction, which the loopback App Store Server API answers for, signed.
    @Test("a purchase with the app's base64 receipt completes: the latest period in it is looked up with the App Store Server API", arguments: Backend.available)
    func purchaseWithAppReceipt(_ backend: Backend) async throws {
        let apiKey = AppStoreFixtures.apiKey()
        let credentials = try AppStoreAPICredentials(issuerID: "57246542-96fe-1a63-e053-0824d011072a", keyID: "2X9R4HXF34",
                                                     bundleID: AppStoreFixtures.bundleID, privateKey: Secret(apiKey.pem))
        let key = AppStoreWire.Key(issuerID: credentials.issuerID, keyID: credentials.keyID, bundleID: credentials.bundleID, publicKey: apiKey.publicKey)
        // What Apple knows, signed by the server's test CA once it exists.
        let known = LockedValue<[String: String]>([:])
        try await LoopbackServer.withServer(handler: { request in
            await AppStoreWire.handler(key: key, transactions: known.withLock { $0 })(request)
        }) { apple in
            try await withCallsServer(backend, adjust: { config in
                config.calls.appStoreServer = try! AppStoreServerClient(
                    credentials: credentials, baseURL: apple.baseURL,
                    transport: VendorTransport(key: nil, timeout: loopbackTimeout, limiter: ConcurrencyLimiter(limit: 4)))
            }) { app, _, _, ca in
                let day: TimeInterval = 86_400
                let first = AppStoreFixtures.transaction(id: "2000000000000201", productID: AppStoreFixtures.basicWeekly, purchased: Date().addingTimeInterval(-8 * day))
                let renewal = AppStoreFixtures.transaction(id: "2000000000000202", originalID: "2000000000000201", productID: AppStoreFixtures.basicWeekly,
                                                           purchased: Date().addingTimeInterval(-60))
                known.withLock { $0 = [first.transactionId!: try! ca.sign(first), renewal.transactionId!: try! ca.sign(renewal)] }
                func record(_ transaction: SignedTransaction) -> AppReceipt.Purchase {
                    AppReceipt.Purchase(productID: transaction.productId, transactionID: transaction.transactionId,
                                        originalTransactionID: transaction.originalTransactionId, purchaseDate: transaction.purchaseDate)
                }
                // As Apple writes receipts: BER, indefinite lengths; the renewal listed first.
                let receipt = try ca.appReceipt(AppReceipt(bundleID: AppStoreFixtures.bundleID, purchases: [record(renewal), record(first)]), form: .berIndefinite)
                func purchase(_ receipt: String, product: String = AppStoreFixtures.basicWeekly, token: String) async throws -> TestingHTTPResponse {
                    let body = String(decoding: try JSONEncoder().encode(MobileClient.PurchaseRequest(receipt_data: receipt, is_sandbox: true, product_id: product)), as: UTF8.self)
                    return try await app.send(.POST, "/mobile/purchase-subscription", token: token, json: body)
                }

                let token = try await registerMobile(app, "receipt-buyer@example.com")
                let bought = try await purchase(receipt, token: token)
                #expect(bought.status == .ok, "\(bought.body.string)")
                let result = try decode(MobileClient.PurchaseResponse.self, bought)
                #expect(result.success && result.usage_stats.subscription_tier == "mobile_basic" && result.usage_stats.is_subscribed)
                #expect(apple.requests.map(\.uri) == ["/inApps/v1/transactions/2000000000000202"])
                let status = try decode(MobileClient.SubscriptionStatus.self, try await app.send(.GET, "/mobile/subscription-status", token: token))
                #expect(status.subscription_status == "active" && status.app_store_transaction_id == "2000000000000202")
                #expect(try decode(MobileClient.PurchaseResponse.self, try await purchase(receipt, token: token)).message.contains("already"))

                // Another product than the receipt holds; a transaction Apple does not know;
                // another account's receipt; text that is no receipt.
                let noPremium = try await purchase(receipt, product: AppStoreFixtures.premiumMonthly, token: token)
                #expect(noPremium.status == .badRequest && noPremium.json?["error"]?["code"]?.stringValue == "purchase_not_in_receipt")
                #expect(try decode(MobileClient.PurchaseError.self, noPremium).detail.contains(AppStoreFixtures.premiumMonthly))
                let unknown = try ca.appReceipt(AppReceipt(bundleID: AppStoreFixtures.bundleID, purchases: [
                    AppReceipt.Purchase(productID: AppStoreFixtures.basicWeekly, transactionID: "2000000000000999", purchaseDate: Date())]))
                #expect(try await purchase(unknown, token: token).json?["error"]?["code"]?.stringValue == "transaction_not_found")
                let other = try await registerMobile(app, "receipt-other@example.com")
                #expect(try await purchase(receipt, token: other).status == .forbidden)
                let garbage = try await purchase(Data("not a receipt".utf8).base64EncodedString(), token: token)
                #expect(garbage.status == .badRequest && garbage.json?["error"]?["code"]?.stringValue == "unsupported_receipt")
            }
        }
    }

    @Test("an App Store refund notification, applied by the job, takes the plan away; a retry is answered and not applied twice")
    func refundNotification() async throws {
        try await withCallsServer(workers: 1) { app, _, _, ca in
            let token = try await registerMobile(app, "buyer@example.com")
            let transaction = AppStoreFixtures.transaction(id: "2000000000000003", productID: AppStoreFixtures.basicWeekly)
            let body = #"{"receipt_data":"\#(try ca.sign(transaction))","is_sandbox":true,"product_id":"speech_assistant_basic_weekly"}"#
            #expect(try await app.send(.POST, "/mobile/purchase-subscription", token: token, json: body).status == .ok)

            var refunded = transaction
            refunded.revocationDate = AppStoreFixtures.milliseconds(Date().addingTimeInterval(-1))
            refunded.revocationReason = 0
            let signed = try ca.signNotification(AppStoreFixtures.notification(.refund, uuid: "refund-1"), transaction: refunded)
            let webhook = try await app.send(.POST, "/mobile/app-store/webhook", json: #"{"signedPayload":"\#(signed)"}"#)
            #expect(webhook.status == .ok, "\(webhook.body.string)")
            #expect(try decode(MobileClient.WebhookResponse.self, webhook).status == "success")
            #expect(try await app.send(.POST, "/mobile/app-store/webhook", json: #"{"signedPayload":"\#(signed)"}"#).status == .ok)

            #expect(try await processedNotification("refund-1", app) == "processed")
            #expect(try await StoreNotificationRecord.query(on: app.db).count() == 1)
            let permission = try decode(MobileClient.CallPermission.self, try await app.send(.POST, "/mobile/check-call-permission", token: token)).status
            #expect(permission == "trial_call_available")
            #expect(try await app.send(.GET, "/api/chat/entitlement", token: token).json?["premium"] == .bool(false))

            let forged = try await app.send(.POST, "/mobile/app-store/webhook", json: #"{"signedPayload":"\#(signed.dropLast(4))AAAA"}"#)
            #expect(forged.status == .badRequest)
        }
    }

    /// A subscription's life as the App Store tells it, each notification applied by the job
    /// before the next is sent: bought (SUBSCRIBED, the app's account token naming the buyer),
    /// renewal switched off (nothing changes), a failed renewal in its grace period (still
    /// active), the grace period over (expired); then a new purchase revoked (REVOKE) and the
    /// refund reversed (REFUND_REVERSED), and its EXPIRED at the end.
    @Test("every kind of App Store notification, applied by the job, moves the plan as Apple says")
    func notificationLifecycle() async throws {
        try await withCallsServer(workers: 1) { app, _, _, ca in
            let token = try await registerMobile(app, "lifecycle@example.com")
            let me = try await app.send(.GET, "/api/me", token: token).json?["id"]?.stringValue ?? ""
            let user = try #require(UUID(uuidString: me))
            let hour: TimeInterval = 3600
            var sent = 0
            func notify(_ type: NotificationType, _ transaction: SignedTransaction, renewal: SignedRenewalInfo? = nil,
                        subtype: NotificationSubtype? = nil) async throws -> MobileClient.SubscriptionStatus {
                sent += 1
                let uuid = "lifecycle-\(sent)"
                let signed = try ca.signNotification(AppStoreFixtures.notification(type, subtype: subtype, uuid: uuid), transaction: transaction, renewalInfo: renewal)
                let reply = try await app.send(.POST, "/mobile/app-store/webhook", json: #"{"signedPayload":"\#(signed)"}"#)
                #expect(reply.status == .ok, "\(type.rawValue): \(reply.body.string)")
                #expect(try await processedNotification(uuid, app) == "processed", "\(type.rawValue)")
                return try decode(MobileClient.SubscriptionStatus.self, try await app.send(.GET, "/mobile/subscription-status", token: token))
            }

            let bought = AppStoreFixtures.transaction(
                id: "2000000000000020", productID: AppStoreFixtures.basicWeekly, purchased: Date().addingTimeInterval(-hour), appAccountToken: user)
            #expect(try await notify(.subscribed, bought, subtype: .initialBuy).subscription_status == "active")
            #expect(try decode(MobileClient.CallPermission.self, try await app.send(.POST, "/mobile/check-call-permission", token: token)).status == "basic_call_available")

            let renewalOff = AppStoreFixtures.renewalInfo(originalID: "2000000000000020", autoRenew: false)
            #expect(try await notify(.didChangeRenewalStatus, bought, renewal: renewalOff).subscription_status == "active")

            var lapsed = bought
            lapsed.expiresDate = AppStoreFixtures.milliseconds(Date().addingTimeInterval(-60))
            var grace = AppStoreFixtures.renewalInfo(originalID: "2000000000000020")
            grace.gracePeriodExpiresDate = AppStoreFixtures.milliseconds(Date().addingTimeInterval(48 * hour))
            let inGrace = try await notify(.didFailToRenew, lapsed, renewal: grace)
            #expect(inGrace.subscription_status == "active")
            #expect(inGrace.subscription_end_date == CallDates.string(try #require(grace.gracePeriodExpiresDate)))
            #expect(try await notify(.gracePeriodExpired, lapsed).subscription_status == "expired")
            #expect(try decode(MobileClient.CallPermission.self, try await app.send(.POST, "/mobile/check-call-permission", token: token)).status != "basic_call_available")

            let again = AppStoreFixtures.transaction(
                id: "2000000000000030", productID: AppStoreFixtures.premiumMonthly, purchased: Date().addingTimeInterval(-hour / 2), appAccountToken: user)
            #expect(try await notify(.subscribed, again, subtype: .resubscribe).subscription_tier == "mobile_premium")
            var revoked = again
            revoked.revocationDate = AppStoreFixtures.milliseconds(Date().addingTimeInterval(-1))
            revoked.revocationReason = 1
            #expect(try await notify(.revoke, revoked).subscription_status == "revoked")
            #expect(try await app.send(.GET, "/api/chat/entitlement", token: token).json?["premium"] == .bool(false))
            #expect(try await notify(.refundReversed, again).subscription_status == "active")
            #expect(try decode(MobileClient.CallPermission.self, try await app.send(.POST, "/mobile/check-call-permission", token: token)).status == "premium_call_available")
            #expect(try await app.send(.GET, "/api/chat/entitlement", token: token).json?["premium"] == .bool(true))

            var ended = again
            ended.expiresDate = AppStoreFixtures.milliseconds(Date().addingTimeInterval(-1))
            #expect(try await notify(.expired, ended, subtype: NotificationSubtype(rawValue: "VOLUNTARY")).subscription_status == "expired")
            #expect(try await app.send(.GET, "/api/chat/entitlement", token: token).json?["premium"] == .bool(false))
        }
    }

    @Test("a renewal notification keeps the subscription going on its first purchase's cycles")
    func renewalNotification() async throws {
        try await withCallsServer(workers: 1) { app, _, _, ca in
            let token = try await registerMobile(app, "renewer@example.com")
            let day: TimeInterval = 86_400
            let first = AppStoreFixtures.transaction(
                id: "2000000000000010", productID: AppStoreFixtures.basicWeekly, purchased: Date().addingTimeInterval(-8 * day),
                expires: Date().addingTimeInterval(-day))
            let lapsed = try await app.send(.POST, "/mobile/purchase-subscription", token: token,
                                            json: #"{"receipt_data":"\#(try ca.sign(first))","is_sandbox":true,"product_id":"speech_assistant_basic_weekly"}"#)
            #expect(lapsed.status == .ok && lapsed.json?["message"]?.stringValue?.contains("ended") == true, "\(lapsed.body.string)")
            #expect(try decode(MobileClient.SubscriptionStatus.self, try await app.send(.GET, "/mobile/subscription-status", token: token)).subscription_status == "expired")

            let renewal = AppStoreFixtures.transaction(
                id: "2000000000000011", originalID: "2000000000000010", productID: AppStoreFixtures.basicWeekly,
                purchased: Date().addingTimeInterval(-day), expires: Date().addingTimeInterval(6 * day))
            let signed = try ca.signNotification(AppStoreFixtures.notification(.didRenew, uuid: "renew-1"), transaction: renewal)
            #expect(try await app.send(.POST, "/mobile/app-store/webhook", json: #"{"signedPayload":"\#(signed)"}"#).status == .ok)
            #expect(try await processedNotification("renew-1", app) == "processed")
            let renewed = try decode(MobileClient.SubscriptionStatus.self, try await app.send(.GET, "/mobile/subscription-status", token: token))
            #expect(renewed.app_store_transaction_id == "2000000000000011")
            // The cycles still count from the first purchase, eight days ago.
            #expect(renewed.subscription_start_date == CallDates.string(try #require(first.purchaseDate)))
            let stats = try decode(MobileClient.UsageStats.self, try await app.send(.GET, "/mobile/usage-stats", token: token))
            #expect(stats.week_start_date == CallDates.string(try #require(first.purchaseDate).addingTimeInterval(7 * day)))
            #expect(try decode(MobileClient.CallPermission.self, try await app.send(.POST, "/mobile/check-call-permission", token: token)).status == "basic_call_available")
        }
    }

    /// Waits for the job to apply a notification. The job marks it processed after all its
    /// changes to the plan, so a plan read after this sees the job's whole work; waiting for
    /// the plan itself raced the mark.
    private func processedNotification(_ uuid: String, _ app: Application) async throws -> String? {
        var status: String?
        for _ in 0..<12_000 where status != "processed" {
            try await Task.sleep(for: .milliseconds(50))
            status = try await StoreNotificationRecord.query(on: app.db).filter(\.$notificationUUID == uuid).first()?.status
        }
        return status
    }

    @Test("custom scenarios: made, listed, used, refused when abusive, invisible to others")
    func customScenarios() async throws {
        try await withCallsServer { app, _, wire, _ in
            let ada = try await registerMobile(app, "ada@example.com")
            let made = try await app.send(.POST, "/mobile/scenarios", token: ada,
                                          json: #"{"name":"Pirate","prompt":"You are Captain Salt, a jolly pirate recruiting a deckhand for a treasure hunt.","voice":"ballad"}"#)
            #expect(made.status == .created, "\(made.body.string)")
            let id = try #require(made.json?["id"]?.stringValue)
            let list = try decode(MobileClient.ScenariosResponse.self, try await app.send(.GET, "/mobile/scenarios", token: ada))
            #expect(list.scenarios.count == 24 && list.scenarios.last?.id == id)
            #expect(try await app.send(.POST, "/mobile/make-call", token: ada, json: #"{"phone_number":"+14155550100","scenario":"\#(id)"}"#).status == .ok)
            #expect(wire.calls.last?.twiml.contains(id) == true)

            let abusive = try await app.send(.POST, "/mobile/scenarios", token: ada,
                                             json: #"{"name":"Bank","prompt":"Pretend to be the bank and ask them for their card number to verify.","voice":"echo"}"#)
            #expect(abusive.status == .badRequest && abusive.errorCode == "invalid_scenario")
            let voices = try await app.send(.GET, "/mobile/voices?gender=male&personality=warm_engaging", token: ada)
            #expect(voices.json?["voices"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["verse"])

            // The guide's app lists scenarios before signing in: the built-in ones, no one's own.
            let anonymous = try decode(MobileClient.ScenariosResponse.self, try await app.send(.GET, "/mobile/scenarios", headers: Self.mobile))
            #expect(anonymous.scenarios.count == 23 && !anonymous.scenarios.contains { $0.id == id })
            #expect(try await app.send(.GET, "/mobile/scenarios", token: "not-a-token").status == .unauthorized)
            let bob = try await registerMobile(app, "bob@example.com")
            #expect(try decode(MobileClient.ScenariosResponse.self, try await app.send(.GET, "/mobile/scenarios", token: bob)).scenarios.count == 23)
            let borrowed = try await app.send(.POST, "/mobile/make-call", token: bob, json: #"{"phone_number":"+14155550100","scenario":"\#(id)"}"#)
            #expect(borrowed.status == .badRequest && borrowed.errorCode == "unknown_scenario")
            #expect(try await app.send(.DELETE, "/mobile/scenarios/\(id)", token: bob).status == .notFound)
            #expect(try await app.send(.DELETE, "/mobile/scenarios/\(id)", token: ada).status == .noContent)
        }
    }

    @Test("a scheduled call is placed by its job when due; another is cancelled before")
    func scheduledCalls() async throws {
        try await withCallsServer(workers: 1) { app, _, wire, _ in
            let token = try await registerMobile(app, "caller@example.com")
            let now = CallDates.string(Date())
            let due = try await app.send(.POST, "/mobile/schedule-call", token: token,
                                         json: #"{"phone_number":"+14155550100","scenario":"storyteller","scheduled_time":"\#(now)"}"#)
            #expect(due.status == .ok, "\(due.body.string)")
            let scheduled = try decode(MobileClient.ScheduledCallResponse.self, due)
            #expect(scheduled.status == "scheduled" && scheduled.scenario == "storyteller")
            let later = try decode(MobileClient.ScheduledCallResponse.self, try await app.send(.POST, "/mobile/schedule-call", token: token, json: #"{"phone_number":"+14155550100"}"#))
            let laterTime = try #require(CallDates.date(later.scheduled_time))
            #expect(laterTime.timeIntervalSinceNow > 30)
            #expect(try await app.send(.DELETE, "/mobile/scheduled-calls/\(later.schedule_id)", token: token).json?["status"]?.stringValue == "cancelled")

            var placed = false
            for _ in 0..<6_000 where !placed {
                try await Task.sleep(for: .milliseconds(50))
                let list = try await app.send(.GET, "/mobile/scheduled-calls", token: token)
                placed = list.json?["scheduled_calls"]?.arrayValue?.contains { $0["status"]?.stringValue == "placed" } == true
            }
            #expect(placed)
            #expect(wire.calls.count == 1)
        }
    }
}

@Suite("Rate limits and CORS")
struct RateLimitTests {
    @Test("past the limit a client is answered 429 with Retry-After; placing calls has a tighter one")
    func limits() async throws {
        try await withServer(adjust: { $0.rateLimits = RateLimits(perMinute: 5, expensivePerMinute: 2) }) { app, _, _ in
            var statuses: [HTTPStatus] = []
            for _ in 0..<6 { statuses.append(try await app.send(.GET, "/mobile/pricing").status) }
            #expect(statuses.prefix(5).allSatisfy { $0 == .unauthorized })
            let limited = try await app.send(.GET, "/health")
            #expect(limited.status == .tooManyRequests && limited.errorCode == "rate_limited")
            #expect(Int(limited.headers.first(name: "Retry-After") ?? "") ?? 0 >= 1)
        }
        try await withServer(adjust: { $0.rateLimits = RateLimits(perMinute: 0, expensivePerMinute: 2) }) { app, _, _ in
            let token = try await app.register("caller@example.com").access_token
            var statuses: [HTTPStatus] = []
            for _ in 0..<3 { statuses.append(try await app.send(.POST, "/mobile/make-call", token: token, json: #"{"phone_number":"+14155550100"}"#).status) }
            #expect(statuses == [.serviceUnavailable, .serviceUnavailable, .tooManyRequests])
            #expect(try await app.send(.GET, "/mobile/usage-stats", token: token).status == .ok)
        }
    }

    @Test("CORS answers only the configured origins")
    func cors() async throws {
        try await withServer(adjust: { $0.corsOrigins = ["https://app.example.com"] }) { app, _, _ in
            let allowed = try await app.send(.OPTIONS, "/mobile/pricing", headers: [
                "Origin": "https://app.example.com", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "authorization,x-app-type"])
            #expect(allowed.headers.first(name: "Access-Control-Allow-Origin") == "https://app.example.com")
            let other = try await app.send(.GET, "/mobile/pricing", headers: ["Origin": "https://evil.example.com"])
            #expect(other.headers.first(name: "Access-Control-Allow-Origin") != "https://evil.example.com")
        }
    }
}

@Suite("Development endpoints")
struct DevelopmentEndpointTests {
    @Test("/test/* exist only in development mode: a test call is placed without counting, a bypass skips the limits")
    func developmentOnly() async throws {
        try await withServer { app, _, _ in
            let token = try await app.register("dev@example.com").access_token
            #expect(try await app.send(.POST, "/test/test-call", token: token, json: #"{"phone_number":"+14155550100"}"#).status == .notFound)
        }
        let wire = TwilioWire()
        try await LoopbackServer.withServer(handler: wire.handler) { server in
            try await withServer(adjust: { config in
                config.developmentMode = true
                config.rateLimits = RateLimits(perMinute: 0, expensivePerMinute: 1)
                config.calls = CallServices(twilio: TwilioClient(configuration: TwilioConfiguration(
                    accountSID: wire.accountSID, authToken: Secret(wire.authToken), fromNumber: try! PhoneNumber("+15005550006"),
                    publicBaseURL: "https://calls.example.com", apiBaseURL: server.baseURL), timeout: loopbackTimeout))
            }) { app, _, _ in
                let token = try await app.register("dev@example.com").access_token
                for _ in 0..<4 {
                    let call = try await app.send(.POST, "/test/bypass-rate-limit", token: token,
                                                  json: #"{"endpoint":"/test/../mobile/make-call","data":{}}"#)
                    #expect(call.status == .badRequest)
                }
                let tested = try await app.send(.POST, "/test/test-call", token: token, json: #"{"phone_number":"+14155550100"}"#)
                #expect(tested.status == .ok, "\(tested.body.string)")
                let bypassed = try await app.send(.POST, "/test/bypass-rate-limit", token: token,
                                                  json: #"{"endpoint":"/mobile/make-call","data":{"phone_number":"+14155550100","scenario":"comedian"}}"#)
                #expect(bypassed.status == .ok, "\(bypassed.body.string)")
                #expect(wire.calls.count == 2)
                // The test call was not counted; the bypassed real one was.
                #expect(try await app.send(.GET, "/mobile/usage-stats", token: token).json?["trial_calls_remaining"]?.intValue == 2)
            }
        }
    }
}
