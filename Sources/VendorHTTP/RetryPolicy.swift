import Foundation

/// How often and how long to wait before sending a failed request again.
///
/// Only transient failures are retried: 429, 5xx and timeouts. The wait doubles from
/// `baseDelay` up to `maxDelay`, with jitter so that concurrent clients do not retry in step;
/// a server's `Retry-After` replaces the computed wait when present (up to `maxRetryAfter`).
public struct RetryPolicy: Sendable, Hashable {
    /// Total attempts, the first included.
    public var maxAttempts: Int
    public var baseDelay: Double
    public var maxDelay: Double
    /// A `Retry-After` longer than this is not waited for: the request fails as rate-limited.
    public var maxRetryAfter: Double

    public init(maxAttempts: Int = 4, baseDelay: Double = 1, maxDelay: Double = 20, maxRetryAfter: Double = 60) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
    }

    public static let standard = RetryPolicy()
    public static let none = RetryPolicy(maxAttempts: 1)

    /// The wait after failed attempt `attempt` (1-based): exponential with "equal jitter"
    /// (half fixed, half random), so the wait never collapses to zero.
    public func backoff(afterAttempt attempt: Int) -> Double {
        let ceiling = min(maxDelay, baseDelay * pow(2, Double(max(0, attempt - 1))))
        return ceiling / 2 + Double.random(in: 0...(ceiling / 2))
    }

    /// Seconds to wait from a `Retry-After` value: delta-seconds or an HTTP date.
    public static func retryAfterSeconds(_ value: String, now: Date = Date()) -> Double? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(trimmed), seconds >= 0 { return seconds }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        // RFC 9110 IMF-fixdate, then the obsolete RFC 850 and asctime forms it says to accept.
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: trimmed) {
                return max(0, date.timeIntervalSince(now))
            }
        }
        return nil
    }
}
