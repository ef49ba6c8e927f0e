import Vapor

extension Request {
    /// Decodes a JSON body, answering 415 for another content type and 400 (naming the field)
    /// for malformed JSON or wrong types.
    func decodeJSON<T: Decodable>(_ type: T.Type = T.self, decoder: JSONDecoder = JSONDecoder()) throws -> T {
        guard let contentType = headers.contentType, contentType.type == "application", contentType.subType == "json" else {
            throw APIError.unsupportedMediaType("Send this request as JSON (Content-Type: application/json).")
        }
        guard let body = body.data, body.readableBytes > 0 else {
            throw APIError.badRequest("The request body is empty; send a JSON object.", code: "invalid_body")
        }
        do {
            return try decoder.decode(T.self, from: body)
        } catch let error as DecodingError {
            throw APIError.badRequest(DecodingErrorDescription.describe(error), code: "invalid_body")
        }
    }

    /// A `true`/`false` query parameter; `fallback` when absent, 400 for anything else.
    func booleanQuery(_ name: String, default fallback: Bool) throws -> Bool {
        guard let raw = query[String.self, at: name] else { return fallback }
        switch raw {
        case "true": return true
        case "false": return false
        default: throw APIError.badRequest("Query parameter '\(name)' must be true or false.", code: "invalid_query")
        }
    }

    /// The id in the path parameter `name`; a malformed id is simply not found.
    func uuidParameter(_ name: String, what: String) throws -> UUID {
        guard let raw = parameters.get(name), let id = UUID(uuidString: raw) else {
            throw APIError.notFound(what)
        }
        return id
    }
}
