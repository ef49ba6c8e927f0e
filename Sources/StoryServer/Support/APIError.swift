import StoryWorkflows
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
    /// The one place a use case's refusal becomes an HTTP status.
    static func status(for kind: StoryError.Kind) -> HTTPResponseStatus {
        switch kind {
        case .notFound: .notFound
        case .invalid: .unprocessableEntity
        case .conflict: .conflict
        case .tooLarge: .payloadTooLarge
        case .unsupportedMedia: .unsupportedMediaType
        case .unavailable: .serviceUnavailable
        case .staleVersion: .preconditionFailed
        }
    }
}

/// The JSON error body.
struct ErrorBody: Content {
    struct Detail: Content {
        var code: String
        var message: String
    }
    var error: Detail
}
