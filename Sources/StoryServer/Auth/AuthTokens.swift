import Foundation
import JWT
import Persistence
import Vapor

/// Issuing and reading session tokens: the access token (JWT), the rotated refresh token, and
/// the cookie form the web app signs in with.
extension AuthController {
    /// The refresh token from a JSON body, or from the web app's cookie.
    func presentedRefreshToken(_ request: Request) throws -> String {
        if let body = request.body.data, body.readableBytes > 0 {
            let token = try request.decodeJSON(RefreshRequest.self).refresh_token
            guard !token.isEmpty else { throw APIError.badRequest("Field 'refresh_token' is empty.", code: "invalid_body") }
            return token
        }
        if let cookie = request.cookies[SessionCookies.refresh]?.string, !cookie.isEmpty {
            return cookie
        }
        throw APIError.badRequest("Send {\"refresh_token\": \"…\"} as JSON.", code: "invalid_body")
    }

    func tokenResponse(for userID: UUID, on request: Request, status: HTTPResponseStatus) async throws -> Response {
        let refresh = try await RefreshTokenRepository(database: request.appDatabase).issue(
            userID: userID, expiresAt: Date().addingTimeInterval(config.refreshTokenLifetime)
        )
        let access = try await accessToken(for: userID, session: refresh.familyID, on: request)
        return try respond(access: access, refresh: refresh.value, status: status, on: request)
    }

    func respond(access: String, refresh: String, status: HTTPResponseStatus, on request: Request) throws -> Response {
        let response = Response(status: status)
        let lifetime = Int(config.accessTokenLifetime)
        if SessionCookies.requested(by: request) {
            SessionCookies.set(on: response, access: access, refresh: refresh, config: config)
            try response.content.encode(TokenResponse(token_type: "cookie", expires_in: lifetime), as: .json)
        } else {
            try response.content.encode(
                TokenResponse(access_token: access, refresh_token: refresh, token_type: "bearer", expires_in: lifetime), as: .json
            )
        }
        response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        return response
    }

    func accessToken(for userID: UUID, session: UUID, on request: Request) async throws -> String {
        let now = Date()
        let payload = AccessTokenPayload(
            subject: .init(value: userID.uuidString),
            expiration: .init(value: now.addingTimeInterval(config.accessTokenLifetime)),
            issuedAt: .init(value: now),
            type: AccessTokenPayload.accessType,
            session: session.uuidString
        )
        return try await request.application.jwt.keys.sign(payload)
    }
}
