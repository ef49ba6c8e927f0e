import Foundation
import Vapor

extension Response {
    /// A JSON response with ISO 8601 dates and sorted keys.
    static func json<T: Encodable>(_ value: T, status: HTTPResponseStatus = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        let response = Response(status: status)
        try response.content.encode(value, using: encoder)
        return response
    }
}
