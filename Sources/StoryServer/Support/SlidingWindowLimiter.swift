import Foundation

/// Counts attempts per key in a sliding window: logins per email and address, and every API
/// request per address (`RateLimitMiddleware`).
/// In memory: each server process limits on its own, which is enough to stop password guessing
/// against one process; a fleet behind a balancer would move this to a shared store.
actor SlidingWindowLimiter {
    private let limit: Int
    private let window: TimeInterval
    private let now: @Sendable () -> Date
    private var attempts: [String: [Date]] = [:]

    init(limit: Int, window: TimeInterval, now: @escaping @Sendable () -> Date = { Date() }) {
        self.limit = limit
        self.window = window
        self.now = now
    }

    /// Records an attempt. Returns nil when allowed, or the seconds to wait when over the limit.
    func attempt(_ key: String) -> Int? {
        let at = now()
        var recent = attempts[key, default: []].filter { at.timeIntervalSince($0) < window }
        if recent.count >= limit {
            attempts[key] = recent
            let oldest = recent.min() ?? at
            return max(1, Int((window - at.timeIntervalSince(oldest)).rounded(.up)))
        }
        recent.append(at)
        attempts[key] = recent
        if attempts.count > 10_000 { prune(at: at) }
        return nil
    }

    /// Forgets a key's attempts after a successful login.
    func reset(_ key: String) {
        attempts[key] = nil
    }

    private func prune(at: Date) {
        attempts = attempts.filter { _, dates in dates.contains { at.timeIntervalSince($0) < window } }
    }
}
