import AppStore
import Crypto
import Foundation
import SwiftASN1
import X509

/// A certificate authority shaped like Apple's App Store signing chain (root → intermediate →
/// leaf, all P-256), made at test time so nothing in the repository expires. The intermediate
/// carries Apple's WWDR OID (1.2.840.113635.100.6.2.1) and the leaf the App Store receipt
/// signer OID (1.2.840.113635.100.6.11.1), unless a test asks for one to be left out.
///
/// A verifier trusts it through ``verifier(bundleID:environments:appAppleID:now:)``; a second
/// CA made with ``make(name:leafOID:intermediateOID:validFrom:validUntil:)`` is the "wrong root".
public struct AppStoreTestCA: Sendable {
    public let root: Certificate
    public let intermediate: Certificate
    public let leaf: Certificate
    /// The key the leaf certifies: what signs the JWS.
    public let leafKey: P256.Signing.PrivateKey

    /// One CA for a whole test run (valid from yesterday for a year), for suites that configure
    /// a server once; tests of broken chains make their own.
    public static let shared: AppStoreTestCA = {
        do { return try make() } catch { fatalError("the test CA could not be made: \(error)") }
    }()

    /// Settings for a server under test that trusts this CA instead of Apple: `bundleID`,
    /// Production and Sandbox accepted, and the server API (when `api` is given) at `apiBaseURL`.
    public func configuration(
        bundleID: String = AppStoreFixtures.bundleID, environments: Set<AppStoreEnvironment> = [.production, .sandbox],
        api: AppStoreAPICredentials? = nil, apiBaseURL: String? = nil
    ) -> AppStoreConfiguration {
        AppStoreConfiguration(bundleID: bundleID, environments: environments, api: api, apiBaseURL: apiBaseURL, rootCertificates: [root])
    }

    public static let leafOID: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]
    public static let intermediateOID: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]

    /// - Parameters:
    ///   - leafOID, intermediateOID: false leaves Apple's OID off that certificate.
    ///   - validFrom, validUntil: every certificate's validity (default: yesterday to a year on).
    public static func make(
        name: String = "StoryVoice Test", leafOID: Bool = true, intermediateOID: Bool = true,
        validFrom: Date = Date().addingTimeInterval(-86_400), validUntil: Date = Date().addingTimeInterval(365 * 86_400)
    ) throws -> AppStoreTestCA {
        let rootKey = P256.Signing.PrivateKey(), intermediateKey = P256.Signing.PrivateKey(), leafKey = P256.Signing.PrivateKey()
        let rootName = try DistinguishedName { CommonName("\(name) Root CA - G3"); OrganizationName("\(name)") }
        let intermediateName = try DistinguishedName { CommonName("\(name) WWDR CA - G6"); OrganizationName("\(name)") }
        let leafName = try DistinguishedName { CommonName("\(name) Prod ECC Mac App Store and iTunes Store Receipt Signing") }
        func certificate(
            serial: Int, key: P256.Signing.PrivateKey, subject: DistinguishedName, issuer: DistinguishedName,
            issuerKey: P256.Signing.PrivateKey, extensions: Certificate.Extensions
        ) throws -> Certificate {
            try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(serial), publicKey: .init(key.publicKey),
                notValidBefore: validFrom, notValidAfter: validUntil, issuer: issuer, subject: subject,
                signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions, issuerPrivateKey: .init(issuerKey)
            )
        }
        // Apple's OID extensions are non-critical and hold an ASN.1 NULL.
        let null: ArraySlice<UInt8> = [0x05, 0x00]
        let root = try certificate(serial: 1, key: rootKey, subject: rootName, issuer: rootName, issuerKey: rootKey, extensions: try Certificate.Extensions {
            Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
            Critical(KeyUsage(keyCertSign: true, cRLSign: true))
        })
        let intermediate = try certificate(serial: 2, key: intermediateKey, subject: intermediateName, issuer: rootName, issuerKey: rootKey, extensions: try Certificate.Extensions {
            Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
            Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            if intermediateOID { Certificate.Extension(oid: intermediateOIDValue, critical: false, value: null) }
        })
        let leaf = try certificate(serial: 3, key: leafKey, subject: leafName, issuer: intermediateName, issuerKey: intermediateKey, extensions: try Certificate.Extensions {
            Critical(BasicConstraints.notCertificateAuthority)
            Critical(KeyUsage(digitalSignature: true))
            if leafOID { Certificate.Extension(oid: leafOIDValue, critical: false, value: null) }
        })
        return AppStoreTestCA(root: root, intermediate: intermediate, leaf: leaf, leafKey: leafKey)
    }

    // Result builders cannot read the static properties of the type being built in a closure.
    private static let intermediateOIDValue = intermediateOID
    private static let leafOIDValue = leafOID

    /// A chain that expired a year ago (valid for the year before that).
    public static func expired(now: Date = Date()) throws -> AppStoreTestCA {
        try make(validFrom: now.addingTimeInterval(-2 * 365 * 86_400), validUntil: now.addingTimeInterval(-365 * 86_400))
    }

    /// The header's `x5c`: leaf, intermediate, root, each standard base64 DER.
    public var x5c: [String] {
        get throws { try [leaf, intermediate, root].map { try Self.der($0).base64EncodedString() } }
    }

    public var rootDER: Data {
        get throws { try Self.der(root) }
    }

    static func der(_ certificate: Certificate) throws -> Data {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return Data(serializer.serializedBytes)
    }

    /// A verifier that trusts this CA's root instead of Apple's.
    public func verifier(
        bundleID: String = AppStoreFixtures.bundleID, environments: Set<AppStoreEnvironment> = [.production, .sandbox],
        appAppleID: Int64? = nil, now: @escaping @Sendable () -> Date = { Date() }
    ) throws -> AppStoreVerifier {
        try AppStoreVerifier(rootCertificates: [root], bundleID: bundleID, environments: environments, appAppleID: appAppleID, now: now)
    }
}
