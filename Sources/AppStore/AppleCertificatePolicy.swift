import SwiftASN1
import X509

/// Apple's own requirements on an App Store signing chain, on top of RFC 5280: exactly leaf,
/// intermediate and root, the intermediate marked as Apple's WWDR intermediate
/// (1.2.840.113635.100.6.2.1) and the leaf as an App Store receipt signer
/// (1.2.840.113635.100.6.11.1). Without these, any certificate Apple's root ever issued
/// through any intermediate (to any developer, for any purpose) could sign a purchase.
struct AppleCertificatePolicy: VerifierPolicy {
    static let intermediateOID: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]
    static let leafOID: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]

    /// Apple marks the OIDs non-critical; none of them needs handling here.
    let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = []

    func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) -> PolicyEvaluationResult {
        guard chain.count == 3 else {
            return .failsToMeetPolicy(reason: "the chain has \(chain.count) certificates, not leaf, intermediate and root")
        }
        guard chain[1].extensions.contains(where: { $0.oid == Self.intermediateOID }) else {
            return .failsToMeetPolicy(reason: "the intermediate certificate is not Apple's WWDR intermediate (no OID 1.2.840.113635.100.6.2.1)")
        }
        guard chain[0].extensions.contains(where: { $0.oid == Self.leafOID }) else {
            return .failsToMeetPolicy(reason: "the signing certificate is not an App Store signer (no OID 1.2.840.113635.100.6.11.1)")
        }
        return .meetsPolicy
    }
}
