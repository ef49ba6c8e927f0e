import Calls
import Foundation
import Persistence

/// A caller's plan and usage, read from the database into the pure ledger.
public struct CallAccounts: Sendable {
    public let database: AppDatabase
    public let now: @Sendable () -> Date

    public init(database: AppDatabase, now: @escaping @Sendable () -> Date = { Date() }) {
        self.database = database
        self.now = now
    }

    /// Starts the trial of a new mobile account (registration with `X-App-Type: mobile`).
    public func open(userID: UUID, appType: String = "mobile_consumer") async throws {
        _ = try await CallRepository(database: database).account(for: userID, appType: appType, now: now())
    }

    /// The ledger of everything the user bought and called; the trial starts now if it had not.
    public func ledger(of userID: UUID) async throws -> CallLedger {
        let repository = CallRepository(database: database)
        let account = try await repository.account(for: userID, appType: "mobile_consumer", now: now())
        let purchases = try await repository.transactions(of: userID).compactMap(Self.purchase)
        let calls = try await repository.calls(of: userID).map(Self.ledgerCall)
        return CallLedger(trialStartedAt: account.trialStartedAt, purchases: purchases, calls: calls)
    }

    public func usageStats(of userID: UUID) async throws -> UsageStats {
        try await ledger(of: userID).usageStats(at: now())
    }

    public func permission(of userID: UUID) async throws -> CallPermission {
        let ledger = try await ledger(of: userID)
        return ledger.allowance(at: now()).permission(trialEndsAt: ledger.trialEndsAt)
    }

    static func purchase(_ record: StoreTransactionRow) -> Purchase? {
        guard let product = CallProduct(productID: record.productID) else { return nil }
        return Purchase(
            transactionID: record.transactionID, originalTransactionID: record.originalTransactionID, product: product,
            purchasedAt: record.purchasedAt, expiresAt: record.expiresAt, revokedAt: record.revokedAt)
    }

    static func ledgerCall(_ record: PhoneCallRow) -> LedgerCall {
        LedgerCall(id: record.id, placedAt: record.createdAt, durationSeconds: record.durationSeconds, counts: record.counts)
    }
}
