import Journeys
import VendorHTTP

/// A routing or geocoding server StoryVoice was configured with: what to call it in messages,
/// where it is, and the variable that set it.
public struct JourneyService: Sendable, Hashable {
    /// "the driving router", "the geocoder".
    public var name: String
    public var baseURL: String
    public var variable: String

    public init(name: String, baseURL: String, variable: String) {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.name = name
        self.baseURL = base
        self.variable = variable
    }

    /// The transport's failure, after its retries, as a ``JourneyError`` that says what to do.
    public func error(for failure: VendorFailure) -> JourneyError {
        let at = "\(name) at \(baseURL)"
        let fallback = "or unset \(variable) to work offline"
        let detail = failure.detail.map { ": \($0)" } ?? ""
        switch failure.kind {
        case .unreachable:
            return JourneyError(.serviceUnavailable, "Could not reach \(at)\(failure.detail.map { " (\($0))" } ?? "") — check that it is running and that \(variable) is right, \(fallback).")
        case .timeout(let seconds):
            return JourneyError(.serviceTimeout, "\(at.capitalizedFirst) did not answer within \(Int(seconds.rounded(.up))) s, on every try — it may be overloaded: try again later, \(fallback).")
        case .providerError(let status):
            return JourneyError(.serviceUnavailable, "\(at.capitalizedFirst) failed (HTTP \(status)) on every try — try again later, \(fallback).")
        case .rateLimited:
            return JourneyError(.serviceUnavailable, "\(at.capitalizedFirst) kept refusing requests as too many (HTTP 429) — wait a minute and try again, \(fallback).")
        case .requestRejected(let status), .noAccess(let status):
            return JourneyError(.invalidRequest, "\(at.capitalizedFirst) refused the request (HTTP \(status))\(detail) — check that \(variable) points at the right server.")
        case .unparseableAnswer:
            return JourneyError(.serviceUnavailable, "\(at.capitalizedFirst) sent an answer that could not be read\(detail) — check that \(variable) points at the right kind of server.")
        case .missingKey, .invalidKey, .invalidConfiguration:
            return JourneyError(.invalidRequest, "The settings for \(name) cannot be used\(detail) — check \(variable).")
        }
    }

    /// An answer that arrived but is not what the wire format promises.
    public func unreadable(_ what: String) -> JourneyError {
        error(for: VendorFailure(.unparseableAnswer, detail: what))
    }
}

extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
