import FluentKit
import FluentSQL
import Foundation

/// Chat stories' video exports, always scoped to their owner (except by share token, which is
/// the owner's permission to anyone holding it).
public struct ChatExportRepository: Sendable {
    public let database: any Database

    public init(database: any Database) {
        self.database = database
    }

    public func create(_ record: ChatExportRecord) async throws {
        try await record.create(on: database)
    }

    public func find(_ id: UUID, ownerID: UUID) async throws -> ChatExportRecord? {
        try await ChatExportRecord.query(on: database)
            .filter(\.$id == id).filter(\.$owner.$id == ownerID).first()
    }

    /// The export shared under `token`, whoever asks.
    public func find(shareToken token: String) async throws -> ChatExportRecord? {
        try await ChatExportRecord.query(on: database).filter(\.$shareToken == token).first()
    }

    /// The owner's exports (of one conversation, when given), newest first.
    public func list(ownerID: UUID, conversationID: UUID? = nil, limit: Int = 200) async throws -> [ChatExportRecord] {
        var query = ChatExportRecord.query(on: database).filter(\.$owner.$id == ownerID)
        if let conversationID { query = query.filter(\.$conversationID == conversationID) }
        return try await query.sort(\.$createdAt, .descending).sort(\.$id).limit(limit).all()
    }

    /// The owner's exports started since `start` that have not failed or been cancelled.
    public func started(ownerID: UUID, since start: Date) async throws -> [ChatExportRecord] {
        try await ChatExportRecord.query(on: database)
            .filter(\.$owner.$id == ownerID)
            .filter(\.$createdAt >= start)
            .filter(\.$status !~ ["failed", "cancelled"])
            .all()
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

    public func attach(job jobID: UUID, to record: ChatExportRecord) async throws {
        record.jobID = jobID
        try await record.update(on: database)
    }

    /// Applies `change` to the owner's export and writes it; false when it is gone (deleted
    /// with its conversation while the job ran).
    @discardableResult
    public func update(_ id: UUID, ownerID: UUID, now: Date = Date(), _ change: (ChatExportRecord) -> Void) async throws -> Bool {
        guard let record = try await find(id, ownerID: ownerID) else { return false }
        change(record)
        record.updatedAt = now
        try await record.update(on: database)
        return true
    }

    /// Shares the export under `token` unless it is shared already; returns the export as it is
    /// now (with whichever token won), or nil when the owner has no such export.
    public func share(_ id: UUID, ownerID: UUID, token: String) async throws -> ChatExportRecord? {
        try await ChatExportRecord.query(on: database)
            .filter(\.$id == id).filter(\.$owner.$id == ownerID).filter(\.$shareToken == nil)
            .set(\.$shareToken, to: token)
            .update()
        return try await find(id, ownerID: ownerID)
    }

    /// Ends the export's share link; nil when the owner has no such export.
    public func unshare(_ id: UUID, ownerID: UUID) async throws -> ChatExportRecord? {
        try await ChatExportRecord.query(on: database)
            .filter(\.$id == id).filter(\.$owner.$id == ownerID)
            .set(\.$shareToken, to: nil)
            .update()
        return try await find(id, ownerID: ownerID)
    }
}
