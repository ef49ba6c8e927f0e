import FluentKit
import Foundation

/// One voice chat conversation of one user.
public final class VoiceConversationRecord: Model, @unchecked Sendable {
    public static let schema = "voice_conversations"

    @ID(key: .id) public var id: UUID?
    @Parent(key: "owner_id") public var owner: UserRecord
    /// The first question, shortened.
    @Field(key: "title") public var title: String
    @Field(key: "created_at") public var createdAt: Date
    @Field(key: "updated_at") public var updatedAt: Date

    public init() {}

    public init(id: UUID? = nil, ownerID: UUID, title: String, now: Date) {
        self.id = id
        self.$owner.id = ownerID
        self.title = title
        self.createdAt = now
        self.updatedAt = now
    }
}

/// One message of a conversation: the user's question (typed, or the transcript of their
/// recording) or the assistant's reply.
public final class VoiceMessageRecord: Model, @unchecked Sendable {
    public static let schema = "voice_messages"

    @ID(key: .id) public var id: UUID?
    @Parent(key: "conversation_id") public var conversation: VoiceConversationRecord
    /// 0, 1, 2… in the order spoken.
    @Field(key: "position") public var position: Int
    /// `user` or `assistant`.
    @Field(key: "role") public var role: String
    /// What was said (for a reply: what the model wrote, as far as it got).
    @Field(key: "text") public var text: String
    /// For a reply the user spoke over: the part they heard, which is what the conversation
    /// remembers.
    @OptionalField(key: "heard") public var heard: String?
    @Field(key: "created_at") public var createdAt: Date

    public init() {}

    public init(id: UUID? = nil, conversationID: UUID, position: Int, role: String, text: String, now: Date) {
        self.id = id
        self.$conversation.id = conversationID
        self.position = position
        self.role = role
        self.text = text
        self.createdAt = now
    }

    /// What the conversation remembers of this message.
    public var remembered: String { heard ?? text }
}
