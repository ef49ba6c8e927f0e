import AppStore
import AppStoreTestSupport
import Foundation
import Logging
import Testing
import TestSupport
import VendorHTTP

@Suite struct ServerClientTests {
    let ca: AppStoreTestCA
    let apiKey = AppStoreFixtures.apiKey()
    let credentials: AppStoreAPICredentials
    let wireKey: AppStoreWire.Key

    init() throws {
        ca = try AppStoreTestCA.make()
        credentials = try AppStoreAPICredentials(
            issuerID: "57246542-96fe-1a63-e053-0824d011072a", keyID: "2X9R4HXF34", bundleID: AppStoreFixtures.bundleID, privateKey: Secret(apiKey.pem)
        )
        wireKey = AppStoreWire.Key(issuerID: credentials.issuerID, keyID: credentials.keyID, bundleID: credentials.bundleID, publicKey: apiKey.publicKey)
    }

    private func client(
        _ server: LoopbackServer, attempts: Int = 1, credentials: AppStoreAPICredentials? = nil, now: @escaping @Sendable () -> Date = { Date() }
    ) throws -> AppStoreServerClient {
        let transport = VendorTransport(key: nil, timeout: loopbackTimeout, retry: RetryPolicy(maxAttempts: attempts), limiter: ConcurrencyLimiter(limit: 4), sleep: { _ in })
        return try AppStoreServerClient(credentials: credentials ?? self.credentials, baseURL: server.baseURL, transport: transport, now: now)
    }

    @Test func transactionInfoSendsAValidBearerTokenAndReturnsAVerifiableTransaction() async throws {
        let transaction = AppStoreFixtures.transaction(id: "2000000777")
        // One clock for the token and its checks: a loaded machine may take minutes to answer,
        // longer than the token lives, which is not what this test is about.
        let now = Date()
        let handler = AppStoreWire.handler(key: wireKey, transactions: ["2000000777": try ca.sign(transaction)], now: { now })
        try await LoopbackServer.withServer(handler: handler) { server in
            let verified = try await client(server, now: { now }).verifiedTransaction(id: "2000000777", verifier: try ca.verifier())
            #expect(verified == transaction)
            let request = try #require(server.requests.first)
            #expect(request.method == "GET")
            #expect(request.uri == "/inApps/v1/transactions/2000000777")
            #expect(AppStoreWire.bearerProblem(request.header("authorization"), key: wireKey, now: now) == nil)
        }
    }

    @Test func theTokenCarriesApplesHeaderAndClaims() throws {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let token = try AppStoreAPIToken.make(credentials, now: now)
        let parts = token.split(separator: ".")
        #expect(parts.count == 3)
        let header = try #require(Base64URL.decode(parts[0]).flatMap { JSONValue(parsing: $0) })
        let claims = try #require(Base64URL.decode(parts[1]).flatMap { JSONValue(parsing: $0) })
        #expect(header == ["alg": "ES256", "kid": "2X9R4HXF34", "typ": "JWT"])
        #expect(claims["iss"]?.stringValue == "57246542-96fe-1a63-e053-0824d011072a")
        #expect(claims["aud"]?.stringValue == "appstoreconnect-v1")
        #expect(claims["bid"]?.stringValue == AppStoreFixtures.bundleID)
        #expect(claims["iat"]?.intValue == 1_700_000_000)
        let lifetime = try #require(claims["exp"]?.intValue) - 1_700_000_000
        #expect(lifetime > 0 && lifetime <= 3600)
        #expect(Base64URL.decode(parts[2])?.count == 64)
        #expect(AppStoreWire.bearerProblem("Bearer \(token)", key: wireKey, now: now) == nil)
        // Signed by another key, the same claims are refused: the check is real.
        let other = try AppStoreAPICredentials(issuerID: credentials.issuerID, keyID: credentials.keyID, bundleID: credentials.bundleID, privateKey: Secret(AppStoreFixtures.apiKey().pem))
        #expect(AppStoreWire.bearerProblem("Bearer \(try AppStoreAPIToken.make(other, now: now))", key: wireKey, now: now) == "the signature is not the key's")
    }

    @Test func anUnknownTransactionIsApples404() async throws {
        try await LoopbackServer.withServer(handler: AppStoreWire.handler(key: wireKey, transactions: [:])) { server in
            await #expect(throws: AppStoreError.transactionNotFound("2000000404")) { try await client(server).transactionInfo(id: "2000000404") }
            #expect(AppStoreError.transactionNotFound("1").httpStatus == 404)
        }
    }

    @Test func aRejectedKeyIsOurFaultAndSaysWhatToCheck() async throws {
        let stranger = try AppStoreAPICredentials(issuerID: "other-issuer", keyID: "OTHERKEY01", bundleID: AppStoreFixtures.bundleID, privateKey: Secret(AppStoreFixtures.apiKey().pem))
        try await LoopbackServer.withServer(handler: AppStoreWire.handler(key: wireKey, transactions: [:])) { server in
            let client = try client(server, credentials: stranger)
            let error = await refusal { try await client.transactionInfo(id: "2000000001") }
            #expect(error == .apiKeyRejected)
            #expect(error?.isClientError == false)
            #expect(error?.httpStatus == 503)
            #expect(error?.message.contains("APP_STORE_KEY_ID") == true)
        }
    }

    @Test func rateLimitingIsRetriedThenReportedWithApplesWait() async throws {
        try await LoopbackServer.withServer(handler: { _ in AppStoreWire.rateLimitExceeded(retryAfterSeconds: 7) }) { server in
            let client = try client(server, attempts: 2)
            let error = await refusal { try await client.transactionInfo(id: "2000000001") }
            guard case .appStoreUnavailable(let why, let wait)? = error else { Issue.record("\(String(describing: error))"); return }
            #expect(why.contains("Rate limit exceeded."))
            #expect(wait == 7)
            #expect(error?.httpStatus == 503)
            #expect(server.requests.count == 2)
        }
    }

    @Test func aTransactionIDThatIsNotDigitsIsNeverSent() async throws {
        try await LoopbackServer.withServer(handler: AppStoreWire.handler(key: wireKey, transactions: [:])) { server in
            await #expect(throws: AppStoreError.invalidTransactionID("../../v1/notifications")) {
                try await client(server).transactionInfo(id: "../../v1/notifications")
            }
            #expect(server.requests.isEmpty)
        }
    }

    @Test func thePrivateKeyNeverPrints() throws {
        let body = apiKey.pem.split(separator: "\n").dropFirst().first.map(String.init) ?? apiKey.pem
        var dumped = ""
        dump(credentials, to: &dumped)
        for text in [credentials.description, "\(credentials)", dumped] {
            #expect(!text.contains(body))
        }
        do {
            _ = try AppStoreAPICredentials(issuerID: "i", keyID: "k", bundleID: "b", privateKey: Secret("-----BEGIN PRIVATE KEY-----\nTOPSECRETBYTES\n-----END PRIVATE KEY-----"))
            Issue.record("accepted a key that is not P-256")
        } catch {
            #expect(!error.message.contains("TOPSECRETBYTES"))
            #expect(error.httpStatus == 503)
        }
    }
}
