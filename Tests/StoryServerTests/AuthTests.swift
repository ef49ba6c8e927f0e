import DatabaseTestSupport
import Crypto
import Foundation
import JWT
import Persistence
@testable import StoryServer
import StoryWorkflows
import Testing
import VaporTesting

@Suite("Auth")
struct AuthTests {
    @Test("PostgreSQL backend", .enabled(if: Backend.postgresURL != nil, Backend.skipNote))
    func postgresIsConfigured() {
        #expect(Backend.available.contains(.postgres))
    }

    @Test("register and login answer a bearer token pair that opens /api/me", arguments: Backend.available)
    func registerAndLogin(_ backend: Backend) async throws {
        try await withServer(backend) { app, _, _ in
            let registered = try await app.register("Ada@Example.com")
            #expect(registered.token_type == "bearer")
            #expect(!registered.refresh_token.isEmpty)

            let me = try await app.send(.GET, "/api/me", token: registered.access_token)
            #expect(me.status == .ok)
            #expect(me.body.string.contains(#""email":"ada@example.com""#))

            let login = try await app.login("ada@example.com", "correct horse battery")
            #expect(login.status == .ok)
            let tokens = try login.content.decode(Tokens.self)
            #expect(tokens.token_type == "bearer")
            #expect(try await app.send(.GET, "/api/me", token: tokens.access_token).status == .ok)
        }
    }

