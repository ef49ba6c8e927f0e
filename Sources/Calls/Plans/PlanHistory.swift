import Foundation

/// One App Store purchase as the ledger sees it: a subscription period (a first purchase or a
/// renewal) or an addon pack. Refunds and revocations end it at `revokedAt`.
public struct Purchase: Hashable, Sendable, Codable {
    public var transactionID: String
    /// The subscription's first transaction: every renewal shares it, and the plan's cycles
    /// count from that purchase.
    public var originalTransactionID: String
    public var product: CallProduct
    public var purchasedAt: Date
    /// A subscription period's end; an addon pack's is `purchasedAt` + 30 days.
    public var expiresAt: Date?
    public var revokedAt: Date?

    public init(
        transactionID: String, originalTransactionID: String? = nil, product: CallProduct,
        purchasedAt: Date, expiresAt: Date? = nil, revokedAt: Date? = nil
    ) {
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID ?? transactionID
        self.product = product
        self.purchasedAt = purchasedAt
        self.expiresAt = product == .addonCalls ? purchasedAt.addingTimeInterval(CallProduct.addonLifetime) : expiresAt
        self.revokedAt = revokedAt
    }

    /// Whether it gives anything at `time`: bought, not yet expired, not refunded.
    public func isActive(at time: Date) -> Bool {
        guard purchasedAt <= time else { return false }
        if let expiresAt, time >= expiresAt { return false }
        if let revokedAt, time >= revokedAt { return false }
        return true
    }
}

/// The subscription in force at a time: its plan, and where its cycles start.
public struct ActiveSubscription: Hashable, Sendable {
    public var plan: CallPlan
    /// The chain's first purchase: cycles are `anchor + k·cycle`.
    public var anchor: Date
    public var purchase: Purchase

    /// The start of the cycle holding `time`: (time − anchor) div cycle, computed, never reset.
    public func cycleStart(at time: Date) -> Date {
        CallLedger.cycleStart(anchor: anchor, period: plan.cycle, at: time)
    }
}

extension Array where Element == Purchase {
    /// The best subscription in force at `time` (premium over basic).
    func activeSubscription(at time: Date) -> ActiveSubscription? {
        let active = filter { $0.product.plan != nil && $0.isActive(at: time) }
        guard let best = active.max(by: { ($0.product.plan?.callsPerCycle ?? 0) < ($1.product.plan?.callsPerCycle ?? 0) }),
              let plan = best.product.plan else { return nil }
        let chain = filter { $0.originalTransactionID == best.originalTransactionID && $0.product == best.product }
        let anchor = chain.map(\.purchasedAt).min() ?? best.purchasedAt
        return ActiveSubscription(plan: plan, anchor: anchor, purchase: best)
    }

    /// The addon packs usable at `time`, the first to expire first.
    func activeAddons(at time: Date) -> [Purchase] {
        filter { $0.product == .addonCalls && $0.isActive(at: time) }
            .sorted { ($0.expiresAt ?? .distantFuture, $0.transactionID) < ($1.expiresAt ?? .distantFuture, $1.transactionID) }
    }
}
