/// One of Apple's string enumerations, kept open: a value Apple adds later decodes as itself
/// instead of failing the whole payload (a new notification type must still be stored and
/// answered). Encoded and decoded as the bare string.
public protocol AppStoreOpenValue: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible where RawValue == String {
    init(rawValue: String)
}

extension AppStoreOpenValue {
    public var description: String { rawValue }
}

/// The server environment a signed payload was made in (`environment`).
public struct AppStoreEnvironment: AppStoreOpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let production = Self(rawValue: "Production")
    public static let sandbox = Self(rawValue: "Sandbox")
    /// StoreKit testing in Xcode: signed by Xcode's own certificate, never by Apple's root.
    public static let xcode = Self(rawValue: "Xcode")
    /// The App Store Server API's local testing environment.
    public static let localTesting = Self(rawValue: "LocalTesting")
}

/// `notificationType` of App Store Server Notifications V2.
public struct NotificationType: AppStoreOpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let subscribed = Self(rawValue: "SUBSCRIBED")
    public static let didChangeRenewalPref = Self(rawValue: "DID_CHANGE_RENEWAL_PREF")
    public static let didChangeRenewalStatus = Self(rawValue: "DID_CHANGE_RENEWAL_STATUS")
    public static let offerRedeemed = Self(rawValue: "OFFER_REDEEMED")
    public static let didRenew = Self(rawValue: "DID_RENEW")
    public static let expired = Self(rawValue: "EXPIRED")
    public static let didFailToRenew = Self(rawValue: "DID_FAIL_TO_RENEW")
    public static let gracePeriodExpired = Self(rawValue: "GRACE_PERIOD_EXPIRED")
    public static let priceIncrease = Self(rawValue: "PRICE_INCREASE")
    public static let refund = Self(rawValue: "REFUND")
    public static let refundDeclined = Self(rawValue: "REFUND_DECLINED")
    public static let refundReversed = Self(rawValue: "REFUND_REVERSED")
    public static let consumptionRequest = Self(rawValue: "CONSUMPTION_REQUEST")
    public static let renewalExtended = Self(rawValue: "RENEWAL_EXTENDED")
    public static let revoke = Self(rawValue: "REVOKE")
    public static let test = Self(rawValue: "TEST")
    public static let renewalExtension = Self(rawValue: "RENEWAL_EXTENSION")
    public static let oneTimeCharge = Self(rawValue: "ONE_TIME_CHARGE")
    public static let externalPurchaseToken = Self(rawValue: "EXTERNAL_PURCHASE_TOKEN")
    public static let metadataUpdate = Self(rawValue: "METADATA_UPDATE")
    public static let migration = Self(rawValue: "MIGRATION")
    public static let priceChange = Self(rawValue: "PRICE_CHANGE")
}

/// `subtype` of App Store Server Notifications V2.
public struct NotificationSubtype: AppStoreOpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let initialBuy = Self(rawValue: "INITIAL_BUY")
    public static let resubscribe = Self(rawValue: "RESUBSCRIBE")
    public static let downgrade = Self(rawValue: "DOWNGRADE")
    public static let upgrade = Self(rawValue: "UPGRADE")
    public static let autoRenewEnabled = Self(rawValue: "AUTO_RENEW_ENABLED")
    public static let autoRenewDisabled = Self(rawValue: "AUTO_RENEW_DISABLED")
    public static let voluntary = Self(rawValue: "VOLUNTARY")
    public static let billingRetry = Self(rawValue: "BILLING_RETRY")
    public static let priceIncrease = Self(rawValue: "PRICE_INCREASE")
    public static let gracePeriod = Self(rawValue: "GRACE_PERIOD")
    public static let pending = Self(rawValue: "PENDING")
    public static let accepted = Self(rawValue: "ACCEPTED")
    public static let billingRecovery = Self(rawValue: "BILLING_RECOVERY")
    public static let productNotForSale = Self(rawValue: "PRODUCT_NOT_FOR_SALE")
    public static let summary = Self(rawValue: "SUMMARY")
    public static let failure = Self(rawValue: "FAILURE")
    public static let unreported = Self(rawValue: "UNREPORTED")
}

/// `type` of a transaction: the kind of in-app purchase.
public struct ProductType: AppStoreOpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let autoRenewableSubscription = Self(rawValue: "Auto-Renewable Subscription")
    public static let nonConsumable = Self(rawValue: "Non-Consumable")
    public static let consumable = Self(rawValue: "Consumable")
    public static let nonRenewingSubscription = Self(rawValue: "Non-Renewing Subscription")
}

/// `inAppOwnershipType`: bought by this user or shared with them by their family.
public struct InAppOwnershipType: AppStoreOpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let purchased = Self(rawValue: "PURCHASED")
    public static let familyShared = Self(rawValue: "FAMILY_SHARED")
}

/// `transactionReason`: a purchase by the user or an automatic renewal.
public struct TransactionReason: AppStoreOpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let purchase = Self(rawValue: "PURCHASE")
    public static let renewal = Self(rawValue: "RENEWAL")
}

/// `offerDiscountType`: how an offer's price is paid.
public struct OfferDiscountType: AppStoreOpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let freeTrial = Self(rawValue: "FREE_TRIAL")
    public static let payAsYouGo = Self(rawValue: "PAY_AS_YOU_GO")
    public static let payUpFront = Self(rawValue: "PAY_UP_FRONT")
    public static let oneTime = Self(rawValue: "ONE_TIME")
}
