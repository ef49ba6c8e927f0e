import AppStore
import Calls
import Foundation
import Jobs
import Logging
import Persistence
import Platform

/// App Store purchases and notifications: what the app sends is verified offline and kept once;
/// plans follow from the kept transactions (see `CallLedger`). The chat stories' premium tier is
/// granted by the same subscriptions.
public struct Purchases: Sendable {
    public let database: AppDatabase
    public let services: CallServices
    let logger: Logger

    public init(database: AppDatabase, services: CallServices, logger: Logger = Logger(label: "storyvoice.purchases")) {
        self.database = database
        self.services = services
        self.logger = logger
    }

    /// What a purchase request carries (`/mobile/purchase-subscription` and the legacy
    /// `/mobile/upgrade-subscription`).
    public struct Request: Sendable {
        /// The StoreKit 2 transaction's `jwsRepresentation`; or, when the App Store Server API is
        /// configured to look it up, its transaction id or the base64 app receipt (what the
        /// app as written sends: `AppStore.receiptData()`).
        public var receiptData: String
        public var isSandbox: Bool
        /// A product id or a legacy tier name (`mobile_weekly`).
        public var product: String

        public init(receiptData: String, isSandbox: Bool, product: String) {
            self.receiptData = receiptData
            self.isSandbox = isSandbox
            self.product = product
        }
    }

    public struct Outcome: Sendable {
        public var message: String
        public var product: CallProduct
        public var usage: UsageStats
        public var allowance: Allowance
        /// False when the transaction had been processed before (answered, not counted twice).
        public var isNew: Bool
    }

    public func purchase(_ request: Request, userID: UUID) async throws -> Outcome {
        guard let product = CallProduct(productID: request.product) else {
            let ids = CallProduct.allCases.map(\.rawValue).joined(separator: ", ")
            throw ServiceError(.badRequest, code: "unknown_product", "\"\(request.product)\" is not a product of this app; use one of \(ids).")
        }
        let transaction = try await verifiedTransaction(request.receiptData, product: product)
        guard let bought = transaction.productId.flatMap(CallProduct.init(productID:)) else {
            throw ServiceError(.badRequest, code: "unknown_product", "The transaction is for \(transaction.productId ?? "no product"), which this app does not sell.")
        }
        guard bought == product else {
            throw ServiceError(.badRequest, code: "product_mismatch", "The transaction is for \(bought.rawValue), not \(product.rawValue).")
        }
        if let token = transaction.appAccountToken, token != userID {
            throw ServiceError(.forbidden, code: "purchase_of_another_account", "This purchase was made for another account.")
        }
        if transaction.revocationDate != nil {
            throw ServiceError(.badRequest, code: "purchase_refunded", "This purchase was refunded or revoked, so it gives nothing.")
        }
        let isNew = try await keep(transaction, product: bought, for: userID)
        let ledger = try await CallAccounts(database: database, now: services.now).ledger(of: userID)
        let now = services.now()
        let message: String
        if let expires = transaction.expiresDate, expires <= now {
            message = "This subscription period has already ended; renew it in the App Store."
        } else if !isNew {
            message = "This purchase was already processed."
        } else {
            message = "Purchase processed successfully!"
        }
        return Outcome(message: message, product: bought, usage: ledger.usageStats(at: now), allowance: ledger.allowance(at: now), isNew: isNew)
    }

