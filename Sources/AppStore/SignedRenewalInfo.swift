import Foundation

/// An auto-renewable subscription's renewal state as Apple signs it:
/// `JWSRenewalInfoDecodedPayload`, field for field (dates in milliseconds since 1970 on the wire).
public struct SignedRenewalInfo: Codable, Hashable, Sendable {
    /// 1: cancelled by the customer, 2: billing error, 3: price increase not consented,
    /// 4: product not available, 5: other.
    public var expirationIntent: Int?
    public var originalTransactionId: String?
    public var autoRenewProductId: String?
    public var productId: String?
    /// 0: off, 1: on.
    public var autoRenewStatus: Int?
    public var isInBillingRetryPeriod: Bool?
    /// 0: not yet consented, 1: consented or not needed.
    public var priceIncreaseStatus: Int?
    public var gracePeriodExpiresDate: Date?
    public var offerType: Int?
    public var offerIdentifier: String?
    public var signedDate: Date?
    public var environment: AppStoreEnvironment?
    public var recentSubscriptionStartDate: Date?
    public var renewalDate: Date?
    public var currency: String?
    public var renewalPrice: Int64?
    public var offerDiscountType: OfferDiscountType?
    public var eligibleWinBackOfferIds: [String]?
    public var appAccountToken: UUID?
    public var appTransactionId: String?
    public var offerPeriod: String?

    public init(
        expirationIntent: Int? = nil, originalTransactionId: String? = nil, autoRenewProductId: String? = nil,
        productId: String? = nil, autoRenewStatus: Int? = nil, isInBillingRetryPeriod: Bool? = nil,
        priceIncreaseStatus: Int? = nil, gracePeriodExpiresDate: Date? = nil, offerType: Int? = nil,
        offerIdentifier: String? = nil, signedDate: Date? = nil, environment: AppStoreEnvironment? = nil,
        recentSubscriptionStartDate: Date? = nil, renewalDate: Date? = nil, currency: String? = nil,
        renewalPrice: Int64? = nil, offerDiscountType: OfferDiscountType? = nil, eligibleWinBackOfferIds: [String]? = nil,
        appAccountToken: UUID? = nil, appTransactionId: String? = nil, offerPeriod: String? = nil
    ) {
        self.expirationIntent = expirationIntent
        self.originalTransactionId = originalTransactionId
        self.autoRenewProductId = autoRenewProductId
        self.productId = productId
        self.autoRenewStatus = autoRenewStatus
        self.isInBillingRetryPeriod = isInBillingRetryPeriod
        self.priceIncreaseStatus = priceIncreaseStatus
        self.gracePeriodExpiresDate = gracePeriodExpiresDate
        self.offerType = offerType
        self.offerIdentifier = offerIdentifier
        self.signedDate = signedDate
        self.environment = environment
        self.recentSubscriptionStartDate = recentSubscriptionStartDate
        self.renewalDate = renewalDate
        self.currency = currency
        self.renewalPrice = renewalPrice
        self.offerDiscountType = offerDiscountType
        self.eligibleWinBackOfferIds = eligibleWinBackOfferIds
        self.appAccountToken = appAccountToken
        self.appTransactionId = appTransactionId
        self.offerPeriod = offerPeriod
    }
}

/// Apple's name for ``SignedRenewalInfo``.
public typealias JWSRenewalInfoDecodedPayload = SignedRenewalInfo
