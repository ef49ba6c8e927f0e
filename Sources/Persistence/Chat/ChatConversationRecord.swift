import FluentKit
import Foundation

/// One chat story of one user. Its people and messages are one JSON document (`document`:
/// `{"characters": [...], "messages": [...]}`), read and written whole: the editor saves the
/// conversation as a unit, and the array keeps the messages' order.
public final class ChatConversationRecord: Model, @unchecked Sendable {
    public static let schema = "chat_conversations"

    @ID(key: .id) public var id: UUID?
    @Parent(key: "owner_id") public var owner: UserRecord
    @Field(key: "title") public var title: String
    /// A `ChatTheme` id.
    @Field(key: "theme") public var theme: String
    @Field(key: "document") public var document: String
    /// Kept beside the document so a list need not decode every conversation.
    @Field(key: "message_count") public var messageCount: Int
    @Field(key: "created_at") public var createdAt: Date
    @Field(key: "updated_at") public var updatedAt: Date
    /// Counts the writes: an edit is written only over the version it read
    /// (`ChatConversationRepository.modify`), and it is the conversation's `ETag`.
    @Field(key: "version") public var version: Int

    public init() {}

    public init(id: UUID? = nil, ownerID: UUID, title: String, theme: String, document: String, messageCount: Int, now: Date) {
        self.id = id
        self.$owner.id = ownerID
        self.title = title
        self.theme = theme
        self.document = document
        self.messageCount = messageCount
        self.createdAt = now
        self.updatedAt = now
        self.version = 0
    }
}
