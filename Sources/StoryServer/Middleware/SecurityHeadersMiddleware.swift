import Vapor

/// Headers that keep the web app from being framed, sniffed or made to run another site's
/// scripts, on every reply (errors included). The app loads only its own modules and styles,
/// plays lines from `blob:` URLs and talks only to this server, so the policy allows just that.
struct SecurityHeadersMiddleware: AsyncMiddleware {
    static let contentSecurityPolicy = [
        "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data: blob:",
        "media-src 'self' blob:", "connect-src 'self'", "font-src 'self'", "object-src 'none'",
        "base-uri 'none'", "frame-ancestors 'none'", "form-action 'self'",
    ].joined(separator: "; ")

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let response = try await next.respond(to: request)
        response.headers.replaceOrAdd(name: "Content-Security-Policy", value: Self.contentSecurityPolicy)
        response.headers.replaceOrAdd(name: "X-Frame-Options", value: "DENY")
        response.headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
        response.headers.replaceOrAdd(name: "Referrer-Policy", value: "same-origin")
        return response
    }
}
