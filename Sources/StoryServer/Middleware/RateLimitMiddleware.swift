import Vapor

/// Limits on requests per client address and minute, answered with 429 and `Retry-After`.
/// Every endpoint falls under `perMinute`; the ones that cost money or ring a phone
/// (`expensivePaths`) under the tighter `expensivePerMinute` as well. 0 turns a limit off.
public struct RateLimits: Sendable, Equatable {
    public var perMinute: Int
    public var expensivePerMinute: Int

    public init(perMinute: Int = 600, expensivePerMinute: Int = 20) {
        self.perMinute = perMinute
        self.expensivePerMinute = expensivePerMinute
    }

    /// `STORYVOICE_RATE_LIMIT_PER_MINUTE`, `STORYVOICE_CALL_RATE_LIMIT_PER_MINUTE`.
    static func fromEnvironment(_ environment: [String: String]) -> RateLimits {
        var limits = RateLimits()
        if let value = environment["STORYVOICE_RATE_LIMIT_PER_MINUTE"].flatMap(Int.init), value >= 0 { limits.perMinute = value }
        if let value = environment["STORYVOICE_CALL_RATE_LIMIT_PER_MINUTE"].flatMap(Int.init), value >= 0 { limits.expensivePerMinute = value }
        return limits
    }

    static let expensivePaths: Set<String> = ["/mobile/make-call", "/mobile/schedule-call", "/api/calls/browser", "/test/test-call"]
}

struct RateLimitMiddleware: AsyncMiddleware {
    let limits: RateLimits
    let trustForwardedFor: Bool
    private let general: SlidingWindowLimiter
    private let expensive: SlidingWindowLimiter

    init(limits: RateLimits, trustForwardedFor: Bool) {
        self.limits = limits
        self.trustForwardedFor = trustForwardedFor
        general = SlidingWindowLimiter(limit: max(1, limits.perMinute), window: 60)
        expensive = SlidingWindowLimiter(limit: max(1, limits.expensivePerMinute), window: 60)
    }

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        if request.storage[RateLimitBypass.self] == true { return try await next.respond(to: request) }
        let address = request.clientAddress(trustForwardedFor: trustForwardedFor)
        if limits.perMinute > 0, let wait = await general.attempt(address) {
            throw Self.refusal(wait: wait, what: "requests")
        }
        if limits.expensivePerMinute > 0, RateLimits.expensivePaths.contains(request.url.path), let wait = await expensive.attempt(address) {
            throw Self.refusal(wait: wait, what: "calls")
        }
        return try await next.respond(to: request)
    }

    static func refusal(wait: Int, what: String) -> APIError {
        APIError(status: .tooManyRequests, code: "rate_limited",
                 message: "Too many \(what) from your address; try again in \(wait) s.", headers: ["Retry-After": String(wait)])
    }
}

extension Request {
    /// The client's address for rate limiting: the first `X-Forwarded-For` hop behind a proxy
    /// that sets it (`trustForwardedFor`), else the peer.
    func clientAddress(trustForwardedFor: Bool) -> String {
        if trustForwardedFor, let forwarded = headers.first(name: "X-Forwarded-For") {
            return forwarded.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
        }
        return remoteAddress?.ipAddress ?? "unknown"
    }
}
