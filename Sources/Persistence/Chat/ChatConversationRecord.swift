import FluentKit
import Foundation

/// One chat story of one user, as `ChatConversationRepository` reads and writes it. Its people
/// and messages are one JSON document (`document`: `{"characters": [...], "messages": [...]}`),
/// read and written whole: the editor saves the conversation as a unit, and the array keeps the
/// messages' order.
public struct ChatConversationRow: Sendable, Equatable {
    public var id: UUID
    public var ownerID: UUID
    public var title: String
    /// A `ChatTheme` id.
    public var theme: String
    public var document: String
    /// Kept beside the document so a list need not decode every conversation.
    public var messageCount: Int
    public var createdAt: Date
    public var updatedAt: Date
    /// Counts the writes: an edit is written only over the version it read
    /// (`ChatConversationRepository.modify`), and it is the conversation's `ETag`.
    public var version: Int

    public init(id: UUID, ownerID: UUID, title: String, theme: String, document: String, messageCount: Int, now: Date) {
        self.id = id
        self.ownerID = ownerID
        self.title = title
        self.theme = theme
        self.document = document
        self.messageCount = messageCount
        self.createdAt = now
        self.updatedAt = now
        self.version = 0
    }
}

/// The Fluent model of `chat_conversations`, kept inside Persistence.
final class ChatConversationRecord: Model, @unchecked Sendable {
    static let schema = "chat_conversations"

    @ID(key: .id) var id: UUID?
    @Parent(key: "owner_id") var owner: UserRecord
    @Field(key: "title") var title: String
    @Field(key: "theme") var theme: String
    @Field(key: "document") var document: String
    @Field(key: "message_count") var messageCount: Int
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date
    @Field(key: "version") var version: Int

    init() {}

    init(_ row: ChatConversationRow) {
        id = row.id
        $owner.id = row.ownerID
        title = row.title
        theme = row.theme
        document = row.document
        messageCount = row.messageCount
        createdAt = row.createdAt
        updatedAt = row.updatedAt
        version = row.version
    }

    func row() throws -> ChatConversationRow {
        var row = ChatConversationRow(
            id: try requireID(), ownerID: $owner.id, title: title, theme: theme, document: document, messageCount: messageCount, now: createdAt)
        row.updatedAt = updatedAt
        row.version = version
        return row
    }
}
