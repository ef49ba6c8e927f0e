import AppStore
import Crypto
import Foundation

/// How a test JWS is made: as Apple makes it, or tampered in one way.
public enum JWSForm: Sendable {
    /// `{"alg":"ES256","x5c":[leaf, intermediate, root]}`, a raw 64-byte r‖s signature.
    case apple
    /// The same, but the signature DER-encoded (as X.509 and OpenSSL write it), which JWS forbids.
    case derSignature
    /// `{"alg":"none"}` with the x5c kept and an empty signature.
    case algNone
    /// Another `alg` in the header, signed as `.apple` otherwise.
    case algorithm(String)
}

extension AppStoreTestCA {
    /// `payload` (JSON bytes) as a compact JWS signed by this CA's leaf.
    public func signJWS(payload: Data, form: JWSForm = .apple) throws -> String {
        let algorithm: String
        switch form {
        case .apple, .derSignature: algorithm = "ES256"
        case .algNone: algorithm = "none"
        case .algorithm(let name): algorithm = name
        }
        let header = try AppStoreJSON.encoder().encode(Header(alg: algorithm, x5c: try x5c))
        let input = Base64URL.encode(header) + "." + Base64URL.encode(payload)
        let signature = try leafKey.signature(for: Data(input.utf8))
        switch form {
        case .apple, .algorithm: return input + "." + Base64URL.encode(signature.rawRepresentation)
        case .derSignature: return input + "." + Base64URL.encode(signature.derRepresentation)
        case .algNone: return input + "."
        }
    }

    private struct Header: Encodable {
        var alg: String
        var x5c: [String]
    }

    /// A StoreKit 2 transaction as the app would send it (`jwsRepresentation`).
    public func sign(_ transaction: SignedTransaction, form: JWSForm = .apple) throws -> String {
        try signJWS(payload: AppStoreJSON.encoder().encode(transaction), form: form)
    }

    public func sign(_ renewalInfo: SignedRenewalInfo, form: JWSForm = .apple) throws -> String {
        try signJWS(payload: AppStoreJSON.encoder().encode(renewalInfo), form: form)
    }

    /// A notification's `signedPayload`; its data's nested JWS must be signed already (see
    /// ``signNotification(_:transaction:renewalInfo:form:)``).
    public func sign(_ notification: NotificationPayload, form: JWSForm = .apple) throws -> String {
        try signJWS(payload: AppStoreJSON.encoder().encode(notification), form: form)
    }

    /// A notification's `signedPayload` with `transaction` and `renewalInfo` signed into its
    /// data as `signedTransactionInfo` and `signedRenewalInfo` (by this CA, as Apple does).
    public func signNotification(
        _ notification: NotificationPayload, transaction: SignedTransaction? = nil, renewalInfo: SignedRenewalInfo? = nil,
        form: JWSForm = .apple
    ) throws -> String {
        var notification = notification
        var data = notification.data ?? NotificationData()
        if let transaction { data.signedTransactionInfo = try sign(transaction) }
        if let renewalInfo { data.signedRenewalInfo = try sign(renewalInfo) }
        notification.data = data
        return try sign(notification, form: form)
    }
}

/// Tampering after signing.
public enum JWSTampering {
    /// `jws` with its payload replaced by `payload` and the signature kept: what an attacker
    /// who edits a purchase (another product, a later expiry) sends.
    public static func replacingPayload(of jws: String, with payload: Data) -> String {
        var parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        parts[1] = Base64URL.encode(payload)
        return parts.joined(separator: ".")
    }

    /// `jws` with `transaction` as its payload, the signature kept.
    public static func replacingPayload(of jws: String, with transaction: SignedTransaction) throws -> String {
        replacingPayload(of: jws, with: try AppStoreJSON.encoder().encode(transaction))
    }
}
