import Crypto
import Foundation
@_spi(FixedExpiryValidationTime) import X509

/// Verifies what the App Store signs, offline: StoreKit 2 transactions the app sends and App
/// Store Server Notifications V2 Apple posts. A payload is accepted only when
///
/// 1. its header says `alg` ES256 and carries an `x5c` of three certificates;
/// 2. leaf and intermediate chain to one of `rootCertificates` (the pinned Apple Root CA - G3
///    by default) under RFC 5280 at the validation time, with Apple's OIDs on leaf
///    (1.2.840.113635.100.6.11.1) and intermediate (1.2.840.113635.100.6.2.1);
/// 3. the signature is a raw 64-byte r‖s ES256 signature of `header.payload` by the leaf's key
///    (a DER-encoded signature is refused, as JWS requires);
/// 4. its bundle id is `bundleID` and its environment one of `environments`.
///
/// Validation time: a transaction (or renewal info) the app sends is checked at the current
/// time: its `signedDate` is the sender's to choose, and a fresh one can always be had from the
/// app or the App Store Server API. A notification is checked at its own `signedDate` (which
/// may not lie in the future), as Apple's library does offline, so a notification Apple retries
/// for days still verifies after a certificate rolled over; the transaction and renewal info
/// inside it, signed by Apple at the same moment, are checked at that time too.
public struct AppStoreVerifier: Sendable {
    public let rootCertificates: [Certificate]
    public let bundleID: String
    public let environments: Set<AppStoreEnvironment>
    /// Checked against production notifications when set (Apple's library requires it there).
    public let appAppleID: Int64?
    public let now: @Sendable () -> Date
    /// How far a notification's `signedDate` may run ahead of our clock.
    public static let clockSkew: TimeInterval = 300

    /// - Parameters:
    ///   - rootCertificates: the trust anchors; nil pins Apple Root CA - G3 from the bundle.
    ///   - environments: the environments accepted; Production and Sandbox by default (a
    ///     production server that must refuse Sandbox purchases passes `[.production]`). Xcode
    ///     and LocalTesting payloads are not signed by Apple, so they verify only against
    ///     roots given here for that purpose.
    /// - Throws: ``AppStoreError/notConfigured(_:)`` without a bundle id or a root.
    public init(
        rootCertificates: [Certificate]? = nil, bundleID: String, environments: Set<AppStoreEnvironment> = [.production, .sandbox],
        appAppleID: Int64? = nil, now: @escaping @Sendable () -> Date = { Date() }
    ) throws(AppStoreError) {
        guard !bundleID.isEmpty else { throw .notConfigured("no app bundle id is set (APP_STORE_BUNDLE_ID)") }
        guard !environments.isEmpty else { throw .notConfigured("no App Store environment is accepted (APP_STORE_ENVIRONMENTS)") }
        let roots: [Certificate]
        if let rootCertificates { roots = rootCertificates } else { roots = [try AppleRootCertificate.g3()] }
        guard !roots.isEmpty else { throw .notConfigured("no root certificate to trust") }
        self.rootCertificates = roots
        self.bundleID = bundleID
        self.environments = environments
        self.appAppleID = appAppleID
        self.now = now
    }

    /// A StoreKit 2 transaction (`Transaction.jwsRepresentation`, or `signedTransactionInfo`
    /// from the App Store Server API), verified and decoded.
    public func verifyTransaction(_ jws: String) async throws(AppStoreError) -> SignedTransaction {
        try await transaction(jws, validationTime: now())
    }

    /// A subscription's signed renewal info, verified and decoded.
    public func verifyRenewalInfo(_ jws: String) async throws(AppStoreError) -> SignedRenewalInfo {
        try await renewalInfo(jws, validationTime: now())
    }

    /// An App Store Server Notification V2's `signedPayload`, verified and decoded, with its
    /// `signedTransactionInfo` and `signedRenewalInfo` verified too.
    public func verifyNotification(_ signedPayload: String) async throws(AppStoreError) -> AppStoreNotification {
        let jws = try CompactJWS(signedPayload)
        let payload: NotificationPayload = try Self.decode(jws.payload, as: "notification")
        guard let signedDate = payload.signedDate else {
            throw .malformed("the notification has no signedDate")
        }
        guard signedDate <= now().addingTimeInterval(Self.clockSkew) else {
            throw .untrustedChain("the notification claims to be signed in the future")
        }
        try await verifySignature(jws, validationTime: signedDate)
        let subject = payload.subject
        try check(bundleID: subject.bundleId, environment: subject.environment)
        if subject.environment == .production, let appAppleID, subject.appAppleId != appAppleID {
            throw .wrongApp(expected: "app \(appAppleID)", found: subject.appAppleId.map { "app \($0)" })
        }
        var notification = AppStoreNotification(payload: payload)
        if let signed = payload.data?.signedTransactionInfo {
            notification.transaction = try await transaction(signed, validationTime: signedDate)
        }
        if let signed = payload.data?.signedRenewalInfo {
            notification.renewalInfo = try await renewalInfo(signed, validationTime: signedDate)
        }
        return notification
    }

