import DatabaseTestSupport
import Crypto
import Foundation
import Jobs
import JWT
import NIOCore
import Persistence
@testable import StoryServer
import StoryWorkflows
import Testing
import VaporTesting
import VendorHTTP

/// The repository's Public/ directory (web app and openapi.yaml).
let publicDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Public", isDirectory: true)

/// An access token for `userID`, signed with the server's own key, that is `secondsPast` seconds
/// past its expiry (negative: still valid for that long).
func accessToken(for userID: String, config: ServerConfig, secondsPast: Double) async throws -> String {
    let keys = JWTKeyCollection()
    await keys.add(hmac: HMACKey(key: config.secret.derivedKey(for: "access-tokens")), digestAlgorithm: .sha256)
    return try await keys.sign(AccessTokenPayload(
        subject: .init(value: userID), expiration: .init(value: Date().addingTimeInterval(-secondsPast)),
        issuedAt: .init(value: Date().addingTimeInterval(-secondsPast - 900)), type: AccessTokenPayload.accessType))
}

let testPasswordHasher = PasswordHasher(threads: 2, maxWaiting: .max)

/// A configured app on a fresh database, torn down afterwards.
func withServer(
    _ backend: Backend = .sqlite,
    adjust: (inout ServerConfig) -> Void = { _ in },
    _ body: (Application, ServerConfig, TestDatabase) async throws -> Void
) async throws {
    let database = try await TestDatabase.make(backend)
    var config = ServerConfig(
        dataDirectory: DataDirectory(url: database.directory.appendingPathComponent("data", isDirectory: true)),
        database: database.location,
        secret: try ServerSecret(key: SymmetricKey(size: .bits256)),
        publicDirectory: publicDirectory
    )
    config.bcryptCost = 4
    // One hasher for every test server, with no admission limit: the tests run in parallel in
    // one process, and the production queue bound (sized for one server) turned their
    // registrations away on a loaded machine. LoginSprayTests sets its own bounded one.
    config.passwordHasher = testPasswordHasher
    config.inProcessWorkers = 0
    config.jobEventPollInterval = .milliseconds(10)
    // Suites send hundreds of requests a minute from one address; RateLimitTests turns limits on.
    config.rateLimits = RateLimits(perMinute: 0, expensivePerMinute: 0)
    adjust(&config)
    do {
        try await withApp(configure: { app in
            app.logger.logLevel = .critical
            try await configure(app, config)
        }) { app in
            try await body(app, config, database)
        }
    } catch {
        await database.destroy()
        throw error
    }
    await database.destroy()
}

struct Tokens: Decodable {
    var access_token: String
    var refresh_token: String
    var token_type: String
}

struct ErrorReply: Decodable {
    struct Detail: Decodable { var code: String; var message: String }
    var error: Detail
}

extension Application {
    func send(
        _ method: HTTPMethod, _ path: String, token: String? = nil, json: String? = nil,
        headers: HTTPHeaders = [:], body: ByteBuffer? = nil
    ) async throws -> TestingHTTPResponse {
        var headers = headers
        if let token { headers.bearerAuthorization = BearerAuthorization(token: token) }
        var payload = body
        if let json {
            headers.contentType = .json
            payload = ByteBuffer(string: json)
        }
        return try await testing().sendRequest(method, path, headers: headers, body: payload)
    }

    func register(_ email: String, password: String = "correct horse battery") async throws -> Tokens {
        let response = try await send(.POST, "/auth/register", json: #"{"email":"\#(email)","password":"\#(password)"}"#)
        #expect(response.status == .ok, "\(response.body.string)")
        return try response.content.decode(Tokens.self)
    }

    func login(_ email: String, _ password: String, query: String = "", headers: HTTPHeaders = [:]) async throws -> TestingHTTPResponse {
        var headers = headers
        headers.contentType = .urlEncodedForm
        let form = "username=\(email.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? email)&password=\(password.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? password)"
        return try await send(.POST, "/auth/login" + query, headers: headers, body: ByteBuffer(string: form))
    }
}

extension TestingHTTPResponse {
    var json: JSONValue? { JSONValue(parsing: Data(buffer: body)) }

    var errorCode: String? {
        (try? content.decode(ErrorReply.self))?.error.code
    }

    var errorMessage: String? {
        (try? content.decode(ErrorReply.self))?.error.message
    }
}
