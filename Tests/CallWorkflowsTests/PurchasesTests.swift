import AppStore
import AppStoreTestSupport
import CallWorkflows
import DatabaseTestSupport
import Foundation
import Persistence
import Platform
import Testing

/// The purchase use case on a real database, without HTTP (issue 50): a StoreKit 2 transaction
/// signed by a test CA is verified, kept once, makes the buyer a subscriber and grants the chat
/// stories' premium; a tampered one, another account's, or a refunded one gives nothing.
@Suite("Purchases, without HTTP")
struct PurchasesTests {
    static func withPurchases(_ backend: Backend, _ body: (Purchases, StoryDatabase, AppStoreTestCA) async throws -> Void) async throws {
        let ca = try AppStoreTestCA.make()
        try await withDatabase(backend) { database, _ in
            let purchases = Purchases(database: database.database, services: CallServices(appStore: try ca.verifier()))
            try await body(purchases, database, ca)
        }
    }

    static func user(_ email: String, in database: StoryDatabase) async throws -> UUID {
        try await UserRepository(database: database.database).create(email: email, passwordHash: "h").id
    }

    @Test("a signed purchase makes a basic subscriber once and grants chat premium", arguments: Backend.available)
    func signedPurchase(_ backend: Backend) async throws {
        try await Self.withPurchases(backend) { purchases, database, ca in
            let buyer = try await Self.user("buyer@example.com", in: database)
            let jws = try ca.sign(AppStoreFixtures.transaction(id: "2000000000000001", productID: AppStoreFixtures.basicWeekly))
            let request = Purchases.Request(receiptData: jws, isSandbox: true, product: AppStoreFixtures.basicWeekly)

            let bought = try await purchases.purchase(request, userID: buyer)
            #expect(bought.isNew && bought.product == .basicWeekly)
            #expect(bought.usage.isSubscribed && bought.usage.subscriptionTier == "mobile_basic")
            let again = try await purchases.purchase(request, userID: buyer)
            #expect(!again.isNew && again.message.contains("already"))

            let status = try await purchases.subscriptionStatus(userID: buyer)
            #expect(status.subscriptionStatus == "active" && status.billingCycle == "weekly" && status.appStoreTransactionID == "2000000000000001")
            let premium = try await EntitlementRepository(database: database.database).active(Entitlement.premium, userID: buyer)
            #expect(premium.count == 1)
        }
    }

    @Test("a tampered transaction, another account's, or a refunded one gives nothing", arguments: Backend.available)
    func refusedPurchases(_ backend: Backend) async throws {
        try await Self.withPurchases(backend) { purchases, database, ca in
            let buyer = try await Self.user("buyer@example.com", in: database)
            let other = try await Self.user("other@example.com", in: database)
            let jws = try ca.sign(AppStoreFixtures.transaction(id: "2000000000000011", productID: AppStoreFixtures.basicWeekly))
            _ = try await purchases.purchase(Purchases.Request(receiptData: jws, isSandbox: true, product: AppStoreFixtures.basicWeekly), userID: buyer)

            func refusal(_ receipt: String, product: String, for user: UUID) async -> ServiceError? {
                do {
                    _ = try await purchases.purchase(Purchases.Request(receiptData: receipt, isSandbox: true, product: product), userID: user)
                    return nil
                } catch {
                    return error as? ServiceError
                }
            }
            let stolen = await refusal(jws, product: AppStoreFixtures.basicWeekly, for: other)
            #expect(stolen?.kind == .forbidden && stolen?.code == "purchase_of_another_account")

            let tampered = JWSTampering.replacingPayload(of: jws, with: Data(#"{"productId":"speech_assistant_premium_monthly"}"#.utf8))
            #expect(await refusal(tampered, product: AppStoreFixtures.premiumMonthly, for: other)?.kind == .badRequest)

            let refunded = try ca.sign(AppStoreFixtures.transaction(id: "2000000000000012", productID: AppStoreFixtures.premiumMonthly,
                                                                    revoked: Date().addingTimeInterval(-60)))
            #expect(await refusal(refunded, product: AppStoreFixtures.premiumMonthly, for: other)?.code == "purchase_refunded")

            #expect(try await purchases.subscriptionStatus(userID: other).subscriptionStatus == "none")
            #expect(try await EntitlementRepository(database: database.database).active(Entitlement.premium, userID: other).isEmpty)
        }
    }
}
