import Crypto
import Foundation
import VendorHTTP

/// What this server signs App Store Server API requests with: an App Store Connect in-app
/// purchase key (the `.p8` file, a PKCS#8 PEM P-256 key), its key id, the team's issuer id and
/// the app's bundle id. The key never prints: not in `description`, dumps or errors.
public struct AppStoreAPICredentials: Sendable, CustomStringConvertible, CustomReflectable {
    public let issuerID: String
    public let keyID: String
    public let bundleID: String
    let signingKey: P256.Signing.PrivateKey

    /// - Throws: ``AppStoreError/notConfigured(_:)`` when a field is empty or `privateKey` is not
    ///   a P-256 key in PEM (the message never quotes the key).
    public init(issuerID: String, keyID: String, bundleID: String, privateKey: Secret) throws(AppStoreError) {
        for (value, variable) in [(issuerID, "APP_STORE_ISSUER_ID"), (keyID, "APP_STORE_KEY_ID"), (bundleID, "APP_STORE_BUNDLE_ID")] where value.isEmpty {
            throw .notConfigured("\(variable) is empty")
        }
        guard let key = try? P256.Signing.PrivateKey(pemRepresentation: privateKey.value.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw .notConfigured("the App Store Connect private key is not a P-256 key in PEM (the .p8 file's contents, BEGIN PRIVATE KEY)")
        }
        self.issuerID = issuerID
        self.keyID = keyID
        self.bundleID = bundleID
        signingKey = key
    }

    public var description: String { "AppStoreAPICredentials(issuer: \(issuerID), key: \(keyID), bundle: \(bundleID), private key: <redacted>)" }
    public var customMirror: Mirror {
        Mirror(self, children: ["issuerID": issuerID, "keyID": keyID, "bundleID": bundleID], displayStyle: .struct)
    }
}

/// The bearer token of the App Store Server API: a JWT signed ES256 with the in-app purchase
/// key, header `alg` ES256, `kid` and `typ` JWT; claims `iss` (issuer id), `iat`, `exp` (Apple
/// refuses more than 60 minutes), `aud` "appstoreconnect-v1" and `bid` (bundle id).
public enum AppStoreAPIToken {
    public static let audience = "appstoreconnect-v1"
    /// Apple allows up to 60 minutes; a fresh token per request needs far less.
    public static let lifetime: TimeInterval = 5 * 60

    private struct Header: Encodable {
        let alg = "ES256"
        let kid: String
        let typ = "JWT"
    }

    private struct Claims: Encodable {
        let iss: String
        let iat: Int64
        let exp: Int64
        let aud: String
        let bid: String
    }

    public static func make(_ credentials: AppStoreAPICredentials, now: Date, lifetime: TimeInterval = lifetime) throws(AppStoreError) -> String {
        let issuedAt = Int64(now.timeIntervalSince1970)
        let claims = Claims(iss: credentials.issuerID, iat: issuedAt, exp: issuedAt + Int64(min(lifetime, 3600)), aud: audience, bid: credentials.bundleID)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            let input = try Base64URL.encode(encoder.encode(Header(kid: credentials.keyID))) + "." + Base64URL.encode(encoder.encode(claims))
            let signature = try credentials.signingKey.signature(for: Data(input.utf8))
            return input + "." + Base64URL.encode(signature.rawRepresentation)
        } catch {
            throw .notConfigured("the App Store Server API token could not be signed")
        }
    }
}
