import FluentKit
import Foundation

/// The calls product's rows, always scoped to one user where a user owns them.
public struct CallRepository: Sendable {
    public let database: any Database

    public init(database: any Database) {
        self.database = database
    }

    // MARK: Accounts

    /// The user's calls account, made now (the trial starts) if they have none yet.
    public func account(for userID: UUID, appType: String, now: Date) async throws -> CallAccountRecord {
        if let existing = try await CallAccountRecord.query(on: database).filter(\.$user.$id == userID).first() {
            return existing
        }
        let account = CallAccountRecord(userID: userID, trialStartedAt: now, appType: appType)
        do {
            try await account.create(on: database)
            return account
        } catch {
            // Two first requests at once: the other one made it.
            guard (error as? any DatabaseError)?.isConstraintFailure == true,
                  let made = try await CallAccountRecord.query(on: database).filter(\.$user.$id == userID).first()
            else { throw error }
            return made
        }
    }

    // MARK: Calls

    public func calls(of userID: UUID) async throws -> [PhoneCallRecord] {
        try await PhoneCallRecord.query(on: database).filter(\.$user.$id == userID).sort(\.$createdAt).sort(\.$id).all()
    }

    public func recentCalls(of userID: UUID, limit: Int) async throws -> [PhoneCallRecord] {
        try await PhoneCallRecord.query(on: database).filter(\.$user.$id == userID)
            .sort(\.$createdAt, .descending).sort(\.$id, .descending).limit(limit).all()
    }

    public func callCount(of userID: UUID) async throws -> Int {
        try await PhoneCallRecord.query(on: database).filter(\.$user.$id == userID).count()
    }

    public func call(sid: String) async throws -> PhoneCallRecord? {
        try await PhoneCallRecord.query(on: database).filter(\.$callSID == sid).first()
    }

    public func call(id: Int) async throws -> PhoneCallRecord? {
        try await PhoneCallRecord.find(id, on: database)
    }

    public func call(streamTokenHash: String) async throws -> PhoneCallRecord? {
        try await PhoneCallRecord.query(on: database).filter(\.$streamTokenHash == streamTokenHash).first()
    }

    // MARK: Schedules

    public func schedules(of userID: UUID) async throws -> [ScheduledCallRecord] {
        try await ScheduledCallRecord.query(on: database).filter(\.$user.$id == userID)
            .sort(\.$scheduledTime, .descending).all()
    }

    public func schedule(id: Int, of userID: UUID) async throws -> ScheduledCallRecord? {
        try await ScheduledCallRecord.query(on: database).filter(\.$id == id).filter(\.$user.$id == userID).first()
    }

    // MARK: App Store

    public func transactions(of userID: UUID) async throws -> [StoreTransactionRecord] {
        try await StoreTransactionRecord.query(on: database).filter(\.$user.$id == userID).sort(\.$purchasedAt).all()
    }

    public func transaction(id: String) async throws -> StoreTransactionRecord? {
        try await StoreTransactionRecord.query(on: database).filter(\.$transactionID == id).first()
    }

    /// Who bought the subscription `originalTransactionID` first: renewals and refunds that
    /// arrive as notifications belong to them.
    public func owner(ofOriginalTransaction originalTransactionID: String) async throws -> UUID? {
        try await StoreTransactionRecord.query(on: database)
            .filter(\.$originalTransactionID == originalTransactionID).sort(\.$purchasedAt).first()?.$user.id
    }

    /// Keeps a transaction once. False when it was already kept (a duplicate is answered, not
    /// counted twice).
    public func insertIfNew(_ transaction: StoreTransactionRecord) async throws -> Bool {
        if try await self.transaction(id: transaction.transactionID) != nil { return false }
        do {
            try await transaction.create(on: database)
            return true
        } catch let error as any DatabaseError where error.isConstraintFailure {
            return false
        }
    }

    /// Keeps a notification once. False for a retry of one already received.
    public func insertIfNew(_ notification: StoreNotificationRecord) async throws -> Bool {
        let existing = try await StoreNotificationRecord.query(on: database)
            .filter(\.$notificationUUID == notification.notificationUUID).first()
        if existing != nil { return false }
        do {
            try await notification.create(on: database)
            return true
        } catch let error as any DatabaseError where error.isConstraintFailure {
            return false
        }
    }

    public func notification(id: UUID) async throws -> StoreNotificationRecord? {
        try await StoreNotificationRecord.find(id, on: database)
    }

    // MARK: Custom scenarios

    public func customScenarios(of userID: UUID) async throws -> [CustomScenarioRecord] {
        try await CustomScenarioRecord.query(on: database).filter(\.$user.$id == userID).sort(\.$createdAt).all()
    }

    public func customScenarioCount(of userID: UUID) async throws -> Int {
        try await CustomScenarioRecord.query(on: database).filter(\.$user.$id == userID).count()
    }

    public func customScenario(id: UUID, of userID: UUID) async throws -> CustomScenarioRecord? {
        try await CustomScenarioRecord.query(on: database).filter(\.$id == id).filter(\.$user.$id == userID).first()
    }
}
