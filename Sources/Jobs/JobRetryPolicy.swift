import Foundation

/// How often and how soon a failed job runs again: exponential backoff from `baseDelay`,
/// doubling per attempt, capped at `maxDelay`, for at most `maxAttempts` runs in all.
public struct JobRetryPolicy: Sendable, Hashable {
    public var maxAttempts: Int
    public var baseDelay: TimeInterval
    public var maxDelay: TimeInterval

    public init(maxAttempts: Int = 5, baseDelay: TimeInterval = 2, maxDelay: TimeInterval = 300) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    public static let standard = JobRetryPolicy()

    /// The wait before the run that follows failed attempt number `attempt` (1-based).
    public func delay(afterAttempt attempt: Int) -> TimeInterval {
        let exponent = Double(max(0, attempt - 1))
        return min(maxDelay, baseDelay * pow(2, exponent))
    }
}
