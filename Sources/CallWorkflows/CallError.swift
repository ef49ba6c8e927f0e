import Calls
import Problems

/// Why a calls use case refused or failed, in words for the user. StoryServer maps the kind to
/// an HTTP status in one place; the mobile app reads `detail`.
public struct CallError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// 400: the request itself is wrong (a number, a scenario, a receipt).
        case invalid
        /// 402: nothing left to call with; `payment` says what to buy.
        case paymentRequired
        /// 403: the thing belongs to someone else (a purchase bought by another account).
        case forbidden
        case notFound
        /// 409: not in a state for this (a schedule already placed).
        case conflict
        /// 502: Twilio or Apple refused or failed.
        case upstream
        /// 503: a part the server lacks (Twilio or the App Store is not configured).
        case unavailable
    }

    public var kind: Kind
    public var code: String
    public var message: String
    /// The spec's 402 body.
    public var payment: PaymentRequired?

    public init(_ kind: Kind, code: String, _ message: String, payment: PaymentRequired? = nil) {
        self.kind = kind
        self.code = code
        self.message = message
        self.payment = payment
    }

    public var description: String { message }

    static func invalid(_ error: CallsError) -> CallError {
        switch error {
        case .invalidPhoneNumber(let message): CallError(.invalid, code: "invalid_phone_number", message)
        case .invalidScenario(let message): CallError(.invalid, code: "invalid_scenario", message)
        }
    }

    static func unknownScenario(_ id: String) -> CallError {
        CallError(.invalid, code: "unknown_scenario", "There is no scenario \"\(id)\"; GET /mobile/scenarios lists them.")
    }

    static let twilioNotConfigured = CallError(
        .unavailable, code: "telephony_not_configured",
        "Phone calls are not available on this server yet. Until they are, try the scenario in the browser from the web app's Calls page. Nothing was counted.")
}

extension CallError: Problem {
    /// The calls API answers a malformed or impossible request 400 (its FastAPI contract).
    public var problemKind: ProblemKind {
        switch kind {
        case .invalid: .badRequest
        case .paymentRequired: .paymentRequired
        case .forbidden: .forbidden
        case .notFound: .notFound
        case .conflict: .conflict
        case .upstream: .upstream
        case .unavailable: .unavailable
        }
    }
}
