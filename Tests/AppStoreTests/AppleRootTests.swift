import AppStore
import AppStoreTestSupport
import Crypto
import Foundation
import Testing
import X509

@Suite struct AppleRootTests {
    @Test func thePinnedRootIsAppleRootCAG3() throws {
        let der = try AppleRootCertificate.der()
        let fingerprint = SHA256.hash(data: der).map { String(format: "%02x", $0) }.joined()
        #expect(fingerprint == "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179")
        #expect(fingerprint == AppleRootCertificate.fingerprint)
        let root = try AppleRootCertificate.g3()
        #expect(root.subject.description.contains("CN=Apple Root CA - G3"))
        #expect(root.subject == root.issuer)
    }

    @Test func theDefaultVerifierTrustsAppleOnlyNotATestCA() async throws {
        let verifier = try AppStoreVerifier(bundleID: AppStoreFixtures.bundleID)
        #expect(verifier.rootCertificates == [try AppleRootCertificate.g3()])
        let ca = try AppStoreTestCA.make()
        let signed = try ca.sign(AppStoreFixtures.transaction())
        let error = await refusal { try await verifier.verifyTransaction(signed) }
        #expect(error?.isUntrustedChain == true)
    }

    @Test func aVerifierWithoutABundleIDIsNotConfigured() {
        #expect(throws: AppStoreError.self) { try AppStoreVerifier(bundleID: "") }
        let error = AppStoreError.notConfigured("x")
        #expect(!error.isClientError)
        #expect(error.httpStatus == 503)
    }
}
