import FluentKit
import FluentSQL
import Foundation

/// Chat stories' video exports, always scoped to their owner (except by share token, which is
/// the owner's permission to anyone holding it).
public struct ChatExportRepository: Sendable {
    let database: any Database

    public init(database: AppDatabase) {
        self.database = database.fluent
    }

    public func create(_ row: ChatExportRow) async throws {
        try await ChatExportRecord(row).create(on: database)
    }

    public func find(_ id: UUID, ownerID: UUID) async throws -> ChatExportRow? {
        try await record(id, ownerID: ownerID)?.row()
    }

    /// The export shared under `token`, whoever asks.
    public func find(shareToken token: String) async throws -> ChatExportRow? {
        try await ChatExportRecord.query(on: database).filter(\.$shareToken == token).first()?.row()
    }

    /// The owner's exports (of one conversation, when given), newest first.
    public func list(ownerID: UUID, conversationID: UUID? = nil, limit: Int = 200) async throws -> [ChatExportRow] {
        var query = ChatExportRecord.query(on: database).filter(\.$owner.$id == ownerID)
        if let conversationID { query = query.filter(\.$conversationID == conversationID) }
        return try await query.sort(\.$createdAt, .descending).sort(\.$id).limit(limit).all().map { try $0.row() }
    }

    /// The owner's exports started since `start` that have not failed or been cancelled.
    public func started(ownerID: UUID, since start: Date) async throws -> [ChatExportRow] {
        try await ChatExportRecord.query(on: database)
            .filter(\.$owner.$id == ownerID)
            .filter(\.$createdAt >= start)
            .filter(\.$status !~ ["failed", "cancelled"])
            .all().map { try $0.row() }
    }

    /// Takes the owner's row lock (PostgreSQL) or the write lock (SQLite) inside a transaction,
    /// so that counting the exports of the day and adding one cannot interleave with another
    /// request of the same user.
    public func lockOwner(_ ownerID: UUID) async throws {
        try await database.requireSQL().update(UserRecord.schema)
            .set("email", to: SQLIdentifier("email"))
            .where("id", .equal, ownerID)
            .run()
    }

    /// Records the job that makes the export.
    public func attach(job jobID: UUID, to id: UUID) async throws {
        try await ChatExportRecord.query(on: database).filter(\.$id == id).set(\.$jobID, to: jobID).update()
    }

    /// Applies `change` to the owner's export and writes it; false when it is gone (deleted
    /// with its conversation while the job ran).
    @discardableResult
    public func update(_ id: UUID, ownerID: UUID, now: Date = Date(), _ change: (inout ChatExportRow) -> Void) async throws -> Bool {
        guard let record = try await record(id, ownerID: ownerID) else { return false }
        var row = try record.row()
        change(&row)
        row.updatedAt = now
        record.set(row)
        try await record.update(on: database)
        return true
    }

    /// Shares the export under `token` unless it is shared already; returns the export as it is
    /// now (with whichever token won), or nil when the owner has no such export.
    public func share(_ id: UUID, ownerID: UUID, token: String) async throws -> ChatExportRow? {
        try await ChatExportRecord.query(on: database)
            .filter(\.$id == id).filter(\.$owner.$id == ownerID).filter(\.$shareToken == nil)
            .set(\.$shareToken, to: token)
            .update()
        return try await find(id, ownerID: ownerID)
    }

    /// Ends the export's share link; nil when the owner has no such export.
    public func unshare(_ id: UUID, ownerID: UUID) async throws -> ChatExportRow? {
        try await ChatExportRecord.query(on: database)
            .filter(\.$id == id).filter(\.$owner.$id == ownerID)
            .set(\.$shareToken, to: nil)
            .update()
        return try await find(id, ownerID: ownerID)
    }

    private func record(_ id: UUID, ownerID: UUID) async throws -> ChatExportRecord? {
        try await ChatExportRecord.query(on: database)
            .filter(\.$id == id).filter(\.$owner.$id == ownerID).first()
    }
}
