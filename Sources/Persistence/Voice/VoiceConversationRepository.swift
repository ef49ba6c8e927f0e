import FluentKit
import Foundation
import StoryModel

/// Voice chat conversations. Every read and write names the owner, so one user never reaches
/// another's conversation (it is simply not found).
public struct VoiceConversationRepository: Sendable {
    let database: any Database

    public init(database: AppDatabase) {
        self.database = database.fluent
    }

    public func create(ownerID: UUID, title: String, now: Date = Date()) async throws -> VoiceConversationRow {
        let record = VoiceConversationRecord(id: UUID.random(), ownerID: ownerID, title: title, now: now)
        try await record.create(on: database)
        return try record.row()
    }

    public func find(_ id: UUID, ownerID: UUID) async throws -> VoiceConversationRow? {
        try await VoiceConversationRecord.query(on: database)
            .filter(\.$id == id).filter(\.$owner.$id == ownerID).first()?.row()
    }

    /// The owner's conversations, most recently used first.
    public func list(ownerID: UUID, limit: Int = 200) async throws -> [VoiceConversationRow] {
        try await VoiceConversationRecord.query(on: database)
            .filter(\.$owner.$id == ownerID)
            .sort(\.$updatedAt, .descending).sort(\.$id)
            .limit(limit).all().map { try $0.row() }
    }

    public func messages(of conversationID: UUID) async throws -> [VoiceMessageRow] {
        try await VoiceMessageRecord.query(on: database)
            .filter(\.$conversation.$id == conversationID)
            .sort(\.$position).all().map { try $0.row() }
    }

    /// Adds a message after the last one and marks the conversation used.
    @discardableResult
    public func append(to conversationID: UUID, role: String, text: String, now: Date = Date()) async throws -> VoiceMessageRow {
        try await database.transaction { database in
            // A write first: a SQLite transaction that has read cannot take the write lock while
            // another connection writes, and fails at once ("database is locked").
            try await VoiceConversationRecord.query(on: database).filter(\.$id == conversationID).set(\.$updatedAt, to: now).update()
            let last = try await VoiceMessageRecord.query(on: database)
                .filter(\.$conversation.$id == conversationID).sort(\.$position, .descending).first()
            let message = VoiceMessageRecord(
                id: UUID.random(), conversationID: conversationID, position: (last?.position ?? -1) + 1, role: role, text: text, now: now)
            try await message.create(on: database)
            return try message.row()
        }
    }

    public func retitle(_ conversationID: UUID, _ title: String) async throws {
        try await VoiceConversationRecord.query(on: database).filter(\.$id == conversationID).set(\.$title, to: title).update()
    }

    /// Replaces a reply's text (what the model wrote by the end of the turn).
    public func update(message id: UUID, text: String) async throws {
        try await VoiceMessageRecord.query(on: database).filter(\.$id == id).set(\.$text, to: text).update()
    }

    public func remove(message id: UUID) async throws {
        try await VoiceMessageRecord.query(on: database).filter(\.$id == id).delete()
    }

    /// Records how much of the conversation's last reply was heard. False when the last
    /// message is not a reply.
    public func markHeard(_ heard: String, in conversationID: UUID) async throws -> Bool {
        guard let last = try await VoiceMessageRecord.query(on: database)
            .filter(\.$conversation.$id == conversationID).sort(\.$position, .descending).first(),
            last.role == "assistant"
        else { return false }
        last.heard = heard
        try await last.update(on: database)
        return true
    }

    public func delete(_ id: UUID, ownerID: UUID) async throws -> Bool {
        guard try await find(id, ownerID: ownerID) != nil else { return false }
        // Deleted here, not left to ON DELETE CASCADE, which SQLite honours only with foreign keys on.
        try await VoiceMessageRecord.query(on: database).filter(\.$conversation.$id == id).delete()
        try await VoiceConversationRecord.query(on: database).filter(\.$id == id).filter(\.$owner.$id == ownerID).delete()
        return true
    }
}
