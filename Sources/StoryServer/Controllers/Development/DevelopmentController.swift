import CallWorkflows
import Vapor
import VendorHTTP

/// `/test/*`: the mobile guide's development endpoints. Registered only in development mode
/// (`STORYVOICE_ENV=development`); a production server answers them 404.
struct DevelopmentController: Sendable {
    let config: ServerConfig

    func register(signedIn: any RoutesBuilder) {
        let test = signedIn.grouped("test")
        test.post("test-call", use: testCall)
        test.post("bypass-rate-limit", use: bypassRateLimit)
    }

    /// A call placed at once with no plan check, not counted.
    @Sendable func testCall(_ request: Request) async throws -> Response {
        let body = try request.decodeJSON(MakeCallBody.self)
        let answer = try await request.phoneCalls(config).makeCall(
            userID: try request.requireUser().id, phoneNumber: body.phone_number, scenarioID: body.scenario ?? "default", development: true)
        return try Response.json(answer)
    }

    struct BypassBody: Decodable {
        var endpoint: String
        var data: JSONValue?
    }

    /// Sends `data` to `endpoint` (a POST under /mobile) as this user, past the rate limits.
    @Sendable func bypassRateLimit(_ request: Request) async throws -> Response {
        let body = try request.decodeJSON(BypassBody.self)
        guard body.endpoint.hasPrefix("/mobile/"), !body.endpoint.contains("..") else {
            throw APIError.badRequest("endpoint must be a path under /mobile/ (e.g. /mobile/make-call).", code: "invalid_endpoint")
        }
        var headers = request.headers
        headers.contentType = .json
        let inner = Request(
            application: request.application, method: .POST, url: URI(path: body.endpoint), headers: headers,
            collectedBody: ByteBuffer(data: try JSONEncoder().encode(body.data ?? JSONValue.object([:]))),
            remoteAddress: request.remoteAddress, logger: request.logger, on: request.eventLoop)
        inner.storage[RateLimitBypass.self] = true
        return try await request.application.responder.respond(to: inner).get()
    }
}

/// Set on a development request that the rate limits let through.
struct RateLimitBypass: StorageKey {
    typealias Value = Bool
}
