import FluentKit
import FluentSQL
import Foundation

/// The calls product's rows, always scoped to one user where a user owns them. Changes are
/// given as closures over the row and written column by column (only what they changed).
public struct CallRepository: Sendable {
    let database: any Database

    public init(database: AppDatabase) {
        self.database = database.fluent
    }

    // MARK: Accounts

    /// The user's calls account, made now (the trial starts) if they have none yet.
    public func account(for userID: UUID, appType: String, now: Date) async throws -> CallAccountRow {
        if let existing = try await CallAccountRecord.query(on: database).filter(\.$user.$id == userID).first() {
            return existing.row
        }
        let account = CallAccountRecord(userID: userID, trialStartedAt: now, appType: appType)
        do {
            try await account.create(on: database)
            return account.row
        } catch {
            // Two first requests at once: the other one made it.
            guard (error as? any DatabaseError)?.isConstraintFailure == true,
                  let made = try await CallAccountRecord.query(on: database).filter(\.$user.$id == userID).first()
            else { throw error }
            return made.row
        }
    }

    // MARK: Calls

    public func calls(of userID: UUID) async throws -> [PhoneCallRow] {
        try await PhoneCallRecord.query(on: database).filter(\.$user.$id == userID).sort(\.$createdAt).sort(\.$id).all().map { try $0.row() }
    }

    public func recentCalls(of userID: UUID, limit: Int) async throws -> [PhoneCallRow] {
        try await PhoneCallRecord.query(on: database).filter(\.$user.$id == userID)
            .sort(\.$createdAt, .descending).sort(\.$id, .descending).limit(limit).all().map { try $0.row() }
    }

    public func callCount(of userID: UUID) async throws -> Int {
        try await PhoneCallRecord.query(on: database).filter(\.$user.$id == userID).count()
    }

    public func call(sid: String) async throws -> PhoneCallRow? {
        try await PhoneCallRecord.query(on: database).filter(\.$callSID == sid).first()?.row()
    }

    public func call(id: Int) async throws -> PhoneCallRow? {
        try await PhoneCallRecord.find(id, on: database)?.row()
    }

    public func call(streamTokenHash: String) async throws -> PhoneCallRow? {
        try await PhoneCallRecord.query(on: database).filter(\.$streamTokenHash == streamTokenHash).first()?.row()
    }

    /// Records a call; its id is the database's.
    public func insertCall(_ new: NewPhoneCall) async throws -> PhoneCallRow {
        let record = PhoneCallRecord(new)
        try await record.create(on: database)
        return try record.row()
    }

    /// Applies `change` to the call and writes what it changed; nil when there is no such call.
    @discardableResult
    public func updateCall(id: Int, _ change: (inout PhoneCallRow) -> Void) async throws -> PhoneCallRow? {
        guard let record = try await PhoneCallRecord.find(id, on: database) else { return nil }
        var row = try record.row()
        change(&row)
        record.apply(row)
        try await record.update(on: database)
        return row
    }

    /// Uses up the call's stream token: true for the one request that found it unused, false
    /// for any other (a replay, or two streams at once with the same token).
    public func useStreamToken(_ hash: String, of callID: Int) async throws -> Bool {
        let used = try await database.requireSQL().update(PhoneCallRecord.schema)
            .set("stream_token_hash", to: SQLLiteral.null)
            .where("id", .equal, callID).where("stream_token_hash", .equal, hash)
            .returning("id").all()
        return !used.isEmpty
    }

    // MARK: Schedules

    public func schedules(of userID: UUID) async throws -> [ScheduledCallRow] {
        try await ScheduledCallRecord.query(on: database).filter(\.$user.$id == userID)
            .sort(\.$scheduledTime, .descending).all().map { try $0.row() }
    }

    public func schedule(id: Int, of userID: UUID) async throws -> ScheduledCallRow? {
        try await ScheduledCallRecord.query(on: database).filter(\.$id == id).filter(\.$user.$id == userID).first()?.row()
    }

    /// The schedule, whoever owns it (for the job that places it).
    public func schedule(id: Int) async throws -> ScheduledCallRow? {
        try await ScheduledCallRecord.find(id, on: database)?.row()
    }

    public func insertSchedule(userID: UUID, phoneNumber: String, scenarioID: String, scheduledTime: Date, now: Date) async throws -> ScheduledCallRow {
        let record = ScheduledCallRecord(userID: userID, phoneNumber: phoneNumber, scenarioID: scenarioID, scheduledTime: scheduledTime, now: now)
        try await record.create(on: database)
        return try record.row()
    }

