import FluentKit
import Foundation

/// One voice chat conversation of one user, as `VoiceConversationRepository` reads it.
public struct VoiceConversationRow: Sendable, Equatable {
    public var id: UUID
    public var ownerID: UUID
    /// The first question, shortened.
    public var title: String
    public var createdAt: Date
    public var updatedAt: Date
}

/// One message of a conversation: the user's question (typed, or the transcript of their
/// recording) or the assistant's reply.
public struct VoiceMessageRow: Sendable, Equatable {
    public var id: UUID
    public var conversationID: UUID
    /// 0, 1, 2… in the order spoken.
    public var position: Int
    /// `user` or `assistant`.
    public var role: String
    /// What was said (for a reply: what the model wrote, as far as it got).
    public var text: String
    /// For a reply the user spoke over: the part they heard, which is what the conversation
    /// remembers.
    public var heard: String?
    public var createdAt: Date

    /// What the conversation remembers of this message.
    public var remembered: String { heard ?? text }
}

/// The Fluent model of `voice_conversations`, kept inside Persistence.
final class VoiceConversationRecord: Model, @unchecked Sendable {
    static let schema = "voice_conversations"

    @ID(key: .id) var id: UUID?
    @Parent(key: "owner_id") var owner: UserRecord
    @Field(key: "title") var title: String
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    init(id: UUID, ownerID: UUID, title: String, now: Date) {
        self.id = id
        self.$owner.id = ownerID
        self.title = title
        self.createdAt = now
        self.updatedAt = now
    }

    func row() throws -> VoiceConversationRow {
        VoiceConversationRow(id: try requireID(), ownerID: $owner.id, title: title, createdAt: createdAt, updatedAt: updatedAt)
    }
}

/// The Fluent model of `voice_messages`, kept inside Persistence.
final class VoiceMessageRecord: Model, @unchecked Sendable {
    static let schema = "voice_messages"

    @ID(key: .id) var id: UUID?
    @Parent(key: "conversation_id") var conversation: VoiceConversationRecord
    @Field(key: "position") var position: Int
    @Field(key: "role") var role: String
    @Field(key: "text") var text: String
    @OptionalField(key: "heard") var heard: String?
    @Field(key: "created_at") var createdAt: Date

    init() {}

    init(id: UUID, conversationID: UUID, position: Int, role: String, text: String, now: Date) {
        self.id = id
        self.$conversation.id = conversationID
        self.position = position
        self.role = role
        self.text = text
        self.createdAt = now
    }

    func row() throws -> VoiceMessageRow {
        VoiceMessageRow(
            id: try requireID(), conversationID: $conversation.id, position: position, role: role, text: text, heard: heard, createdAt: createdAt)
    }
}
