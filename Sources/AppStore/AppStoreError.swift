import Foundation

/// Why an App Store purchase or notification was not accepted, worded for the person who sees
/// it, and whose fault it is: a purchase that fails verification is the client's (400), a
/// server that cannot verify or reach Apple is ours (503).
public enum AppStoreError: Error, Hashable, Sendable {
    /// Not a JWS, or its payload is not the JSON Apple signs.
    case malformed(String)
    /// `alg` is not ES256 (the only algorithm Apple signs with; `none` included).
    case unsupportedAlgorithm(String?)
    /// The `x5c` chain does not lead to the pinned Apple root under Apple's rules, or has expired.
    case untrustedChain(String)
    /// The signature does not match the header and payload under the signing certificate's key.
    case badSignature(String)
    /// Signed by Apple, but for another app.
    case wrongApp(expected: String, found: String?)
    /// Signed by Apple, but in an environment this server does not accept (e.g. Sandbox in production).
    case wrongEnvironment(found: String?, accepted: [String])
    /// The App Store has no transaction with this id (App Store Server API error 4040010).
    case transactionNotFound(String)
    /// The transaction id is not one Apple would issue (digits only).
    case invalidTransactionID(String)
    /// This server lacks what it needs to verify purchases or call Apple (a setting, the root).
    case notConfigured(String)
    /// Apple refused our App Store Connect API key (HTTP 401): the key, key id or issuer id is wrong.
    case apiKeyRejected
    /// The App Store Server API could not answer now (rate limit, outage, network).
    case appStoreUnavailable(String, retryAfterSeconds: Double? = nil)

    /// True when the purchase or request itself is at fault, not this server.
    public var isClientError: Bool {
        switch self {
        case .malformed, .unsupportedAlgorithm, .untrustedChain, .badSignature, .wrongApp, .wrongEnvironment,
             .transactionNotFound, .invalidTransactionID:
            true
        case .notConfigured, .apiKeyRejected, .appStoreUnavailable:
            false
        }
    }

    /// The HTTP status to answer with: 400 for a purchase that fails verification, 404 for a
    /// transaction Apple does not know, 503 when this server cannot verify or reach Apple.
    public var httpStatus: Int {
        switch self {
        case .transactionNotFound: 404
        case .notConfigured, .apiKeyRejected, .appStoreUnavailable: 503
        default: 400
        }
    }

    /// What went wrong and what to do, for the user or the operator; never a key.
    public var message: String {
        let notApple = "The purchase could not be verified as Apple's"
        switch self {
        case .malformed(let why):
            return "\(notApple): \(why). Send the transaction's jwsRepresentation from StoreKit 2 unchanged."
        case .unsupportedAlgorithm(let alg):
            return "\(notApple): it is signed with \(alg.map { "“\($0)”" } ?? "no algorithm"), and Apple signs with ES256 only. Send the transaction StoreKit 2 gave the app, unchanged."
        case .untrustedChain(let why):
            return "\(notApple): its certificate chain does not lead to Apple Root CA - G3 (\(why)). Restore purchases in the app to get a freshly signed transaction."
        case .badSignature(let why):
            return "\(notApple): the signature does not match its contents (\(why)). The transaction was altered; restore purchases in the app."
        case .wrongApp(let expected, let found):
            return "\(notApple) for this app: it was bought in “\(found ?? "an unknown app")”, not “\(expected)”."
        case .wrongEnvironment(let found, let accepted):
            return "\(notApple) here: it was made in the \(found ?? "unknown") environment, and this server accepts \(accepted.joined(separator: " and ")) purchases only. Use a build of the app for this server (TestFlight and Xcode builds buy in Sandbox)."
        case .transactionNotFound(let id):
            return "The App Store has no transaction \(id). Check that the app sent the transaction id of a completed purchase, in the same environment as this server."
        case .invalidTransactionID(let id):
            return "“\(id.prefix(40))” is not an App Store transaction id (those are digits only)."
        case .notConfigured(let what):
            return "App Store purchases are not set up on this server: \(what)."
        case .apiKeyRejected:
            return "Apple rejected this server's App Store Connect API key (HTTP 401) — check APP_STORE_KEY_ID, APP_STORE_ISSUER_ID, APP_STORE_BUNDLE_ID and the private key."
        case .appStoreUnavailable(let why, let retryAfter):
            let wait = retryAfter.map { " Apple asked to wait \(Int($0.rounded(.up))) s." } ?? ""
            return "The App Store could not be asked about the purchase (\(why)).\(wait) Try again in a minute; the purchase is not lost."
        }
    }
}

extension AppStoreError: LocalizedError {
    public var errorDescription: String? { message }
}

extension AppStoreError: CustomStringConvertible {
    public var description: String { message }
}