    /// The transaction the app sent: its JWS verified offline; or fetched from the App Store
    /// Server API and verified the same way, for a bare transaction id or an app receipt (the
    /// latest purchase of `product` in it: the receipt only names it, Apple's answer is what
    /// is trusted, as Apple's own App Store Server Library does).
    func verifiedTransaction(_ receipt: String, product: CallProduct) async throws -> SignedTransaction {
        guard let verifier = services.appStore else {
            throw ServiceError(.unavailable, code: "app_store_not_configured",
                            "Purchases cannot be verified on this server: set APP_STORE_BUNDLE_ID (and the App Store Server API key to look transactions up).")
        }
        let trimmed = receipt.trimmingCharacters(in: .whitespacesAndNewlines)
        do {
            if trimmed.split(separator: ".", omittingEmptySubsequences: false).count == 3 {
                return try await verifier.verifyTransaction(trimmed)
            }
            if !trimmed.isEmpty, trimmed.allSatisfy(\.isNumber) {
                return try await appStoreServer(for: "A transaction id").verifiedTransaction(id: trimmed, verifier: verifier)
            }
            if let appReceipt = try? AppReceipt(base64: trimmed) {
                guard let id = appReceipt.latestPurchase(of: product.rawValue)?.transactionID else {
                    throw ServiceError(.badRequest, code: "purchase_not_in_receipt",
                                    "The app receipt holds no purchase of \(product.rawValue): send it once the purchase has completed (or restore purchases in the app).")
                }
                return try await appStoreServer(for: "An app receipt").verifiedTransaction(id: id, verifier: verifier)
            }
        } catch let error as AppStoreError {
            throw Self.refusal(error)
        }
        throw ServiceError(.badRequest, code: "unsupported_receipt",
                        "receipt_data must be the StoreKit 2 transaction's jwsRepresentation, its transaction id, or the base64 app receipt; this is none of them.")
    }

    /// The App Store Server API, which `what` needs to be looked up.
    private func appStoreServer(for what: String) throws -> AppStoreServerClient {
        guard let server = services.appStoreServer else {
            throw ServiceError(.unavailable, code: "app_store_api_not_configured",
                            "\(what) can only be looked up with the App Store Server API key (APP_STORE_ISSUER_ID, APP_STORE_KEY_ID, APP_STORE_PRIVATE_KEY); send the transaction's jwsRepresentation instead.")
        }
        return server
    }

    static func refusal(_ error: AppStoreError) -> ServiceError {
        if error.httpStatus == 404 { return ServiceError(.notFound, code: "transaction_not_found", error.message) }
        if error.isClientError { return ServiceError(.badRequest, code: "purchase_not_verified", error.message) }
        return ServiceError(error.httpStatus == 503 ? .unavailable : .upstream, code: "app_store_unavailable", error.message)
    }

    /// Keeps the transaction once; false when it was already kept. Another account's
    /// transaction is refused.
    func keep(_ transaction: SignedTransaction, product: CallProduct, for userID: UUID) async throws -> Bool {
        guard let id = transaction.transactionId, let purchased = transaction.purchaseDate else {
            throw ServiceError(.badRequest, code: "purchase_not_verified", "The transaction has no id or purchase date.")
        }
        let repository = CallRepository(database: database)
        if let existing = try await repository.transaction(id: id) {
            guard existing.userID == userID else {
                throw ServiceError(.forbidden, code: "purchase_of_another_account", "This purchase is already used by another account.")
            }
            return false
        }
        let original = transaction.originalTransactionId ?? id
        if let owner = try await repository.owner(ofOriginalTransaction: original), owner != userID {
            throw ServiceError(.forbidden, code: "purchase_of_another_account", "This subscription belongs to another account.")
        }
        let record = StoreTransactionRow(
            userID: userID, transactionID: id, originalTransactionID: original, productID: product.rawValue,
            purchasedAt: purchased, expiresAt: product == .addonCalls ? purchased.addingTimeInterval(CallProduct.addonLifetime) : transaction.expiresDate,
            revokedAt: transaction.revocationDate, environment: transaction.environment?.rawValue ?? "Production", now: services.now())
        let isNew = try await repository.insertIfNew(record)
        if isNew { try await grantChatPremium(userID: userID) }
        return isNew
    }

