import Foundation

/// A model behind the response cache and the usage ledger: what the analysis steps talk to.
///
/// A cache hit sends nothing and is recorded as free; a fresh answer is stored as received and
/// its usage priced and recorded under the step's name. A caller that finds an answer unusable
/// asks again with `bypassCache`, which replaces the stored answer.
public struct MeteredModel: Sendable {
    public let base: any LanguageModel
    public let cache: ResponseCache?
    public let ledger: UsageLedger?
    public let prices: PriceTable

    public init(_ base: any LanguageModel, cache: ResponseCache? = nil, ledger: UsageLedger? = nil, prices: PriceTable = .builtIn) {
        self.base = base
        self.cache = cache
        self.ledger = ledger
        self.prices = prices
    }

    public var provider: Provider { base.provider }
    public var model: String { base.model }

    /// Answers `request`, from the cache when it can.
    ///
    /// - Parameter bypassCache: ask again even if an answer is cached (used after a cached
    ///   answer turned out unusable), and replace it.
    public func complete(_ request: CompletionRequest, step: String, bypassCache: Bool = false) async throws -> CompletionResponse {
        let key = ResponseCache.key(for: request, provider: base.provider, model: base.model)
        if !bypassCache, let cache, var hit = cache.load(key) {
            hit.cached = true
            await ledger?.record(UsageEntry(step: step, provider: hit.provider, model: hit.model, usage: hit.usage, cost: 0, cached: true))
            return hit
        }
        let response = try await base.complete(request)
        try? cache?.store(response, for: key)
        let cost = prices.cost(of: response.usage, provider: base.provider, model: base.model)
        await ledger?.record(UsageEntry(step: step, provider: response.provider, model: response.model, usage: response.usage, cost: cost, cached: false))
        return response
    }
}
