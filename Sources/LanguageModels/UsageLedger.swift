/// One request's usage, as recorded.
public struct UsageEntry: Sendable, Hashable, Codable {
    /// What the request was for ("speaker labelling", "character enrichment").
    public var step: String
    public var provider: Provider
    public var model: String
    public var usage: TokenUsage
    /// USD; nil when the model has no known price.
    public var cost: Double?
    /// Served from the response cache: nothing was sent and nothing charged.
    public var cached: Bool

    public init(step: String, provider: Provider, model: String, usage: TokenUsage, cost: Double?, cached: Bool) {
        self.step = step
        self.provider = provider
        self.model = model
        self.usage = usage
        self.cost = cost
        self.cached = cached
    }
}

/// Totals over a ledger's entries.
public struct UsageSummary: Sendable, Hashable, Codable {
    public var requests: Int
    public var cachedRequests: Int
    /// Tokens actually sent and received (cache hits excluded).
    public var usage: TokenUsage
    /// USD actually spent; nil if some request's model had no known price.
    public var cost: Double?
}

/// Every request's tokens and cost, for "this analysis cost $0.03" and for budgets.
public actor UsageLedger {
    public private(set) var entries: [UsageEntry] = []

    public init() {}

    public func record(_ entry: UsageEntry) {
        entries.append(entry)
    }

    public var summary: UsageSummary {
        let live = entries.filter { !$0.cached }
        let costs = live.map(\.cost)
        return UsageSummary(
            requests: live.count,
            cachedRequests: entries.count - live.count,
            usage: live.reduce(.zero) { $0 + $1.usage },
            cost: costs.contains(where: { $0 == nil }) ? nil : costs.reduce(0) { $0 + ($1 ?? 0) }
        )
    }
}
