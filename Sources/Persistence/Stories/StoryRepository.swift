import FluentKit
import FluentSQL
import Foundation

/// Stories, always scoped to their owner: a story that belongs to someone else is not found.
public struct StoryRepository: Sendable {
    public let database: any Database

    public init(database: any Database) {
        self.database = database
    }

    public func create(_ story: StoryRecord) async throws {
        try await story.create(on: database)
    }

    /// The owner's stories, newest first.
    public func list(ownerID: UUID) async throws -> [StoryRecord] {
        try await StoryRecord.query(on: database)
            .filter(\.$owner.$id == ownerID)
            .sort(\.$importedAt, .descending)
            .all()
    }

    public func find(id: UUID, ownerID: UUID) async throws -> StoryRecord? {
        try await StoryRecord.query(on: database)
            .filter(\.$id == id)
            .filter(\.$owner.$id == ownerID)
            .first()
    }

    public func save(_ story: StoryRecord) async throws {
        try await story.save(on: database)
    }

    /// A conflicting write kept winning: `modify` gave up.
    public struct EditConflict: Error {}

    /// Applies `change` to the owner's story and writes its analysis, voices, render and state
    /// atomically: the write succeeds only if nobody wrote since this read (the row's
    /// `version`); otherwise the story is read again and `change` applied to the fresh row.
    /// So concurrent edits are serialised, and none is lost. Nil when the story is gone.
    @discardableResult
    public func modify(id: UUID, ownerID: UUID, attempts: Int = 20, _ change: (StoryRecord) throws -> Void) async throws -> StoryRecord? {
        let written = try await VersionedRows.modify(
            attempts: attempts, conflict: EditConflict(), read: { try await find(id: id, ownerID: ownerID) }, version: \.version, change: { try change($0) }
        ) { story, seen in
            guard let sql = database as? any SQLDatabase else {
                try await story.save(on: database)
                return true
            }
            return try await !sql.update(StoryRecord.schema)
                .set("analysis_json", to: story.analysisJSON)
                .set("cast_json", to: story.castJSON)
                .set("render_json", to: story.renderJSON)
                .set("analysis_state", to: story.analysisStateRaw)
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
        guard let story = try await find(id: id, ownerID: ownerID) else { return false }
        try await story.delete(on: database)
        return true
    }
}