    private func transaction(_ text: String, validationTime: Date) async throws(AppStoreError) -> SignedTransaction {
        let jws = try CompactJWS(text)
        let transaction: SignedTransaction = try Self.decode(jws.payload, as: "transaction")
        try await verifySignature(jws, validationTime: validationTime)
        try check(bundleID: transaction.bundleId, environment: transaction.environment)
        return transaction
    }

    private func renewalInfo(_ text: String, validationTime: Date) async throws(AppStoreError) -> SignedRenewalInfo {
        let jws = try CompactJWS(text)
        let info: SignedRenewalInfo = try Self.decode(jws.payload, as: "renewal info")
        try await verifySignature(jws, validationTime: validationTime)
        try check(bundleID: nil, environment: info.environment)
        return info
    }

    private func check(bundleID found: String?, environment: AppStoreEnvironment?) throws(AppStoreError) {
        // Renewal info names no bundle (nil is passed for it); everything else must name ours.
        if let found, found != bundleID { throw .wrongApp(expected: bundleID, found: found) }
        guard let environment, environments.contains(environment) else {
            throw .wrongEnvironment(found: environment?.rawValue, accepted: environments.map(\.rawValue).sorted())
        }
    }

    /// Steps 1–3: algorithm, chain and signature. The payload is trusted only after this.
    private func verifySignature(_ jws: CompactJWS, validationTime: Date) async throws(AppStoreError) {
        guard jws.algorithm == "ES256" else { throw .unsupportedAlgorithm(jws.algorithm) }
        guard let x5c = jws.certificateChain, x5c.count == 3 else {
            throw .untrustedChain("the header's x5c has \(jws.certificateChain?.count ?? 0) certificates, not 3")
        }
        let certificates = try x5c.map { (text: String) throws(AppStoreError) -> Certificate in
            guard let der = Data(base64Encoded: text), let certificate = try? Certificate(derEncoded: Array(der)) else {
                throw .untrustedChain("a certificate in x5c cannot be read")
            }
            return certificate
        }
        var verifier = Verifier(rootCertificates: CertificateStore(rootCertificates)) {
            RFC5280Policy(fixedExpiryValidationTime: validationTime)
            AppleCertificatePolicy()
        }
        // The x5c root is not used: the chain must end at a root we hold.
        let result = await verifier.validate(leaf: certificates[0], intermediates: CertificateStore([certificates[1]]))
        guard case .validCertificate = result else {
            if case .couldNotValidate(let failures) = result, !failures.isEmpty {
                let reasons = Set(failures.map { Self.summary(of: $0.policyFailureReason.description, at: validationTime) }).sorted()
                throw .untrustedChain(reasons.joined(separator: "; "))
            }
            throw .untrustedChain("no chain leads to a trusted root")
        }
        guard let key = P256.Signing.PublicKey(certificates[0].publicKey) else {
            throw .badSignature("the signing certificate's key is not P-256")
        }
        guard jws.signature.count == 64, let signature = try? P256.Signing.ECDSASignature(rawRepresentation: jws.signature) else {
            throw .badSignature("an ES256 signature is 64 bytes (r‖s), this one is \(jws.signature.count)")
        }
        guard key.isValidSignature(signature, for: jws.signingInput) else {
            throw .badSignature("ES256 verification failed")
        }
    }

    /// swift-certificates' reasons print whole certificates; the user needs the gist.
    private static func summary(of reason: String, at time: Date) -> String {
        let when = time.formatted(.iso8601)
        if reason.hasSuffix("has expired") { return "a certificate in the chain had expired at \(when)" }
        if reason.hasSuffix("is not yet valid") { return "a certificate in the chain was not yet valid at \(when)" }
        if reason.hasSuffix("is not marked as a CA") { return "a certificate that issues another is not a CA" }
        return String(reason.prefix(160))
    }

    private static func decode<T: Decodable>(_ payload: Data, as what: String) throws(AppStoreError) -> T {
        do {
            return try AppStoreJSON.decoder().decode(T.self, from: payload)
        } catch {
            throw .malformed("the \(what) payload is not the JSON Apple signs (\(Self.describe(error)))")
        }
    }

    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "unreadable JSON" }
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context), .dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? "unreadable JSON" : "field \(path) has the wrong type"
        @unknown default:
            return "unreadable JSON"
        }
    }
}
