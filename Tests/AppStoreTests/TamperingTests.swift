import AppStore
import AppStoreTestSupport
import Foundation
import Testing

/// Each way a purchase can be forged or damaged, refused with the reason it deserves.
@Suite struct TamperingTests {
    let ca: AppStoreTestCA
    let transaction = AppStoreFixtures.transaction()

    init() throws {
        ca = try AppStoreTestCA.make()
    }

    /// The failure `jws` meets at a verifier that trusts `ca` only.
    private func failure(_ jws: String, environments: Set<AppStoreEnvironment> = [.production, .sandbox]) async throws -> AppStoreError? {
        let verifier = try ca.verifier(environments: environments)
        let error = await refusal { try await verifier.verifyTransaction(jws) }
        #expect(error?.isClientError == true)
        #expect(error?.httpStatus == 400)
        #expect(error?.message.hasPrefix("The purchase could not be verified as Apple's") == true)
        return error
    }

    @Test func aChainToAnotherRootIsRefused() async throws {
        let other = try AppStoreTestCA.make(name: "Not Apple")
        #expect(try await failure(try other.sign(transaction))?.isUntrustedChain == true)
    }

    @Test func aLeafWithoutTheAppStoreSignerOIDIsRefused() async throws {
        // Same root as the verifier trusts: only the OID is missing.
        let missing = try AppStoreTestCA.make(leafOID: false)
        let verifier = try missing.verifier(), signed = try missing.sign(transaction)
        let error = await refusal { try await verifier.verifyTransaction(signed) }
        #expect(error?.chainReason?.contains("1.2.840.113635.100.6.11.1") == true)
    }

    @Test func anIntermediateWithoutTheWWDROIDIsRefused() async throws {
        let missing = try AppStoreTestCA.make(intermediateOID: false)
        let verifier = try missing.verifier(), signed = try missing.sign(transaction)
        let error = await refusal { try await verifier.verifyTransaction(signed) }
        #expect(error?.chainReason?.contains("1.2.840.113635.100.6.2.1") == true)
    }

    @Test func theSameCAWithBothOIDsIsAccepted() async throws {
        // The control for the two OID tests: what fails there is the OID, not the CA's making.
        let decoded = try await ca.verifier().verifyTransaction(try ca.sign(transaction))
        #expect(decoded.transactionId == transaction.transactionId)
    }

    @Test func aDEREncodedSignatureIsRefused() async throws {
        #expect(try await failure(try ca.sign(transaction, form: .derSignature))?.isBadSignature == true)
    }

    @Test func algNoneIsRefused() async throws {
        #expect(try await failure(try ca.sign(transaction, form: .algNone)) == .unsupportedAlgorithm("none"))
    }

    @Test func anotherAlgorithmIsRefused() async throws {
        #expect(try await failure(try ca.sign(transaction, form: .algorithm("HS256"))) == .unsupportedAlgorithm("HS256"))
    }

    @Test func anExpiredChainIsRefused() async throws {
        let expired = try AppStoreTestCA.expired()
        let verifier = try expired.verifier(), signed = try expired.sign(transaction)
        let error = await refusal { try await verifier.verifyTransaction(signed) }
        #expect(error?.chainReason?.hasPrefix("a certificate in the chain had expired at ") == true)
        #expect(error?.message.contains("Restore purchases") == true)
    }

    @Test func aPayloadAlteredAfterSigningIsRefused() async throws {
        var richer = transaction
        richer.productId = AppStoreFixtures.premiumMonthly
        richer.expiresDate = Date().addingTimeInterval(10 * 365 * 86_400)
        let forged = try JWSTampering.replacingPayload(of: try ca.sign(transaction), with: richer)
        #expect(try await failure(forged)?.isBadSignature == true)
    }

    @Test func anotherAppsPurchaseIsRefused() async throws {
        let other = AppStoreFixtures.transaction(bundleID: "com.example.other")
        #expect(try await failure(try ca.sign(other)) == .wrongApp(expected: AppStoreFixtures.bundleID, found: "com.example.other"))
    }

    @Test func aSandboxPurchaseIsRefusedByAProductionOnlyServer() async throws {
        let error = try await failure(try ca.sign(AppStoreFixtures.transaction(environment: .sandbox)), environments: [.production])
        #expect(error == .wrongEnvironment(found: "Sandbox", accepted: ["Production"]))
        #expect(error?.message.contains("Sandbox") == true)
    }

    @Test func notAJWSIsRefusedAsMalformed() async throws {
        #expect(try await failure("base64_encoded_receipt_from_app_store")?.isMalformed == true)
        #expect(try await failure("a.b!.c")?.isMalformed == true)
    }

    @Test func aNotificationWithABadSignatureIsRefused() async throws {
        let signed = try ca.sign(AppStoreFixtures.notification(.refund), form: .derSignature)
        await #expect(throws: AppStoreError.self) { try await ca.verifier().verifyNotification(signed) }
        let foreign = try AppStoreTestCA.make(name: "Stranger").sign(AppStoreFixtures.notification(.refund))
        await #expect(throws: AppStoreError.self) { try await ca.verifier().verifyNotification(foreign) }
    }
}
