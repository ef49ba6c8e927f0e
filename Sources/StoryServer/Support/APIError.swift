import CallWorkflows
import Calls
import Problems
import Vapor

/// An error the API reports as `{"error": {"code", "message"}}` with `status`.
/// `code` is stable for clients to branch on; `message` is for people.
struct APIError: Error, AbortError {
    var status: HTTPResponseStatus
    var code: String
    var message: String
    var headers: HTTPHeaders = [:]

    var reason: String { message }

    static func badRequest(_ message: String, code: String = "bad_request") -> APIError {
        APIError(status: .badRequest, code: code, message: message)
    }

    static func notFound(_ what: String) -> APIError {
        APIError(status: .notFound, code: "not_found", message: "No \(what) with this id.")
    }

    static func unauthorized(_ message: String, code: String = "unauthorized") -> APIError {
        APIError(status: .unauthorized, code: code, message: message, headers: ["WWW-Authenticate": "Bearer"])
    }

    /// 405 with `Allow`: the address is right, the method is not (RFC 9110 §15.5.6).
    static func methodNotAllowed(path: String, method: HTTPMethod, allowed: [String]) -> APIError {
        let list = allowed.joined(separator: ", ")
        return APIError(status: .methodNotAllowed, code: "method_not_allowed",
                        message: "\(path) does not take \(method.rawValue); it takes \(list).",
                        headers: ["Allow": list])
    }

    static func unsupportedMediaType(_ message: String) -> APIError {
        APIError(status: .unsupportedMediaType, code: "unsupported_media_type", message: message)
    }
}

extension APIError {
    /// The one place a use case's refusal (any product's `Problem`) becomes an HTTP status.
    static func status(for kind: ProblemKind) -> HTTPResponseStatus {
        switch kind {
        case .badRequest: .badRequest
        case .invalid: .unprocessableEntity
        case .paymentRequired: .paymentRequired
        case .forbidden: .forbidden
        case .notFound: .notFound
        case .conflict: .conflict
        case .staleVersion: .preconditionFailed
        case .tooLarge: .payloadTooLarge
        case .unsupportedMedia: .unsupportedMediaType
        case .limitReached: .tooManyRequests
        case .upstream: .badGateway
        case .unavailable: .serviceUnavailable
        case .timeout: .gatewayTimeout
        }
    }
}

/// The JSON error body. On the calls product's paths it also carries FastAPI's `detail`, which
/// the mobile app decodes: a string, or the 402's object.
struct ErrorBody: Content {
    struct Detail: Content {
        var code: String
        var message: String
        /// The request field at fault, when the refusal names one.
        var field: String?
    }

    enum MobileDetail: Content {
        case message(String)
        /// The refusal's own detail (`Problem.detail`): the 402's object.
        case object(any Encodable & Sendable)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let message = try? container.decode(String.self) { self = .message(message) } else { self = .object(try container.decode(PaymentRequired.Detail.self)) }
        }

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .message(let message):
                var container = encoder.singleValueContainer()
                try container.encode(message)
            case .object(let detail): try detail.encode(to: encoder)
            }
        }
    }

    var error: Detail
    var detail: MobileDetail?
}
