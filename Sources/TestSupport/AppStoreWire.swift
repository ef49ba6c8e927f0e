import Crypto
import Foundation
import VendorHTTP

/// The server side of the App Store Server API's Get Transaction Info
/// (`GET /inApps/v1/transactions/{transactionId}`), written from Apple's reference
/// independently of the client: every request must carry a valid ES256 bearer token for the
/// configured key (else 401, as Apple answers an unauthenticated request); a known transaction
/// answers `{"signedTransactionInfo": "…"}`, an unknown one Apple's 404 body
/// `{"errorCode": 4040010, "errorMessage": "Transaction id not found."}`, an id that is not
/// digits 400 with 4000006.
public enum AppStoreWire {
    /// The App Store Connect API key the server accepts tokens of.
    public struct Key: Sendable {
        public var issuerID: String
        public var keyID: String
        public var bundleID: String
        public var publicKey: P256.Signing.PublicKey

        public init(issuerID: String, keyID: String, bundleID: String, publicKey: P256.Signing.PublicKey) {
            self.issuerID = issuerID
            self.keyID = keyID
            self.bundleID = bundleID
            self.publicKey = publicKey
        }
    }

    /// Apple's error body: `{"errorCode": …, "errorMessage": "…"}`.
    public static func error(status: Int, code: Int, message: String, headers: [(name: String, value: String)] = []) -> LoopbackReply {
        LoopbackReply(status: status, json: ["errorCode": .number(Double(code)), "errorMessage": .string(message)], headers: headers)
    }

    public static let transactionIdNotFound = error(status: 404, code: 4040010, message: "Transaction id not found.")
    public static let invalidTransactionId = error(status: 400, code: 4000006, message: "Invalid transaction id.")
    public static let generalInternal = error(status: 500, code: 5000000, message: "An unknown error occurred.")

    public static func rateLimitExceeded(retryAfterSeconds: Int? = nil) -> LoopbackReply {
        error(status: 429, code: 4290000, message: "Rate limit exceeded.", headers: retryAfterSeconds.map { [("retry-after", "\($0)")] } ?? [])
    }

    /// Apple's answer to a missing or invalid token: 401 with a plain-text body, no error code.
    public static let unauthenticated = LoopbackReply(status: 401, headers: [("content-type", "text/plain")], body: Data("Unauthenticated\n\nRequest ID: LOOPBACK.0.0\n".utf8))

    public static func transactionInfo(_ signedTransactionInfo: String) -> LoopbackReply {
        LoopbackReply(status: 200, json: ["signedTransactionInfo": .string(signedTransactionInfo)])
    }

    /// Answers Get Transaction Info for `transactions` (transaction id → signed JWS), checking
    /// the bearer token against `key` at `now`.
    public static func handler(key: Key, transactions: [String: String], now: @escaping @Sendable () -> Date = { Date() }) -> LoopbackServer.Handler {
        { request in
            guard bearerProblem(request.header("authorization"), key: key, now: now()) == nil else { return unauthenticated }
            let prefix = "/inApps/v1/transactions/"
            guard request.method == "GET", request.uri.hasPrefix(prefix) else {
                return error(status: 404, code: 4040010, message: "Transaction id not found.")
            }
            let id = String(request.uri.dropFirst(prefix.count).prefix { $0 != "?" })
            guard !id.isEmpty, id.allSatisfy({ $0.isASCII && $0.isNumber }) else { return invalidTransactionId }
            return transactions[id].map(transactionInfo) ?? transactionIdNotFound
        }
    }

    /// Why `authorization` is not a valid App Store Server API token for `key` at `now`, or nil
    /// when it is: `Bearer` and a JWT whose header is alg ES256, kid and typ JWT, whose claims
    /// are iss, iat (not in the future), exp (after now, at most 60 minutes after iat), aud
    /// "appstoreconnect-v1" and bid, signed ES256 (raw r‖s) by the key.
    public static func bearerProblem(_ authorization: String?, key: Key, now: Date) -> String? {
        guard let authorization, authorization.hasPrefix("Bearer ") else { return "no bearer token" }
        let parts = authorization.dropFirst("Bearer ".count).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerData = base64URL(parts[0]), let claimsData = base64URL(parts[1]),
              let signatureData = base64URL(parts[2]), let header = JSONValue(parsing: headerData), let claims = JSONValue(parsing: claimsData)
        else { return "not a JWT" }
        guard header["alg"]?.stringValue == "ES256" else { return "alg is not ES256" }
        guard header["kid"]?.stringValue == key.keyID else { return "kid is not the key id" }
        guard header["typ"]?.stringValue == "JWT" else { return "typ is not JWT" }
        guard claims["iss"]?.stringValue == key.issuerID else { return "iss is not the issuer id" }
        guard claims["aud"]?.stringValue == "appstoreconnect-v1" else { return "aud is not appstoreconnect-v1" }
        guard claims["bid"]?.stringValue == key.bundleID else { return "bid is not the bundle id" }
        guard let iat = claims["iat"]?.doubleValue, let exp = claims["exp"]?.doubleValue else { return "no iat or exp" }
        let nowSeconds = now.timeIntervalSince1970
        guard iat <= nowSeconds + 60 else { return "iat is in the future" }
        guard exp > nowSeconds else { return "the token has expired" }
        guard exp - iat <= 3600 else { return "exp is more than 60 minutes after iat" }
        guard signatureData.count == 64, let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureData),
              key.publicKey.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8))
        else { return "the signature is not the key's" }
        return nil
    }

    private static func base64URL(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
