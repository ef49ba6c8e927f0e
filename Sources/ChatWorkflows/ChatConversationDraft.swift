import ChatStories
import Foundation

/// A conversation as a client sends it to create or change one: every field may be left out.
/// Creating, what is left out takes its default (the starter pair of people, the free look);
/// replacing, it stays as it is, so `{"title": …}` alone renames.
public struct ChatConversationDraft: Sendable, Codable, Equatable {
    public var title: String?
    public var theme: ChatTheme?
    public var characters: [ChatCharacter]?
    public var messages: [ChatMessage]?

    public init(title: String? = nil, theme: ChatTheme? = nil, characters: [ChatCharacter]? = nil, messages: [ChatMessage]? = nil) {
        self.title = title
        self.theme = theme
        self.characters = characters
        self.messages = messages
    }

    /// Every field of `conversation` but its id and dates.
    public init(_ conversation: ChatConversation) {
        self.init(title: conversation.title, theme: conversation.theme, characters: conversation.characters, messages: conversation.messages)
    }

    /// `conversation` with the draft's fields in place of its own.
    func applied(to conversation: ChatConversation) -> ChatConversation {
        var changed = conversation
        if let title { changed.title = Self.cleanTitle(title) }
        if let theme { changed.theme = theme }
        if let characters { changed.characters = characters }
        if let messages { changed.messages = messages }
        return changed
    }

    static let untitled = "Untitled chat"

    static func cleanTitle(_ title: String) -> String {
        let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? untitled : trimmed
    }
}

/// A conversation in a list: enough to show a row without its messages.
public struct ChatConversationSummary: Sendable, Codable, Equatable {
    public var id: UUID
    public var title: String
    public var theme: ChatTheme
    public var messageCount: Int
    public var createdAt: Date
    public var updatedAt: Date

    enum CodingKeys: String, CodingKey {
        case id, title, theme
        case messageCount = "message_count"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }
}
