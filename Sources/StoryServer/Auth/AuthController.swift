import CallWorkflows
import Foundation
import JWT
import Persistence
import Vapor

/// `/auth/*`: register, log in, refresh, log out.
///
/// Register and login answer `{access_token, refresh_token, token_type: "bearer", expires_in}`,
/// the shape the iPhone client expects. With `?cookie=1` they set the web app's HttpOnly
/// cookies instead and answer `{token_type: "cookie", expires_in}`, keeping tokens away from
/// page scripts.
struct AuthController: Sendable {
    let config: ServerConfig
    let limiter: SlidingWindowLimiter
    /// Every password-hashing request (login, registration) from one client address, whatever
    /// the email: a spray of new emails from one address is refused before it costs a hash.
    let addressLimiter: SlidingWindowLimiter
    /// A hash to verify against when the email is unknown, so both cases take equally long.
    let decoyHash: String

    init(config: ServerConfig) throws {
        self.config = config
        self.limiter = SlidingWindowLimiter(limit: config.loginAttemptsPerWindow, window: config.loginRateWindow)
        self.addressLimiter = SlidingWindowLimiter(limit: config.hashingRequestsPerAddress, window: config.loginRateWindow)
        self.decoyHash = try Bcrypt.hash("storyvoice-decoy-password", cost: config.bcryptCost)
    }

    func register(routes: any RoutesBuilder) {
        let auth = routes.grouped("auth")
        auth.post("register", use: register)
        auth.post("login", use: login)
        auth.post("refresh", use: refresh)
        auth.post("logout", use: logout)
    }

    struct RegisterRequest: Decodable {
        var email: String
        var password: String
    }

    struct LoginForm {
        var username: String
        var password: String
    }

    struct RefreshRequest: Decodable {
        var refresh_token: String
    }

    struct TokenResponse: Content {
        var access_token: String?
        var refresh_token: String?
        var token_type: String
        var expires_in: Int
    }

    // MARK: Handlers

    @Sendable
    func register(_ request: Request) async throws -> Response {
        let body = try request.decodeJSON(RegisterRequest.self)
        // An address has at most 254 characters: a far longer one is refused (as "") unread.
        let email = body.email.utf8.count <= 1_024 ? UserRepository.normalize(email: body.email) : ""
        try Self.validate(email: email, password: body.password)
        try await limit(addressLimiter, clientAddress(of: request), what: "sign-in and registration attempts from your address")
        let hash = try await hashPassword(body.password, on: request)
        let user: UserRow
        do {
            user = try await UserRepository(database: request.appDatabase).create(email: email, passwordHash: hash)
        } catch PersistenceError.emailTaken {
            throw APIError(status: .conflict, code: "email_taken", message: "An account with this email already exists; log in instead.")
        }
        do {
            try await config.library.addWelcomeStory(ownerID: user.id, database: request.appDatabase)
        } catch {
            // The account matters more than the sample: register anyway, and say why it is missing.
            request.logger.warning("The welcome story could not be added to a new account: \(error)")
        }
        // The phone app's accounts start their calls trial now (3 calls within 7 days).
        if request.headers.first(name: "X-App-Type")?.lowercased() == "mobile" {
            try await CallAccounts(database: request.appDatabase, now: config.calls.now).open(userID: user.id)
        }
        // 200 like login: both calls answer the same token shape with the same status.
        return try await tokenResponse(for: user.id, on: request, status: .ok)
    }

    @Sendable
    func login(_ request: Request) async throws -> Response {
        guard request.headers.contentType == .urlEncodedForm else {
            throw APIError.unsupportedMediaType(
                "Send the login as a form (Content-Type: application/x-www-form-urlencoded) with username and password."
            )
        }
        let fields = FormFields(body: request.body.string ?? "")
        guard let username = fields["username"], let password = fields["password"] else {
            throw APIError.badRequest("Send username (your email) and password as form fields.", code: "invalid_body")
        }
        let form = LoginForm(username: username, password: password)
        let key = UserRepository.normalize(email: form.username) + "|" + clientAddress(of: request)
        try await limit(limiter, key, what: "login attempts for this account")
        try await limit(addressLimiter, clientAddress(of: request), what: "sign-in and registration attempts from your address")
        let user = try await UserRepository(database: request.appDatabase).find(email: form.username)
        let valid = try await verifyPassword(form.password, hash: user?.passwordHash ?? decoyHash, on: request)
        guard let user, valid else {
            throw APIError.unauthorized("Incorrect email or password.", code: "invalid_credentials")
        }
        await limiter.reset(key)
        return try await tokenResponse(for: user.id, on: request, status: .ok)
    }

    @Sendable
    func refresh(_ request: Request) async throws -> Response {
        let value = try presentedRefreshToken(request)
        let outcome = try await RefreshTokenRepository(database: request.appDatabase).rotate(
            value: value, now: Date(), nextExpiresAt: Date().addingTimeInterval(config.refreshTokenLifetime)
        )
        switch outcome {
        case .rotated(let userID, let next):
            let access = try await accessToken(for: userID, session: next.familyID, on: request)
            return try respond(access: access, refresh: next.value, status: .ok, on: request)
        case .reused:
            throw APIError.unauthorized(
                "This refresh token is no longer valid: it was used already or its session was signed out. "
                    + "Every token from that login is now revoked; log in again.",
                code: "refresh_token_revoked"
            )
        case .expired:
            throw APIError.unauthorized("The refresh token has expired; log in again.", code: "refresh_token_expired")
        case .unknown:
            throw APIError.unauthorized("The refresh token is not valid; log in again.", code: "invalid_refresh_token")
        }
    }

    @Sendable
    func logout(_ request: Request) async throws -> Response {
        let value = try presentedRefreshToken(request)
        try await RefreshTokenRepository(database: request.appDatabase).revoke(value: value)
        let response = Response(status: .noContent)
        SessionCookies.clear(on: response, config: config)
        return response
    }

    // MARK: Helpers

    /// 429 with `Retry-After` when `key` is over its limit.
    private func limit(_ limiter: SlidingWindowLimiter, _ key: String, what: String) async throws {
        guard let retryAfter = await limiter.attempt(key) else { return }
        var error = APIError(status: .tooManyRequests, code: "rate_limited", message: "Too many \(what); try again in \(retryAfter) seconds.")
        error.headers.replaceOrAdd(name: .retryAfter, value: String(retryAfter))
        throw error
    }

    static func validate(email: String, password: String) throws {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.count <= 254, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
              !email.contains(where: \.isWhitespace) else {
            throw APIError(status: .unprocessableEntity, code: "invalid_email", message: "Enter a valid email address.")
        }
        guard password.count >= 8 else {
            throw APIError(status: .unprocessableEntity, code: "weak_password", message: "Use a password of at least 8 characters.")
        }
        // Bcrypt reads only the first 72 bytes; longer passwords would silently be truncated.
        guard password.utf8.count <= 72 else {
            throw APIError(status: .unprocessableEntity, code: "password_too_long", message: "Use a password of at most 72 bytes.")
        }
    }

    private func hashPassword(_ password: String, on request: Request) async throws -> String {
        try await config.passwordHasher.hash(password, cost: config.bcryptCost)
    }

    private func verifyPassword(_ password: String, hash: String, on request: Request) async throws -> Bool {
        try await config.passwordHasher.verify(password, hash: hash)
    }

    private func clientAddress(of request: Request) -> String {
        request.clientAddress(trustForwardedFor: config.trustForwardedFor)
    }
}
