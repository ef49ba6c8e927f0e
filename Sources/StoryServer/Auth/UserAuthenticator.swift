import Foundation
import JWT
import Persistence
import Vapor

/// Signs in the request from `Authorization: Bearer <jwt>` or, for the web app, the
/// `sv_access` cookie. A token that is present but bad is an error, not an anonymous request,
/// so clients learn to refresh instead of seeing a confusing 404 or empty answer.
struct UserAuthenticator: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let token = request.headers.bearerAuthorization?.token ?? request.cookies[SessionCookies.access]?.string
        if let token, !token.isEmpty {
            let payload: AccessTokenPayload
            do {
                payload = try await request.application.jwt.keys.verify(token, as: AccessTokenPayload.self)
            } catch let error as JWTError where error.failedClaim is ExpirationClaim {
                throw APIError.unauthorized(
                    "The access token has expired; get a new one with POST /auth/refresh.", code: "token_expired"
                )
            } catch {
                throw APIError.unauthorized("The access token is not valid; log in again.", code: "invalid_token")
            }
            guard let id = UUID(uuidString: payload.subject.value),
                  let user = try await UserRepository(database: request.appDatabase).find(id: id) else {
                throw APIError.unauthorized("The account for this token no longer exists.", code: "invalid_token")
            }
            if let session = payload.session.flatMap(UUID.init(uuidString:)),
               try await !RefreshTokenRepository(database: request.appDatabase).isLive(family: session) {
                throw APIError.unauthorized("This sign-in has ended (signed out, or its refresh token was reused); log in again.",
                                            code: "session_ended")
            }
            request.auth.login(AuthenticatedUser(id: id, email: user.email))
        }
        return try await next.respond(to: request)
    }
}

/// Answers 401 unless a user is signed in.
struct RequireUserMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        _ = try request.requireUser()
        return try await next.respond(to: request)
    }
}
