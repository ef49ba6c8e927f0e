import Journeys
import ObjectStorage
import Problems
import Vapor

/// Turns every error into `{"error": {"code", "message"}}` with a fitting status, so clients
/// see one shape whatever failed. Unexpected errors are logged and reported without details.
struct JSONErrorMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        do {
            return try await next.respond(to: request)
        } catch {
            return response(for: error, request: request)
        }
    }

    private func response(for error: any Error, request: Request) -> Response {
        let (status, code, described, headers) = describe(error, request: request)
        let message = Self.bounded(described)
        let response = Response(status: status, headers: headers)
        do {
            var body = ErrorBody(error: .init(code: code, message: message, field: (error as? any Problem)?.field))
            // The mobile app reads FastAPI's `detail`: the 402's object, else the message.
            if Self.speaksDetail(request.url.path) {
                body.detail = (error as? any Problem)?.detail.map { .object($0) } ?? .message(message)
            }
            try response.content.encode(body, as: .json)
        } catch {
            response.body = .init(string: #"{"error":{"code":"internal","message":"The error could not be encoded."}}"#)
        }
        return response
    }

    private func describe(_ error: any Error, request: Request) -> (HTTPResponseStatus, String, String, HTTPHeaders) {
        switch error {
        case let error as APIError:
            return (error.status, error.code, error.message, error.headers)
        case let error as JourneyError:
            // A failing service's details go to the log; the user reads what to do.
            return (APIError.status(for: error.problemKind), error.code, Self.userMessage(for: error, logger: request.logger), [:])
        case let error as any Problem:
            let headers: HTTPHeaders = error.retryAfterSeconds.map { ["Retry-After": String($0)] } ?? [:]
            return (APIError.status(for: error.problemKind), error.code, error.message, headers)
        case let error as DecodingError:
            return (.badRequest, "invalid_body", DecodingErrorDescription.describe(error), [:])
        case let error as ArtifactError:
            // The operator reads where and why in the log; the user, that it is kept and when to retry.
            request.logger.error("The artifact store failed", metadata: ["error": "\(error)"])
            if case .notFound = error { return (.notFound, "file_missing", "The file is gone from the server. Make it again.", [:]) }
            return (.serviceUnavailable, "store_unavailable", "Your files are kept safe, but the server's file store did not answer. Try again in a minute.",
                    ["Retry-After": "30"])
        case let error as any AbortError:
            let code = Self.code(for: error.status)
            let message = error.status == .payloadTooLarge
                ? "The request body is too large."
                : error.reason
            return (error.status, code, message, error.headers)
        default:
            request.logger.report(error: error)
            return (.internalServerError, "internal", "Something went wrong on the server; it has been logged. Try again.", [:])
        }
    }

    /// A journey service that is down or missing is the operator's to fix: its message (which
    /// names the setting to change) goes to the server log, and the user is told what it means
    /// for them, with no environment variable in it.
    static func userMessage(for error: JourneyError, logger: Logger) -> String {
        switch error.kind {
        case .serviceUnavailable:
            logger.error("journey service unavailable: \(error.message)")
            return "Places and routes cannot be looked up just now: the map service this server uses is not answering. Try again in a few minutes."
        case .serviceTimeout:
            logger.error("journey service timed out: \(error.message)")
            return "Places and routes cannot be looked up just now: the map service this server uses is too slow to answer. Try again in a few minutes."
        case .gazetteerMissing:
            logger.error("gazetteer missing: \(error.message)")
            return "This server cannot look places up: its list of places is not installed. Its operator has been told (in the server log)."
        default:
            return error.message
        }
    }

    /// Messages may quote what was sent ("“…” is not a phone number"); a megabyte sent is not a
    /// megabyte (or two, with `detail`) answered. Cut by Unicode scalars: one character can be
    /// a letter and 300,000 accents.
    static let maxMessageScalars = 1_000

    static func bounded(_ message: String) -> String {
        guard message.utf8.count > maxMessageScalars else { return message }
        let scalars = message.unicodeScalars
        guard scalars.count > maxMessageScalars else { return message }
        return String(String.UnicodeScalarView(scalars.prefix(maxMessageScalars - 100))) + "… (shortened)"
    }

    /// The calls product's paths, whose client decodes `detail`.
    static func speaksDetail(_ path: String) -> Bool {
        path.hasPrefix("/mobile/") || path == "/call-end-webhook" || path.hasPrefix("/api/calls/") || path.hasPrefix("/test/")
    }

    static func code(for status: HTTPResponseStatus) -> String {
        switch status {
        case .badRequest: "bad_request"
        case .unauthorized: "unauthorized"
        case .forbidden: "forbidden"
        case .notFound: "not_found"
        case .methodNotAllowed: "method_not_allowed"
        case .conflict: "conflict"
        case .payloadTooLarge: "payload_too_large"
        case .unsupportedMediaType: "unsupported_media_type"
        case .unprocessableEntity: "unprocessable"
        case .tooManyRequests: "rate_limited"
        default: status.code >= 500 ? "internal" : "error"
        }
    }
}

/// Plain-language messages for JSON decoding failures, naming the field at fault.
enum DecodingErrorDescription {
    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            return "Field '\(path(context.codingPath + [key]))' is required."
        case .typeMismatch(let type, let context):
            return "Field '\(path(context.codingPath))' must be \(name(of: type))."
        case .valueNotFound(let type, let context):
            return "Field '\(path(context.codingPath))' must be \(name(of: type)), not null."
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "The body is not valid JSON." }
            return "Field '\(path(context.codingPath))' is invalid: \(context.debugDescription)"
        @unknown default:
            return "The body could not be read."
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.isEmpty ? "(body)" : keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Double.Type, is Float.Type: "a number"
        case is [Any].Type: "an array"
        case is [String: Any].Type: "an object"
        default: "of type \(type)"
        }
    }
}
