import Foundation
import Logging
import VendorHTTP

/// The App Store Server API, over the vendor transport (timeouts, retries on 429 and 5xx
/// honouring `Retry-After`): today the one call purchases need, Get Transaction Info. Every
/// request carries a fresh ES256 bearer token; Apple's error bodies
/// (`{"errorCode": 4040010, "errorMessage": "Transaction id not found."}`) become
/// ``AppStoreError``s.
public struct AppStoreServerClient: Sendable {
    public static let productionURL = "https://api.storekit.itunes.apple.com"
    public static let sandboxURL = "https://api.storekit-sandbox.itunes.apple.com"

    public let credentials: AppStoreAPICredentials
    public let baseURL: String
    let transport: VendorTransport
    let logger: Logger
    let now: @Sendable () -> Date

    /// - Parameters:
    ///   - environment: Production or Sandbox picks Apple's base URL; `baseURL` overrides it.
    /// - Throws: ``AppStoreError/notConfigured(_:)`` for an environment without a server API.
    public init(
        credentials: AppStoreAPICredentials, environment: AppStoreEnvironment = .production, baseURL: String? = nil,
        transport: VendorTransport, logger: Logger = Logger(label: "storyvoice.appstore.api"),
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws(AppStoreError) {
        switch (baseURL, environment) {
        case (let url?, _): self.baseURL = url.hasSuffix("/") ? String(url.dropLast()) : url
        case (nil, .production): self.baseURL = Self.productionURL
        case (nil, .sandbox): self.baseURL = Self.sandboxURL
        default: throw .notConfigured("the App Store Server API has no \(environment) environment (use Production or Sandbox)")
        }
        self.credentials = credentials
        self.transport = transport
        self.logger = logger
        self.now = now
    }

    /// Get Transaction Info (`GET /inApps/v1/transactions/{transactionId}`): the transaction
    /// as Apple signs it now, a JWS to verify with ``AppStoreVerifier/verifyTransaction(_:)``.
    public func transactionInfo(id: String) async throws(AppStoreError) -> String {
        guard !id.isEmpty, id.count <= 32, id.allSatisfy({ $0.isASCII && $0.isNumber }) else { throw .invalidTransactionID(id) }
        let request = VendorRequest(
            method: .GET, url: "\(baseURL)/inApps/v1/transactions/\(id)",
            headers: [("authorization", "Bearer \(try AppStoreAPIToken.make(credentials, now: now()))"), ("accept", "application/json")]
        )
        let reply: VendorReply
        do {
            reply = try await transport.send(request, logger: logger, errorMessage: Self.errorMessage)
        } catch {
            throw Self.error(for: error, transactionID: id)
        }
        guard let json = JSONValue(parsing: reply.body), let signed = json["signedTransactionInfo"]?.stringValue else {
            throw .appStoreUnavailable("the App Store answered without signedTransactionInfo")
        }
        return signed
    }

    /// ``transactionInfo(id:)``, verified by `verifier`.
    public func verifiedTransaction(id: String, verifier: AppStoreVerifier) async throws(AppStoreError) -> SignedTransaction {
        try await verifier.verifyTransaction(transactionInfo(id: id))
    }

    /// Apple's error body kept as "errorCode|errorMessage" in the transport's failure detail.
    static func errorMessage(_ body: Data) -> String? {
        guard let json = JSONValue(parsing: body), let code = json["errorCode"]?.doubleValue else { return nil }
        return "\(Int64(code))|\(json["errorMessage"]?.stringValue ?? "")"
    }

    static func error(for failure: VendorFailure, transactionID: String) -> AppStoreError {
        let parts = failure.detail?.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
        let code = parts.flatMap { Int64($0[0]) }
        let said = (parts.map { $0.count > 1 ? String($0[1]) : "" }).flatMap { $0.isEmpty ? nil : $0 }
        switch (failure.kind, code) {
        case (_, 4040010?), (.noAccess(404), nil):
            return .transactionNotFound(transactionID)
        case (_, 4000006?):
            return .invalidTransactionID(transactionID)
        case (.invalidKey, _):
            return .apiKeyRejected
        case (.rateLimited(let seconds), _):
            return .appStoreUnavailable("rate limited by Apple\(said.map { ": \($0)" } ?? "")", retryAfterSeconds: seconds)
        case (.providerError(let status), _):
            return .appStoreUnavailable("Apple's server error, HTTP \(status)\(said.map { ": \($0)" } ?? "")")
        case (.timeout(let seconds), _):
            return .appStoreUnavailable("no answer within \(Int(seconds.rounded(.up))) s")
        case (.unreachable, _):
            return .appStoreUnavailable("Apple's server could not be reached\(failure.detail.map { ": \($0)" } ?? "")")
        default:
            return .appStoreUnavailable("Apple refused the request\(code.map { " (error \($0)" + (said.map { ": \($0))" } ?? ")") } ?? "")")
        }
    }
}