    /// Applies `change` to the schedule and writes what it changed; nil when there is none.
    @discardableResult
    public func updateSchedule(id: Int, _ change: (inout ScheduledCallRow) -> Void) async throws -> ScheduledCallRow? {
        guard let record = try await ScheduledCallRecord.find(id, on: database) else { return nil }
        var row = try record.row()
        change(&row)
        record.apply(row)
        try await record.update(on: database)
        return row
    }

    // MARK: App Store

    public func transactions(of userID: UUID) async throws -> [StoreTransactionRow] {
        try await StoreTransactionRecord.query(on: database).filter(\.$user.$id == userID).sort(\.$purchasedAt).all().map(\.row)
    }

    public func transaction(id: String) async throws -> StoreTransactionRow? {
        try await transactionRecord(id: id)?.row
    }

    /// Applies `change` to the transaction and writes what it changed; nil when it is not kept.
    @discardableResult
    public func updateTransaction(id: String, _ change: (inout StoreTransactionRow) -> Void) async throws -> StoreTransactionRow? {
        guard let record = try await transactionRecord(id: id) else { return nil }
        var row = record.row
        change(&row)
        record.apply(row)
        try await record.update(on: database)
        return row
    }

    /// Who bought the subscription `originalTransactionID` first: renewals and refunds that
    /// arrive as notifications belong to them.
    public func owner(ofOriginalTransaction originalTransactionID: String) async throws -> UUID? {
        try await StoreTransactionRecord.query(on: database)
            .filter(\.$originalTransactionID == originalTransactionID).sort(\.$purchasedAt).first()?.$user.id
    }

    /// Keeps a transaction once. False when it was already kept (a duplicate is answered, not
    /// counted twice).
    public func insertIfNew(_ transaction: StoreTransactionRow) async throws -> Bool {
        if try await self.transaction(id: transaction.transactionID) != nil { return false }
        do {
            try await StoreTransactionRecord(transaction).create(on: database)
            return true
        } catch let error as any DatabaseError where error.isConstraintFailure {
            return false
        }
    }

    /// Keeps a notification once. False for a retry of one already received.
    public func insertIfNew(_ notification: StoreNotificationRow) async throws -> Bool {
        let existing = try await StoreNotificationRecord.query(on: database)
            .filter(\.$notificationUUID == notification.notificationUUID).first()
        if existing != nil { return false }
        do {
            try await StoreNotificationRecord(notification).create(on: database)
            return true
        } catch let error as any DatabaseError where error.isConstraintFailure {
            return false
        }
    }

    public func notification(id: UUID) async throws -> StoreNotificationRow? {
        try await StoreNotificationRecord.find(id, on: database)?.row()
    }

    /// Applies `change` to the notification and writes what it changed; nil when there is none.
    @discardableResult
    public func updateNotification(id: UUID, _ change: (inout StoreNotificationRow) -> Void) async throws -> StoreNotificationRow? {
        guard let record = try await StoreNotificationRecord.find(id, on: database) else { return nil }
        var row = try record.row()
        change(&row)
        record.apply(row)
        try await record.update(on: database)
        return row
    }

    // MARK: Custom scenarios

    public func customScenarios(of userID: UUID) async throws -> [CustomScenarioRow] {
        try await CustomScenarioRecord.query(on: database).filter(\.$user.$id == userID).sort(\.$createdAt).all().map { try $0.row() }
    }

    public func customScenarioCount(of userID: UUID) async throws -> Int {
        try await CustomScenarioRecord.query(on: database).filter(\.$user.$id == userID).count()
    }

    public func customScenario(id: UUID, of userID: UUID) async throws -> CustomScenarioRow? {
        try await scenarioRecord(id: id, of: userID)?.row()
    }

    public func createScenario(_ scenario: CustomScenarioRow) async throws {
        try await CustomScenarioRecord(scenario).create(on: database)
    }

    /// Applies `change` to the user's scenario and writes what it changed; nil when they have none.
    public func updateScenario(id: UUID, of userID: UUID, _ change: (inout CustomScenarioRow) throws -> Void) async throws -> CustomScenarioRow? {
        guard let record = try await scenarioRecord(id: id, of: userID) else { return nil }
        var row = try record.row()
        try change(&row)
        record.apply(row)
        try await record.update(on: database)
        return row
    }

    /// Deletes the user's scenario; false when they have none.
    public func deleteScenario(id: UUID, of userID: UUID) async throws -> Bool {
        guard let record = try await scenarioRecord(id: id, of: userID) else { return false }
        try await record.delete(on: database)
        return true
    }

    private func transactionRecord(id: String) async throws -> StoreTransactionRecord? {
        try await StoreTransactionRecord.query(on: database).filter(\.$transactionID == id).first()
    }

    private func scenarioRecord(id: UUID, of userID: UUID) async throws -> CustomScenarioRecord? {
        try await CustomScenarioRecord.query(on: database).filter(\.$id == id).filter(\.$user.$id == userID).first()
    }
}
