import AppStore
import AppStoreTestSupport
import Foundation
import Testing

@Suite struct VerifierTests {
    let ca: AppStoreTestCA

    init() throws {
        ca = try AppStoreTestCA.make()
    }

    @Test func aTransactionSignedAsAppleSignsVerifiesAndDecodesFieldForField() async throws {
        let token = UUID()
        let original = AppStoreFixtures.transaction(id: "2000000999", productID: AppStoreFixtures.premiumMonthly, appAccountToken: token)
        let decoded = try await ca.verifier().verifyTransaction(try ca.sign(original))
        #expect(decoded == original)
        #expect(decoded.transactionId == "2000000999")
        #expect(decoded.productId == "speech_assistant_premium_monthly")
        #expect(decoded.type == .autoRenewableSubscription)
        #expect(decoded.appAccountToken == token)
        #expect(decoded.price == 25_000)
        #expect(decoded.expiresDate == original.purchaseDate?.addingTimeInterval(30 * 86_400))
    }

    @Test func appleJSONIsReadWithDatesInMilliseconds() async throws {
        let json = """
            {"transactionId":"2000000123","originalTransactionId":"2000000100","bundleId":"\(AppStoreFixtures.bundleID)",
             "productId":"speech_assistant_basic_weekly","purchaseDate":1698148900000,"originalPurchaseDate":1698148800000,
             "expiresDate":1698753700000,"quantity":1,"type":"Auto-Renewable Subscription","inAppOwnershipType":"PURCHASED",
             "signedDate":1698148950000,"environment":"Sandbox","transactionReason":"PURCHASE","storefront":"USA",
             "storefrontId":"143441","price":4990,"currency":"USD","offerType":1,"isUpgraded":false,"someFieldAppAddsLater":"x"}
            """
        let decoded = try await ca.verifier().verifyTransaction(try ca.signJWS(payload: Data(json.utf8)))
        #expect(decoded.purchaseDate == Date(timeIntervalSince1970: 1_698_148_900))
        #expect(decoded.expiresDate == Date(timeIntervalSince1970: 1_698_753_700))
        #expect(decoded.originalTransactionId == "2000000100")
        #expect(decoded.environment == .sandbox)
        #expect(decoded.offerType == 1)
        #expect(decoded.isUpgraded == false)
    }

    @Test func aNotificationVerifiesWithItsTransactionAndRenewalInfo() async throws {
        let transaction = AppStoreFixtures.transaction(id: "2000000555")
        let renewal = AppStoreFixtures.renewalInfo(originalID: "2000000555", autoRenew: false)
        let payload = AppStoreFixtures.notification(.didChangeRenewalStatus, subtype: .autoRenewDisabled, uuid: "6f2a7f6e-0000-4000-8000-000000000001")
        let signed = try ca.signNotification(payload, transaction: transaction, renewalInfo: renewal)
        let notification = try await ca.verifier().verifyNotification(signed)
        #expect(notification.notificationType == .didChangeRenewalStatus)
        #expect(notification.subtype == .autoRenewDisabled)
        #expect(notification.notificationUUID == "6f2a7f6e-0000-4000-8000-000000000001")
        #expect(notification.transaction == transaction)
        #expect(notification.renewalInfo == renewal)
        #expect(notification.renewalInfo?.autoRenewStatus == 0)
        #expect(notification.payload.data?.bundleId == AppStoreFixtures.bundleID)
    }

    @Test func aNotificationTypeAppleAddsLaterDecodesAsItsRawString() async throws {
        let payload = AppStoreFixtures.notification(NotificationType(rawValue: "SOMETHING_NEW"), subtype: NotificationSubtype(rawValue: "NEWER"))
        let notification = try await ca.verifier().verifyNotification(try ca.sign(payload))
        #expect(notification.notificationType?.rawValue == "SOMETHING_NEW")
        #expect(notification.subtype?.rawValue == "NEWER")
        #expect(notification.transaction == nil)
    }

    @Test func aForgedTransactionInsideAGenuineNotificationIsRefused() async throws {
        let stranger = try AppStoreTestCA.make(name: "Attacker")
        var payload = AppStoreFixtures.notification(.didRenew)
        payload.data?.signedTransactionInfo = try stranger.sign(AppStoreFixtures.transaction())
        let signed = try ca.sign(payload)
        let error = await refusal { try await ca.verifier().verifyNotification(signed) }
        #expect(error?.isUntrustedChain == true)
    }

    @Test func theNestedTransactionMustBeForThisAppToo() async throws {
        let payload = AppStoreFixtures.notification(.subscribed, subtype: .initialBuy)
        let signed = try ca.signNotification(payload, transaction: AppStoreFixtures.transaction(bundleID: "com.other.app"))
        await #expect(throws: AppStoreError.wrongApp(expected: AppStoreFixtures.bundleID, found: "com.other.app")) {
            try await ca.verifier().verifyNotification(signed)
        }
    }
}
