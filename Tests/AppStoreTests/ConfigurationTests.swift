import AppStore
import AppStoreTestSupport
import Foundation
import Testing

@Suite struct ConfigurationTests {
    @Test func settingsAreReadFromTheEnvironment() throws {
        let key = AppStoreFixtures.apiKey().pem
        let configuration = try AppStoreConfiguration.fromEnvironment([
            "APP_STORE_BUNDLE_ID": "com.storyvoice.calls", "APP_STORE_ENVIRONMENTS": "Production",
            "APP_STORE_APP_APPLE_ID": "1234567890", "APP_STORE_ISSUER_ID": "issuer", "APP_STORE_KEY_ID": "KEY1234567",
            "APP_STORE_PRIVATE_KEY": key, "APP_STORE_API_ENVIRONMENT": "Sandbox",
        ])
        #expect(configuration.bundleID == "com.storyvoice.calls")
        #expect(configuration.environments == [.production])
        #expect(configuration.appAppleID == 1_234_567_890)
        #expect(configuration.api?.keyID == "KEY1234567")
        #expect(configuration.apiEnvironment == .sandbox)
        #expect(try configuration.verifier().environments == [.production])
    }

    @Test func nothingSetMeansOfflineVerificationIsNotConfiguredAndNoAPI() throws {
        let configuration = try AppStoreConfiguration.fromEnvironment([:])
        #expect(configuration.api == nil)
        #expect(configuration.environments == [.production, .sandbox])
        #expect(throws: AppStoreError.notConfigured("no app bundle id is set (APP_STORE_BUNDLE_ID)")) { try configuration.verifier() }
    }

    @Test func aTestCAsConfigurationTrustsThatCAAndNotApple() async throws {
        let ca = try AppStoreTestCA.make()
        let verifier = try ca.configuration(environments: [.sandbox]).verifier()
        #expect(verifier.rootCertificates == [ca.root])
        let transaction = AppStoreFixtures.transaction()
        #expect(try await verifier.verifyTransaction(try ca.sign(transaction)) == transaction)
        let pinned = try AppStoreConfiguration(bundleID: AppStoreFixtures.bundleID).verifier()
        let signed = try ca.sign(transaction)
        #expect(await refusal { try await pinned.verifyTransaction(signed) }?.isUntrustedChain == true)
    }

    @Test func aHalfGivenAPIKeyIsRefusedWithoutQuotingTheKey() {
        do {
            _ = try AppStoreConfiguration.fromEnvironment(["APP_STORE_BUNDLE_ID": "b", "APP_STORE_PRIVATE_KEY": "SECRETMATERIAL"])
            Issue.record("accepted")
        } catch {
            #expect(error.message.contains("APP_STORE_ISSUER_ID"))
            #expect(!error.message.contains("SECRETMATERIAL"))
        }
    }
}
