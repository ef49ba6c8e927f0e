import FluentKit
import FluentSQL
import Foundation

/// Chat stories' conversations. Every read and write names the owner, so one user never
/// reaches another's conversation (it is simply not found).
public struct ChatConversationRepository: Sendable {
    let database: any Database

    public init(database: AppDatabase) {
        self.database = database.fluent
    }

    public func create(_ row: ChatConversationRow) async throws {
        try await ChatConversationRecord(row).create(on: database)
    }

    public func find(_ id: UUID, ownerID: UUID) async throws -> ChatConversationRow? {
        try await ChatConversationRecord.query(on: database)
            .filter(\.$id == id).filter(\.$owner.$id == ownerID).first()?.row()
    }

    /// The owner's conversations, most recently edited first.
    public func list(ownerID: UUID, limit: Int = 500) async throws -> [ChatConversationRow] {
        try await ChatConversationRecord.query(on: database)
            .filter(\.$owner.$id == ownerID)
            .sort(\.$updatedAt, .descending).sort(\.$id)
            .limit(limit).all().map { try $0.row() }
    }

    /// Other writes kept winning: `modify` gave up.
    public struct EditConflict: Error {}

    /// Applies `change` to the owner's conversation and writes its title, look and document
    /// atomically: only over the version `change` saw; after another write, `change` is applied
    /// again to the fresh row (see `VersionedRows`). Returns the row as written (its `version`
    /// the new one), or nil when the owner has no such conversation.
    public func modify(
        _ id: UUID, ownerID: UUID, now: Date = Date(), attempts: Int = 20, _ change: (inout ChatConversationRow) throws -> Void
    ) async throws -> ChatConversationRow? {
        let sql = try database.requireSQL()
        return try await VersionedRows.modify(
            attempts: attempts, conflict: EditConflict(), read: { try await find(id, ownerID: ownerID) }, version: \.version, change: change
        ) { row, seen in
            let written = try await sql.update(ChatConversationRecord.schema)
                .set("title", to: row.title)
                .set("theme", to: row.theme)
                .set("document", to: row.document)
                .set("message_count", to: row.messageCount)
                .set("updated_at", to: now)
                .set(SQLIdentifier("version"), to: VersionedRows.nextVersion)
                .where("id", .equal, id).where("owner_id", .equal, ownerID)
                .where("version", .equal, seen)
                .returning("version")
                .all()
            guard let version = try written.first?.decode(column: "version", as: Int.self) else { return false }
            row.version = version
            row.updatedAt = now
            return true
        }
    }

    /// Deletes the conversation and its exports; returns the exports' video paths (relative to
    /// the data directory) for the caller to remove, or nil when the owner has no such conversation.
    public func delete(_ id: UUID, ownerID: UUID) async throws -> [String]? {
        try await database.transaction { database in
            // Writes only, no read first: a SQLite transaction that has read cannot take the write
            // lock while another connection writes, and fails at once ("database is locked").
            // Exports are deleted here, not left to ON DELETE CASCADE, which SQLite honours only
            // with foreign keys on.
            let sql = try database.requireSQL()
            let files = try await sql.delete(from: ChatExportRecord.schema)
                .where("owner_id", .equal, ownerID).where("conversation_id", .equal, id)
                .returning("file_path").all()
                .compactMap { try $0.decode(column: "file_path", as: String?.self) }
            let deleted = try await sql.delete(from: ChatConversationRecord.schema)
                .where("id", .equal, id).where("owner_id", .equal, ownerID)
                .returning("id").all()
            return deleted.isEmpty ? nil : files
        }
    }
}
