import AppStore
import Crypto
import Foundation

/// Typical payloads for tests: the app's bundle id, the three products, a subscription
/// purchase and the notifications about it.
public enum AppStoreFixtures {
    public static let bundleID = "com.storyvoice.calls"
    public static let basicWeekly = "speech_assistant_basic_weekly"
    public static let premiumMonthly = "speech_assistant_premium_monthly"
    public static let addonCalls = "speech_assistant_addon_calls"

    /// `date` cut to whole milliseconds, as Apple's payloads carry it (so a round trip compares equal).
    public static func milliseconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
    }

    /// A purchase as Apple signs it: an auto-renewable subscription for a subscription product
    /// (expiring a week or a month on), a consumable for the add-on.
    public static func transaction(
        id: String = "2000000123456789", originalID: String? = nil, productID: String = basicWeekly,
        bundleID: String = bundleID, environment: AppStoreEnvironment = .sandbox, purchased: Date = Date(),
        expires: Date? = nil, appAccountToken: UUID? = nil, revoked: Date? = nil, signed: Date = Date()
    ) -> SignedTransaction {
        let purchased = milliseconds(purchased)
        let subscription = productID != addonCalls
        let period: TimeInterval = productID == premiumMonthly ? 30 * 86_400 : 7 * 86_400
        return SignedTransaction(
            originalTransactionId: originalID ?? id, transactionId: id, webOrderLineItemId: subscription ? "2000000012345678" : nil,
            bundleId: bundleID, productId: productID, subscriptionGroupIdentifier: subscription ? "21500000" : nil,
            purchaseDate: purchased, originalPurchaseDate: purchased,
            expiresDate: subscription ? milliseconds(expires ?? purchased.addingTimeInterval(period)) : nil, quantity: 1,
            type: subscription ? .autoRenewableSubscription : .consumable, appAccountToken: appAccountToken,
            inAppOwnershipType: .purchased, signedDate: milliseconds(signed), revocationReason: revoked == nil ? nil : 0,
            revocationDate: revoked.map(milliseconds), environment: environment, storefront: "USA", storefrontId: "143441",
            transactionReason: .purchase, currency: "USD", price: productID == premiumMonthly ? 25_000 : 4_990
        )
    }

    /// A notification's payload about `bundleID` in `environment` (the signed transaction and
    /// renewal info are added by ``AppStoreTestCA/signNotification(_:transaction:renewalInfo:form:)``).
    public static func notification(
        _ type: NotificationType, subtype: NotificationSubtype? = nil, uuid: String = UUID().uuidString.lowercased(),
        bundleID: String = bundleID, environment: AppStoreEnvironment = .sandbox, appAppleID: Int64? = nil,
        signed: Date = Date(), status: Int? = 1
    ) -> NotificationPayload {
        NotificationPayload(
            notificationType: type, subtype: subtype, notificationUUID: uuid,
            data: NotificationData(environment: environment, appAppleId: appAppleID, bundleId: bundleID, bundleVersion: "1.0", status: status),
            version: "2.0", signedDate: milliseconds(signed)
        )
    }

    /// The renewal info of a subscription to `productID`, renewing when `autoRenew`.
    public static func renewalInfo(
        originalID: String = "2000000123456789", productID: String = basicWeekly, environment: AppStoreEnvironment = .sandbox,
        autoRenew: Bool = true, signed: Date = Date()
    ) -> SignedRenewalInfo {
        SignedRenewalInfo(
            originalTransactionId: originalID, autoRenewProductId: productID, productId: productID,
            autoRenewStatus: autoRenew ? 1 : 0, signedDate: milliseconds(signed), environment: environment
        )
    }

    /// An App Store Connect API key (a fresh P-256 key) as its `.p8` PEM, with the public key
    /// a loopback checks the bearer token against.
    public static func apiKey() -> (pem: String, publicKey: P256.Signing.PublicKey) {
        let key = P256.Signing.PrivateKey()
        return (key.pemRepresentation, key.publicKey)
    }
}
