import Vapor

/// Names the media type of web assets whose extension Vapor's `FileMiddleware` does not know,
/// which it would otherwise serve with no `Content-Type` at all. `/openapi.yaml` is such a file:
/// `FileMiddleware` answers it from `Public/` before any route is reached.
struct StaticMediaTypeMiddleware: AsyncMiddleware {
    static let types: [String: HTTPMediaType] = [
        "yaml": HTTPMediaType(type: "application", subType: "yaml"),
        "yml": HTTPMediaType(type: "application", subType: "yaml"),
    ]

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let response = try await next.respond(to: request)
        if response.headers.contentType == nil, response.status == .ok || response.status == .notModified,
           let type = request.url.path.split(separator: ".").last.flatMap({ Self.types[String($0).lowercased()] }) {
            response.headers.contentType = type
        }
        return response
    }
}
