import Foundation

/// A StoreKit 2 transaction as Apple signs it: `JWSTransactionDecodedPayload`, field for field.
/// Dates are milliseconds since 1970 on the wire (``AppStoreJSON`` reads and writes them).
/// Every field is optional, as Apple documents them; `price` is in milliunits of `currency`.
public struct SignedTransaction: Codable, Hashable, Sendable {
    public var originalTransactionId: String?
    public var transactionId: String?
    public var webOrderLineItemId: String?
    public var bundleId: String?
    public var productId: String?
    public var subscriptionGroupIdentifier: String?
    public var purchaseDate: Date?
    public var originalPurchaseDate: Date?
    public var expiresDate: Date?
    public var quantity: Int?
    public var type: ProductType?
    public var appAccountToken: UUID?
    public var inAppOwnershipType: InAppOwnershipType?
    public var signedDate: Date?
    /// 0: refunded for another reason, 1: refunded for an issue in the app.
    public var revocationReason: Int?
    public var revocationDate: Date?
    public var isUpgraded: Bool?
    /// 1: introductory, 2: promotional, 3: offer code, 4: win-back.
    public var offerType: Int?
    public var offerIdentifier: String?
    public var environment: AppStoreEnvironment?
    public var storefront: String?
    public var storefrontId: String?
    public var transactionReason: TransactionReason?
    public var currency: String?
    public var price: Int64?
    public var offerDiscountType: OfferDiscountType?
    public var appTransactionId: String?
    /// An ISO 8601 duration, e.g. `P1M`.
    public var offerPeriod: String?

    public init(
        originalTransactionId: String? = nil, transactionId: String? = nil, webOrderLineItemId: String? = nil,
        bundleId: String? = nil, productId: String? = nil, subscriptionGroupIdentifier: String? = nil,
        purchaseDate: Date? = nil, originalPurchaseDate: Date? = nil, expiresDate: Date? = nil, quantity: Int? = nil,
        type: ProductType? = nil, appAccountToken: UUID? = nil, inAppOwnershipType: InAppOwnershipType? = nil,
        signedDate: Date? = nil, revocationReason: Int? = nil, revocationDate: Date? = nil, isUpgraded: Bool? = nil,
        offerType: Int? = nil, offerIdentifier: String? = nil, environment: AppStoreEnvironment? = nil,
        storefront: String? = nil, storefrontId: String? = nil, transactionReason: TransactionReason? = nil,
        currency: String? = nil, price: Int64? = nil, offerDiscountType: OfferDiscountType? = nil,
        appTransactionId: String? = nil, offerPeriod: String? = nil
    ) {
        self.originalTransactionId = originalTransactionId
        self.transactionId = transactionId
        self.webOrderLineItemId = webOrderLineItemId
        self.bundleId = bundleId
        self.productId = productId
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        self.expiresDate = expiresDate
        self.quantity = quantity
        self.type = type
        self.appAccountToken = appAccountToken
        self.inAppOwnershipType = inAppOwnershipType
        self.signedDate = signedDate
        self.revocationReason = revocationReason
        self.revocationDate = revocationDate
        self.isUpgraded = isUpgraded
        self.offerType = offerType
        self.offerIdentifier = offerIdentifier
        self.environment = environment
        self.storefront = storefront
        self.storefrontId = storefrontId
        self.transactionReason = transactionReason
        self.currency = currency
        self.price = price
        self.offerDiscountType = offerDiscountType
        self.appTransactionId = appTransactionId
        self.offerPeriod = offerPeriod
    }

    /// Refunded or revoked (family sharing withdrawn): the purchase no longer gives access.
    public var isRevoked: Bool { revocationDate != nil }
}

/// Apple's name for ``SignedTransaction``.
public typealias JWSTransactionDecodedPayload = SignedTransaction
