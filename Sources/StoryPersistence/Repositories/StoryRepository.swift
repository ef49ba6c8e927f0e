import FluentKit
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

    /// Deletes the story if the owner has it; returns whether anything was deleted.
    @discardableResult
    public func delete(id: UUID, ownerID: UUID) async throws -> Bool {
        guard let story = try await find(id: id, ownerID: ownerID) else { return false }
        try await story.delete(on: database)
        return true
    }
}
