import Foundation

/// An App Store Server Notification V2 as Apple signs it: `ResponseBodyV2DecodedPayload`, field
/// for field. `data` carries the app, the environment and the signed transaction and renewal
/// info (each a JWS of its own); `summary` replaces it for a renewal-date extension's summary,
/// `externalPurchaseToken` for external purchase notifications.
public struct NotificationPayload: Codable, Hashable, Sendable {
    public var notificationType: NotificationType?
    public var subtype: NotificationSubtype?
    public var notificationUUID: String?
    public var data: NotificationData?
    public var version: String?
    public var signedDate: Date?
    public var summary: NotificationSummary?
    public var externalPurchaseToken: ExternalPurchaseToken?

    public init(
        notificationType: NotificationType? = nil, subtype: NotificationSubtype? = nil, notificationUUID: String? = nil,
        data: NotificationData? = nil, version: String? = "2.0", signedDate: Date? = nil,
        summary: NotificationSummary? = nil, externalPurchaseToken: ExternalPurchaseToken? = nil
    ) {
        self.notificationType = notificationType
        self.subtype = subtype
        self.notificationUUID = notificationUUID
        self.data = data
        self.version = version
        self.signedDate = signedDate
        self.summary = summary
        self.externalPurchaseToken = externalPurchaseToken
    }

    /// The app and environment the notification is about, wherever this kind carries them.
    var subject: (bundleId: String?, appAppleId: Int64?, environment: AppStoreEnvironment?) {
        if let data { return (data.bundleId, data.appAppleId, data.environment) }
        if let summary { return (summary.bundleId, summary.appAppleId, summary.environment) }
        if let token = externalPurchaseToken {
            let sandbox = token.externalPurchaseId?.hasPrefix("SANDBOX") == true
            return (token.bundleId, token.appAppleId, sandbox ? .sandbox : .production)
        }
        return (nil, nil, nil)
    }
}

/// Apple's name for ``NotificationPayload``.
public typealias ResponseBodyV2DecodedPayload = NotificationPayload

/// A notification's `data`.
public struct NotificationData: Codable, Hashable, Sendable {
    public var environment: AppStoreEnvironment?
    public var appAppleId: Int64?
    public var bundleId: String?
    public var bundleVersion: String?
    /// A JWS of its own (``SignedTransaction``), verified with the notification.
    public var signedTransactionInfo: String?
    /// A JWS of its own (``SignedRenewalInfo``), verified with the notification.
    public var signedRenewalInfo: String?
    /// The subscription's status: 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked.
    public var status: Int?
    public var consumptionRequestReason: String?

    public init(
        environment: AppStoreEnvironment? = nil, appAppleId: Int64? = nil, bundleId: String? = nil,
        bundleVersion: String? = nil, signedTransactionInfo: String? = nil, signedRenewalInfo: String? = nil,
        status: Int? = nil, consumptionRequestReason: String? = nil
    ) {
        self.environment = environment
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.bundleVersion = bundleVersion
        self.signedTransactionInfo = signedTransactionInfo
        self.signedRenewalInfo = signedRenewalInfo
        self.status = status
        self.consumptionRequestReason = consumptionRequestReason
    }
}

/// A notification's `summary` (RENEWAL_EXTENSION with subtype SUMMARY).
public struct NotificationSummary: Codable, Hashable, Sendable {
    public var requestIdentifier: String?
    public var environment: AppStoreEnvironment?
    public var appAppleId: Int64?
    public var bundleId: String?
    public var productId: String?
    public var storefrontCountryCodes: [String]?
    public var succeededCount: Int64?
    public var failedCount: Int64?
}

/// A notification's `externalPurchaseToken` (EXTERNAL_PURCHASE_TOKEN).
public struct ExternalPurchaseToken: Codable, Hashable, Sendable {
    public var externalPurchaseId: String?
    public var tokenCreationDate: Date?
    public var appAppleId: Int64?
    public var bundleId: String?
}

/// A notification whose signature, and the signatures of the transaction and renewal info it
/// carries, were verified: the payload, and the nested payloads decoded.
public struct AppStoreNotification: Hashable, Sendable {
    public var payload: NotificationPayload
    /// `data.signedTransactionInfo`, verified and decoded; nil when the notification has none.
    public var transaction: SignedTransaction?
    /// `data.signedRenewalInfo`, verified and decoded; nil when the notification has none.
    public var renewalInfo: SignedRenewalInfo?

    public init(payload: NotificationPayload, transaction: SignedTransaction? = nil, renewalInfo: SignedRenewalInfo? = nil) {
        self.payload = payload
        self.transaction = transaction
        self.renewalInfo = renewalInfo
    }

    /// The raw type string is kept for a type this code does not know yet.
    public var notificationType: NotificationType? { payload.notificationType }
    public var subtype: NotificationSubtype? { payload.subtype }
    /// What the webhook deduplicates on: Apple resends a notification with the same UUID.
    public var notificationUUID: String? { payload.notificationUUID }
}
