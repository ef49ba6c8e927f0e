/// Why a request failed after the transport's retries: the kind and what the vendor or the
/// network said, scrubbed of the key. Callers wrap it in their own error (`LanguageModelError`
/// for models, `CloudSpeechError` for speech, and so on for each vendor area).
public struct VendorFailure: Error, Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// No key was configured for a provider that needs one.
        case missingKey
        /// 401: the key was rejected.
        case invalidKey
        /// 403 or 404: the key works but cannot use this model (or the model does not exist).
        case noAccess(status: Int)
        /// 429 after every retry.
        case rateLimited(retryAfterSeconds: Double?)
        /// 5xx after every retry.
        case providerError(status: Int)
        /// Another 4xx: the request itself was refused.
        case requestRejected(status: Int)
        /// The server could not be reached (no network, connection refused, DNS).
        case unreachable
        /// No answer within the timeout, after every retry.
        case timeout(seconds: Double)
        /// An answer arrived but was not what the wire format promises (or was cut off).
        case unparseableAnswer
        /// The base URL or model spec cannot be used.
        case invalidConfiguration
    }

    public var kind: Kind
    public var detail: String?

    public init(_ kind: Kind, detail: String? = nil) {
        self.kind = kind
        self.detail = detail
    }

    /// The explanation for `kind` at a service (a model provider or a speech vendor) named `name`,
    /// whose key is set in Settings or `keyVariable` (nil where only Settings can hold it: the
    /// server's users); shared by every client of a vendor's API.
    public static func explain(_ kind: Kind, service name: String, keyVariable: String?, model: String, detail: String?) -> String {
        let keyHint = "update it in Settings" + (keyVariable.map { " or \($0)" } ?? "")
        switch kind {
        case .missingKey:
            return "no \(name) API key is set — add one in Settings" + (keyVariable.map { " or set \($0)" } ?? "")
        case .invalidKey:
            return "the \(name) key was rejected — \(keyHint)"
        case .noAccess(let status):
            return status == 404
                ? "\(name) has no model “\(model)” for this key — check the model name, or choose another model"
                : "this \(name) key has no access to “\(model)” — enable the model for your account, or choose another model"
        case .rateLimited(let seconds):
            let wait = seconds.map { " (the provider asked to wait \(Int($0.rounded(.up))) s)" } ?? ""
            return "\(name) kept refusing requests as rate-limited\(wait) — wait a minute and run it again (finished parts are cached), or lower the concurrency"
        case .providerError(let status):
            return "\(name) had a server error (HTTP \(status)) on every retry — try again later (finished parts are cached)"
        case .requestRejected(let status):
            return "\(name) refused the request (HTTP \(status))\(detail.map { ": \($0)" } ?? "") — check the model name and settings"
        case .unreachable:
            return "could not reach \(name)\(detail.map { " (\($0))" } ?? "") — check the network connection and the base URL"
        case .timeout(let seconds):
            return "\(name) did not answer within \(Int(seconds.rounded(.up))) s, on every retry — check the network, or raise the timeout"
        case .unparseableAnswer:
            return "\(name) sent an answer that could not be read\(detail.map { " (\($0))" } ?? "") — run it again; if it persists, choose another model"
        case .invalidConfiguration:
            return "the \(name) settings cannot be used\(detail.map { ": \($0)" } ?? "")"
        }
    }
}

extension VendorFailure.Kind {
    /// Whether waiting and sending the same request again may succeed.
    /// An unreachable server (DNS failure, no network, refused connection) is not: the user is
    /// told at once and can try again, instead of waiting through minutes of backoff.
    public var isTransient: Bool {
        switch self {
        case .rateLimited, .providerError, .timeout: true
        default: false
        }
    }
}
