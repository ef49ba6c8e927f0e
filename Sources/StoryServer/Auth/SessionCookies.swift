import Vapor

/// The web app's session: the same tokens as the API's, kept in HttpOnly cookies that scripts
/// cannot read. SameSite=Lax keeps them off cross-site POSTs, which is what protects the
/// cookie-authenticated API from cross-site request forgery (GET routes change nothing).
enum SessionCookies {
    static let access = "sv_access"
    static let refresh = "sv_refresh"

    /// Whether the client asked for a cookie session (`?cookie=1`).
    static func requested(by request: Request) -> Bool {
        (try? request.query.get(String.self, at: "cookie")).map { $0 == "1" || $0 == "true" } ?? false
    }

    static func set(on response: Response, access: String, refresh: String, config: ServerConfig) {
        response.cookies[Self.access] = cookie(access, path: "/", maxAge: Int(config.accessTokenLifetime), config: config)
        // Only the auth routes ever need the refresh token.
        response.cookies[Self.refresh] = cookie(refresh, path: "/auth", maxAge: Int(config.refreshTokenLifetime), config: config)
    }

    static func clear(on response: Response, config: ServerConfig) {
        response.cookies[Self.access] = cookie("", path: "/", maxAge: 0, config: config)
        response.cookies[Self.refresh] = cookie("", path: "/auth", maxAge: 0, config: config)
    }

    private static func cookie(_ value: String, path: String, maxAge: Int, config: ServerConfig) -> HTTPCookies.Value {
        HTTPCookies.Value(
            string: value, expires: nil, maxAge: maxAge, domain: nil, path: path,
            isSecure: config.secureCookies, isHTTPOnly: true, sameSite: .lax
        )
    }
}