    @Test("registration errors name what is wrong")
    func registrationErrors() async throws {
        try await withServer { app, _, _ in
            _ = try await app.register("ada@example.com")
            let taken = try await app.send(.POST, "/auth/register", json: #"{"email":"ADA@example.com","password":"long enough pw"}"#)
            #expect(taken.status == .conflict)
            #expect(taken.errorCode == "email_taken")

            let badJSON = try await app.send(.POST, "/auth/register", json: #"{"email": "a@b.co", "password": "#)
            #expect(badJSON.status == .badRequest)
            #expect(badJSON.errorCode == "invalid_body")
            #expect(badJSON.errorMessage == "The body is not valid JSON.")

            let wrongType = try await app.send(.POST, "/auth/register", json: #"{"email": 42, "password": "long enough pw"}"#)
            #expect(wrongType.status == .badRequest)
            #expect(wrongType.errorMessage == "Field 'email' must be a string.")

            let missing = try await app.send(.POST, "/auth/register", json: #"{"email": "a@b.co"}"#)
            #expect(missing.status == .badRequest)
            #expect(missing.errorMessage == "Field 'password' is required.")

            var form = HTTPHeaders()
            form.contentType = .urlEncodedForm
            let wrongContentType = try await app.send(.POST, "/auth/register", headers: form, body: ByteBuffer(string: "email=a@b.co&password=12345678"))
            #expect(wrongContentType.status == .unsupportedMediaType)

            let badEmail = try await app.send(.POST, "/auth/register", json: #"{"email": "not-an-email", "password": "long enough pw"}"#)
            #expect(badEmail.status == .unprocessableEntity)
            #expect(badEmail.errorCode == "invalid_email")

            let weak = try await app.send(.POST, "/auth/register", json: #"{"email": "b@b.co", "password": "short"}"#)
            #expect(weak.status == .unprocessableEntity)
            #expect(weak.errorCode == "weak_password")
        }
    }

    @Test("passwords are stored as Bcrypt hashes", arguments: Backend.available)
    func bcrypt(_ backend: Backend) async throws {
        try await withServer(backend) { app, _, _ in
            _ = try await app.register("ada@example.com", password: "correct horse battery")
            let user = try #require(try await UserRepository(database: app.appDatabase).find(email: "ada@example.com"))
            #expect(user.passwordHash.hasPrefix("$2"))
            #expect(!user.passwordHash.contains("correct horse"))
        }
    }

    @Test("login errors: wrong password, wrong content type, missing fields")
    func loginErrors() async throws {
        try await withServer { app, _, _ in
            _ = try await app.register("ada@example.com")
            let wrong = try await app.login("ada@example.com", "wrong password")
            #expect(wrong.status == .unauthorized)
            #expect(wrong.errorCode == "invalid_credentials")
            #expect(wrong.headers.first(name: "WWW-Authenticate") == "Bearer")

            let unknown = try await app.login("nobody@example.com", "whatever123")
            #expect(unknown.status == .unauthorized)
            #expect(unknown.errorMessage == wrong.errorMessage)

            let asJSON = try await app.send(.POST, "/auth/login", json: #"{"username":"ada@example.com","password":"correct horse battery"}"#)
            #expect(asJSON.status == .unsupportedMediaType)

            var form = HTTPHeaders()
            form.contentType = .urlEncodedForm
            let missing = try await app.send(.POST, "/auth/login", headers: form, body: ByteBuffer(string: "username=ada%40example.com"))
            #expect(missing.status == .badRequest)

            // Field names are flat: an extra field with brackets (balanced or not) changes nothing.
            for extra in ["x%5B=1", "a[b]=2", "[=", "%zz=%"] {
                let right = "\(extra)&username=ada%40example.com&password=correct+horse+battery"
                #expect(try await app.send(.POST, "/auth/login", headers: form, body: ByteBuffer(string: right)).status == .ok, "\(extra)")
                let wrongPassword = "username=ada%40example.com&\(extra)&password=wrong"
                #expect(try await app.send(.POST, "/auth/login", headers: form, body: ByteBuffer(string: wrongPassword)).status == .unauthorized, "\(extra)")
            }
        }
    }

    @Test("login is rate limited per email and client address")
    func rateLimit() async throws {
        // A window far longer than the test, which a loaded machine may otherwise outlast.
        try await withServer(adjust: { $0.trustForwardedFor = true; $0.loginRateWindow = 3600 }) { app, _, _ in
            _ = try await app.register("ada@example.com")
            let home: HTTPHeaders = ["X-Forwarded-For": "203.0.113.7"]
            for _ in 0..<5 {
                #expect(try await app.login("ada@example.com", "wrong password", headers: home).status == .unauthorized)
            }
            let limited = try await app.login("ada@example.com", "correct horse battery", headers: home)
            #expect(limited.status == .tooManyRequests)
            #expect(limited.errorCode == "rate_limited")
            let retryAfter = try #require(limited.headers.first(name: "Retry-After").flatMap(Int.init))
            #expect(retryAfter >= 1 && retryAfter <= 3600)

            // Another address, or another account from the same address, is not held back.
            let elsewhere = try await app.login("ada@example.com", "correct horse battery", headers: ["X-Forwarded-For": "198.51.100.2"])
            #expect(elsewhere.status == .ok)
            #expect(try await app.login("bob@example.com", "wrong password", headers: home).status == .unauthorized)
        }
    }

    @Test("refresh rotates; reusing a spent refresh token revokes the family", arguments: Backend.available)
    func refreshRotation(_ backend: Backend) async throws {
        try await withServer(backend) { app, _, _ in
            let first = try await app.register("ada@example.com")
            let rotated = try await app.send(.POST, "/auth/refresh", json: #"{"refresh_token":"\#(first.refresh_token)"}"#)
            #expect(rotated.status == .ok)
            let second = try rotated.content.decode(Tokens.self)
            #expect(second.refresh_token != first.refresh_token)
            #expect(try await app.send(.GET, "/api/me", token: second.access_token).status == .ok)

            let reuse = try await app.send(.POST, "/auth/refresh", json: #"{"refresh_token":"\#(first.refresh_token)"}"#)
            #expect(reuse.status == .unauthorized)
            #expect(reuse.errorCode == "refresh_token_revoked")
            let successor = try await app.send(.POST, "/auth/refresh", json: #"{"refresh_token":"\#(second.refresh_token)"}"#)
            #expect(successor.status == .unauthorized)

            let garbage = try await app.send(.POST, "/auth/refresh", json: #"{"refresh_token":"garbage"}"#)
            #expect(garbage.status == .unauthorized)
            #expect(garbage.errorCode == "invalid_refresh_token")
            let wrongType = try await app.send(.POST, "/auth/refresh", json: #"{"refresh_token": 7}"#)
            #expect(wrongType.status == .badRequest)
            let empty = try await app.send(.POST, "/auth/refresh")
            #expect(empty.status == .badRequest)
        }
    }

    @Test("logout revokes the refresh token")
    func logout() async throws {
        try await withServer { app, _, _ in
            let tokens = try await app.register("ada@example.com")
            let out = try await app.send(.POST, "/auth/logout", json: #"{"refresh_token":"\#(tokens.refresh_token)"}"#)
            #expect(out.status == .noContent)
            let after = try await app.send(.POST, "/auth/refresh", json: #"{"refresh_token":"\#(tokens.refresh_token)"}"#)
            #expect(after.status == .unauthorized)
        }
    }

    @Test("signing out ends the access token too, not only the refresh token; other sign-ins go on")
    func logoutEndsTheAccessToken() async throws {
        try await withServer { app, _, _ in
            let first = try await app.register("ada@example.com")
            let second = try await app.login("ada@example.com", "correct horse battery").content.decode(Tokens.self)
            #expect(try await app.send(.GET, "/api/me", token: first.access_token).status == .ok)
            #expect(try await app.send(.POST, "/auth/logout", json: #"{"refresh_token":"\#(first.refresh_token)"}"#).status == .noContent)
            let after = try await app.send(.GET, "/api/me", token: first.access_token)
            #expect(after.status == .unauthorized)
            #expect(after.errorCode == "session_ended")
            #expect(try await app.send(.GET, "/api/me", token: second.access_token).status == .ok)
            // A refreshed token belongs to the same sign-in and keeps working.
            let refreshed = try await app.send(.POST, "/auth/refresh", json: #"{"refresh_token":"\#(second.refresh_token)"}"#).content.decode(Tokens.self)
            #expect(try await app.send(.GET, "/api/me", token: refreshed.access_token).status == .ok)
        }
    }

    @Test("missing, garbage, foreign and expired access tokens are refused")
    func accessTokenErrors() async throws {
        try await withServer { app, config, _ in
            let tokens = try await app.register("ada@example.com")
            let none = try await app.send(.GET, "/api/me")
            #expect(none.status == .unauthorized)
            #expect(none.errorCode == "unauthorized")

            let garbage = try await app.send(.GET, "/api/me", token: "not.a.jwt")
            #expect(garbage.status == .unauthorized)
            #expect(garbage.errorCode == "invalid_token")

            #expect(try await app.send(.GET, "/api/me", token: tokens.refresh_token).errorCode == "invalid_token")

            let me = try await app.send(.GET, "/api/me", token: tokens.access_token)
            let id = try me.content.decode([String: String].self)["id"] ?? ""

            let foreignKeys = JWTKeyCollection()
            await foreignKeys.add(hmac: HMACKey(key: SymmetricKey(size: .bits256)), digestAlgorithm: .sha256)
            let foreign = try await foreignKeys.sign(AccessTokenPayload(
                subject: .init(value: id), expiration: .init(value: Date().addingTimeInterval(600)),
                issuedAt: .init(value: Date()), type: AccessTokenPayload.accessType
            ))
            #expect(try await app.send(.GET, "/api/me", token: foreign).errorCode == "invalid_token")

            let expired = try await accessToken(for: id, config: config, secondsPast: 60)
            let expiredReply = try await app.send(.GET, "/api/me", token: expired)
            #expect(expiredReply.status == .unauthorized)
            #expect(expiredReply.errorCode == "token_expired")

            let fresh = try await accessToken(for: id, config: config, secondsPast: -60)
            #expect(try await app.send(.GET, "/api/me", token: fresh).status == .ok)
        }
    }

    @Test("access tokens last about 15 minutes")
    func accessLifetime() async throws {
        try await withServer { app, config, _ in
            let tokens = try await app.register("ada@example.com")
            let keys = JWTKeyCollection()
            await keys.add(hmac: HMACKey(key: config.secret.derivedKey(for: "access-tokens")), digestAlgorithm: .sha256)
            let payload = try await keys.verify(tokens.access_token, as: AccessTokenPayload.self)
            let lifetime = payload.expiration.value.timeIntervalSince(payload.issuedAt.value)
            #expect(abs(lifetime - 15 * 60) < 2)
        }
    }

    @Test("the web app's session lives in HttpOnly SameSite=Lax cookies")
    func cookieSession() async throws {
        try await withServer { app, _, _ in
            _ = try await app.register("ada@example.com")
            let login = try await app.login("ada@example.com", "correct horse battery", query: "?cookie=1")
            #expect(login.status == .ok)
            #expect(!login.body.string.contains("access_token"))
            #expect(login.body.string.contains(#""token_type":"cookie""#))
            let setCookies = login.headers[.setCookie]
            let access = try #require(setCookies.first { $0.hasPrefix("sv_access=") })
            let refresh = try #require(setCookies.first { $0.hasPrefix("sv_refresh=") })
            #expect(access.contains("HttpOnly"))
            #expect(access.contains("SameSite=Lax"))
            #expect(refresh.contains("Path=/auth"))

            func value(_ header: String) -> String {
                String(header.split(separator: ";")[0].split(separator: "=", maxSplits: 1)[1])
            }
            let me = try await app.send(.GET, "/api/me", headers: ["Cookie": "sv_access=\(value(access))"])
            #expect(me.status == .ok)

            let refreshed = try await app.send(.POST, "/auth/refresh?cookie=1", headers: ["Cookie": "sv_refresh=\(value(refresh))"])
            #expect(refreshed.status == .ok)
            let newRefresh = try #require(refreshed.headers[.setCookie].first { $0.hasPrefix("sv_refresh=") })
            #expect(value(newRefresh) != value(refresh))

            let out = try await app.send(.POST, "/auth/logout", headers: ["Cookie": "sv_refresh=\(value(newRefresh))"])
            #expect(out.status == .noContent)
            #expect(out.headers[.setCookie].contains { $0.hasPrefix("sv_access=;") || $0.hasPrefix("sv_access=") && $0.contains("Max-Age=0") })
            let after = try await app.send(.POST, "/auth/refresh?cookie=1", headers: ["Cookie": "sv_refresh=\(value(newRefresh))"])
            #expect(after.status == .unauthorized)
        }
    }
}
