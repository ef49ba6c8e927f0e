import FluentKit
import FluentSQL
import Foundation

/// Stories, always scoped to their owner: a story that belongs to someone else is not found.
public struct StoryRepository: Sendable {
    let database: any Database

    public init(database: AppDatabase) {
        self.database = database.fluent
    }

    /// Keeps a new story; returns it as kept (with the time the database stamped).
    @discardableResult
    public func create(_ story: StoryRow) async throws -> StoryRow {
        let record = StoryRecord(story)
        try await record.create(on: database)
        return try record.row()
    }

    /// The owner's stories, newest first.
    public func list(ownerID: UUID) async throws -> [StoryRow] {
        try await StoryRecord.query(on: database)
            .filter(\.$owner.$id == ownerID)
            .sort(\.$importedAt, .descending)
            .all().map { try $0.row() }
    }

    public func find(id: UUID, ownerID: UUID) async throws -> StoryRow? {
        try await record(id: id, ownerID: ownerID)?.row()
    }

    /// Applies `change` to the owner's story and writes what it changed (not its version: see
    /// `modify` for edits that must not interleave); nil when the story is gone.
    @discardableResult
    public func update(id: UUID, ownerID: UUID, _ change: (inout StoryRow) throws -> Void) async throws -> StoryRow? {
        guard let record = try await record(id: id, ownerID: ownerID) else { return nil }
        var row = try record.row()
        try change(&row)
        record.apply(row)
        try await record.update(on: database)
        return try record.row()
    }

    /// A conflicting write kept winning: `modify` gave up.
    public struct EditConflict: Error {}

    /// Applies `change` to the owner's story and writes its analysis, voices, render and state
    /// atomically: the write succeeds only if nobody wrote since this read (the row's
    /// `version`); otherwise the story is read again and `change` applied to the fresh row.
    /// So concurrent edits are serialised, and none is lost. Nil when the story is gone.
    @discardableResult
    public func modify(id: UUID, ownerID: UUID, attempts: Int = 20, _ change: (inout StoryRow) throws -> Void) async throws -> StoryRow? {
        let sql = try database.requireSQL()
        let written = try await VersionedRows.modify(
            attempts: attempts, conflict: EditConflict(), read: { try await find(id: id, ownerID: ownerID) }, version: \.version, change: change
        ) { story, seen in
            try await !sql.update(StoryRecord.schema)
                .set("analysis_json", to: story.analysisJSON)
                .set("cast_json", to: story.castJSON)
                .set("render_json", to: story.renderJSON)
                .set("analysis_state", to: story.analysisState.rawValue)
                .set("duration_seconds", to: story.durationSeconds)
                .set("updated_at", to: Date())
                .set(SQLIdentifier("version"), to: VersionedRows.nextVersion)
                .where("id", .equal, id)
                .where("version", .equal, seen)
                .returning("version")
                .all().isEmpty
        }
        guard written != nil else { return nil }
        return try await find(id: id, ownerID: ownerID)
    }

    /// Deletes the story if the owner has it; returns whether anything was deleted.
    @discardableResult
    public func delete(id: UUID, ownerID: UUID) async throws -> Bool {
        guard let story = try await record(id: id, ownerID: ownerID) else { return false }
        try await story.delete(on: database)
        return true
    }

    private func record(id: UUID, ownerID: UUID) async throws -> StoryRecord? {
        try await StoryRecord.query(on: database).filter(\.$id == id).filter(\.$owner.$id == ownerID).first()
    }
}
