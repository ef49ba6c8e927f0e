import FluentKit
import Foundation

/// Voice chat conversations. Every read and write names the owner, so one user never reaches
/// another's conversation (it is simply not found).
public struct VoiceConversationRepository: Sendable {
    public let database: any Database

    public init(database: any Database) {
        self.database = database
    }

    public func create(ownerID: UUID, title: String, now: Date = Date()) async throws -> VoiceConversationRecord {
        let record = VoiceConversationRecord(ownerID: ownerID, title: title, now: now)
        try await record.create(on: database)
        return record
    }

    public func find(_ id: UUID, ownerID: UUID) async throws -> VoiceConversationRecord? {
        try await VoiceConversationRecord.query(on: database)
            .filter(\.$id == id).filter(\.$owner.$id == ownerID).first()
    }

    /// The owner's conversations, most recently used first.
    public func list(ownerID: UUID, limit: Int = 200) async throws -> [VoiceConversationRecord] {
        try await VoiceConversationRecord.query(on: database)
            .filter(\.$owner.$id == ownerID)
            .sort(\.$updatedAt, .descending).sort(\.$id)
            .limit(limit).all()
    }

    public func messages(of conversationID: UUID) async throws -> [VoiceMessageRecord] {
        try await VoiceMessageRecord.query(on: database)
            .filter(\.$conversation.$id == conversationID)
            .sort(\.$position).all()
    }

    /// Adds a message after the last one and marks the conversation used.
    @discardableResult
    public func append(to conversation: VoiceConversationRecord, role: String, text: String, now: Date = Date()) async throws -> VoiceMessageRecord {
        let id = try conversation.requireID()
        return try await database.transaction { database in
            // A write first: a SQLite transaction that has read cannot take the write lock while
            // another connection writes, and fails at once ("database is locked").
            try await VoiceConversationRecord.query(on: database).filter(\.$id == id).set(\.$updatedAt, to: now).update()
            let last = try await VoiceMessageRecord.query(on: database)
                .filter(\.$conversation.$id == id).sort(\.$position, .descending).first()
            let message = VoiceMessageRecord(conversationID: id, position: (last?.position ?? -1) + 1, role: role, text: text, now: now)
            try await message.create(on: database)
            return message
        }
    }

    public func retitle(_ conversation: VoiceConversationRecord, _ title: String) async throws {
        conversation.title = title
        try await conversation.update(on: database)
    }

    /// Replaces a reply's text (what the model wrote by the end of the turn).
    public func update(_ message: VoiceMessageRecord, text: String) async throws {
        message.text = text
        try await message.update(on: database)
    }

    public func remove(_ message: VoiceMessageRecord) async throws {
        try await message.delete(on: database)
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
        guard let record = try await find(id, ownerID: ownerID) else { return false }
        // Deleted here, not left to ON DELETE CASCADE, which SQLite honours only with foreign keys on.
        try await VoiceMessageRecord.query(on: database).filter(\.$conversation.$id == id).delete()
        try await record.delete(on: database)
        return true
    }
}
