import AppStore
import AppStoreTestSupport
import Foundation
import Testing

/// When the chain must be valid: now for a transaction, the notification's signedDate for a
/// notification (and what it carries).
@Suite struct ValidationTimeTests {
    let now = Date()
    let year: TimeInterval = 365 * 86_400

    @Test func aNotificationSignedWhileTheChainWasValidVerifiesAfterItExpired() async throws {
        let expired = try AppStoreTestCA.expired(now: now)
        let signedThen = now.addingTimeInterval(-1.5 * year)
        let transaction = AppStoreFixtures.transaction(purchased: signedThen, signed: signedThen)
        let payload = AppStoreFixtures.notification(.didRenew, signed: signedThen)
        let notification = try await expired.verifier().verifyNotification(try expired.signNotification(payload, transaction: transaction))
        #expect(notification.transaction == transaction)
    }

    @Test func aNotificationSignedAfterTheChainExpiredIsRefused() async throws {
        let expired = try AppStoreTestCA.expired(now: now)
        let payload = AppStoreFixtures.notification(.didRenew, signed: now)
        await #expect(throws: AppStoreError.self) { try await expired.verifier().verifyNotification(try expired.sign(payload)) }
    }

    @Test func aTransactionIsCheckedAtTheCurrentTimeNotItsSignedDate() async throws {
        let expired = try AppStoreTestCA.expired(now: now)
        let signedThen = now.addingTimeInterval(-1.5 * year)
        let transaction = AppStoreFixtures.transaction(purchased: signedThen, signed: signedThen)
        await #expect(throws: AppStoreError.self) { try await expired.verifier().verifyTransaction(try expired.sign(transaction)) }
        // The verifier's clock decides: at a time inside the chain's validity it verifies.
        let then = try expired.verifier(now: { signedThen })
        #expect(try await then.verifyTransaction(try expired.sign(transaction)) == transaction)
    }

    @Test func aNotificationDatedInTheFutureIsRefused() async throws {
        let ca = try AppStoreTestCA.make()
        let payload = AppStoreFixtures.notification(.subscribed, signed: now.addingTimeInterval(3600))
        let verifier = try ca.verifier(now: { now }), signed = try ca.sign(payload)
        #expect(await refusal { try await verifier.verifyNotification(signed) }?.isUntrustedChain == true)
    }
}