    /// The chat stories' premium follows the calls subscription: granted until the latest
    /// subscription period in force ends, revoked when none is.
    func grantChatPremium(userID: UUID) async throws {
        let now = services.now()
        let subscriptions = try await CallRepository(database: database).transactions(of: userID)
            .compactMap(CallAccounts.purchase).filter { $0.product.plan != nil && $0.isActive(at: now) }
        let entitlements = EntitlementRepository(database: database)
        if let until = subscriptions.compactMap({ [$0.expiresAt, $0.revokedAt].compactMap { $0 }.min() }).max() {
            try await entitlements.grant(Entitlement.premium, to: userID, source: Entitlement.Source.appStore, expiresAt: until, now: now)
        } else {
            _ = try await entitlements.revoke(Entitlement.premium, from: userID, source: Entitlement.Source.appStore)
        }
    }

    // MARK: Subscription status

    public func subscriptionStatus(userID: UUID) async throws -> SubscriptionStatus {
        let records = try await CallRepository(database: database).transactions(of: userID)
        let now = services.now()
        let subscriptions = records.compactMap { record in CallAccounts.purchase(record).map { (record, $0) } }.filter { $0.1.product.plan != nil }
        guard let (record, latest) = subscriptions.max(by: { $0.1.purchasedAt < $1.1.purchasedAt }), let plan = latest.product.plan else {
            return SubscriptionStatus.none
        }
        let anchor = subscriptions.filter { $0.1.originalTransactionID == latest.originalTransactionID }.map(\.1.purchasedAt).min() ?? latest.purchasedAt
        let state = latest.revokedAt.map { $0 <= now } == true ? "revoked" : (latest.isActive(at: now) ? "active" : "expired")
        return SubscriptionStatus(
            subscriptionTier: plan.tierName, subscriptionStatus: state, isSubscribed: state == "active",
            subscriptionStartDate: CallDates.string(anchor), subscriptionEndDate: latest.expiresAt.map(CallDates.string),
            nextPaymentDate: state == "active" ? latest.expiresAt.map(CallDates.string) : nil,
            billingCycle: plan == .premium ? "monthly" : "weekly", appStoreTransactionID: record.transactionID,
            appStoreProductID: record.productID)
    }
}

/// `GET /mobile/subscription-status`.
public struct SubscriptionStatus: Codable, Equatable, Sendable {
    public var subscriptionTier: String?
    /// `active`, `expired`, `revoked`, or `none`.
    public var subscriptionStatus: String
    public var isSubscribed: Bool
    public var subscriptionStartDate: String?
    public var subscriptionEndDate: String?
    public var nextPaymentDate: String?
    public var billingCycle: String?
    public var appStoreTransactionID: String?
    public var appStoreProductID: String?

    static let none = SubscriptionStatus(
        subscriptionTier: nil, subscriptionStatus: "none", isSubscribed: false, subscriptionStartDate: nil, subscriptionEndDate: nil,
        nextPaymentDate: nil, billingCycle: nil, appStoreTransactionID: nil, appStoreProductID: nil)

    enum CodingKeys: String, CodingKey {
        case subscriptionTier = "subscription_tier", subscriptionStatus = "subscription_status", isSubscribed = "is_subscribed"
        case subscriptionStartDate = "subscription_start_date", subscriptionEndDate = "subscription_end_date"
        case nextPaymentDate = "next_payment_date", billingCycle = "billing_cycle"
        case appStoreTransactionID = "app_store_transaction_id", appStoreProductID = "app_store_product_id"
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(subscriptionTier, forKey: .subscriptionTier)
        try c.encode(subscriptionStatus, forKey: .subscriptionStatus)
        try c.encode(isSubscribed, forKey: .isSubscribed)
        try c.encode(subscriptionStartDate, forKey: .subscriptionStartDate)
        try c.encode(subscriptionEndDate, forKey: .subscriptionEndDate)
        try c.encode(nextPaymentDate, forKey: .nextPaymentDate)
        try c.encode(billingCycle, forKey: .billingCycle)
        try c.encode(appStoreTransactionID, forKey: .appStoreTransactionID)
        try c.encode(appStoreProductID, forKey: .appStoreProductID)
    }
}
