import Vapor

/// Refuses bodies over `maxBytes` with 413 before a handler reads them.
///
/// Vapor's own limit applies only to streamed bodies; small requests arrive already collected
/// and skip it, so this checks the declared length and the collected size too.
struct BodyLimitMiddleware: AsyncMiddleware {
    let maxBytes: Int
    let what: String

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let declared = request.headers.first(name: .contentLength).flatMap(Int.init)
        let collected = request.body.data?.readableBytes
        if let size = declared ?? collected, size > maxBytes {
            throw tooLarge()
        }
        if let collected, collected > maxBytes { throw tooLarge() }
        return try await next.respond(to: request)
    }

    private func tooLarge() -> APIError {
        APIError(
            status: .payloadTooLarge, code: "payload_too_large",
            message: "\(what) is larger than the \(ByteCountFormatter.string(fromByteCount: Int64(maxBytes), countStyle: .binary)) this server accepts."
        )
    }
}
