import Foundation
import StoryModel

/// A text-message conversation told as a story: who is in it, what they say, in what look.
///
/// The same shape is the API's conversation and the CLI's `*.chat.json` file (snake_case keys,
/// see docs/chat-stories.md), so a conversation moves between them unchanged.
public struct ChatConversation: Sendable, Hashable, Codable {
    public var id: String
    public var title: String
    public var theme: ChatTheme
    public var characters: [ChatCharacter]
    /// In the order they are sent.
    public var messages: [ChatMessage]
    public var createdAt: Date?
    public var updatedAt: Date?
    /// The server's count of writes to the conversation, sent as its `ETag` (not in the JSON):
    /// an edit sent with `If-Match` applies only to that version.
    public var version: Int?

    public init(
        id: String = UUID.random().uuidString.lowercased(), title: String, theme: ChatTheme = .imessage,
        characters: [ChatCharacter] = ChatCharacter.starters, messages: [ChatMessage] = [],
        createdAt: Date? = nil, updatedAt: Date? = nil
    ) {
        self.id = id
        self.title = title
        self.theme = theme
        self.characters = characters
        self.messages = messages
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    enum CodingKeys: String, CodingKey {
        case id, title, theme, characters, messages
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// A file or client may leave out the id, the look and the dates.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeIfPresent(String.self, forKey: .id) ?? UUID.random().uuidString.lowercased()
        title = try container.decodeIfPresent(String.self, forKey: .title) ?? "Untitled chat"
        theme = try container.decodeIfPresent(ChatTheme.self, forKey: .theme) ?? .imessage
        characters = try container.decode([ChatCharacter].self, forKey: .characters)
        messages = try container.decodeIfPresent([ChatMessage].self, forKey: .messages) ?? []
        createdAt = try container.decodeIfPresent(Date.self, forKey: .createdAt)
        updatedAt = try container.decodeIfPresent(Date.self, forKey: .updatedAt)
    }

    public func character(_ id: String) -> ChatCharacter? {
        characters.first { $0.id == id }
    }

    /// The character on the right, who types in the input bar.
    public var me: ChatCharacter? { characters.first(where: \.isMe) }

    /// More than one person on the left: names go above their bubbles.
    public var isGroup: Bool { characters.filter { !$0.isMe }.count > 1 }
}

/// Someone in a conversation. `isMe` puts their bubbles on the right, as the sender's.
public struct ChatCharacter: Sendable, Hashable, Codable {
    public var id: String
    public var name: String
    /// `#RRGGBB`.
    public var color: String
    public var isMe: Bool
    public var avatarEmoji: String?

    public init(id: String = UUID.random().uuidString.lowercased(), name: String, color: String, isMe: Bool, avatarEmoji: String? = nil) {
        self.id = id
        self.name = name
        self.color = color
        self.isMe = isMe
        self.avatarEmoji = avatarEmoji
    }

    enum CodingKeys: String, CodingKey {
        case id, name, color
        case isMe = "is_me"
        case avatarEmoji = "avatar_emoji"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        color = try container.decodeIfPresent(String.self, forKey: .color) ?? "#8E8E93"
        isMe = try container.decodeIfPresent(Bool.self, forKey: .isMe) ?? false
        avatarEmoji = try container.decodeIfPresent(String.self, forKey: .avatarEmoji)
    }

    /// A new conversation's two people: "Me" (the sender) and "Alex".
    public static var starters: [ChatCharacter] {
        [ChatCharacter(name: "Me", color: "#007AFF", isMe: true), ChatCharacter(name: "Alex", color: "#34C759", isMe: false)]
    }
}

/// One message: its text exactly as written (any Unicode, emoji included) and who sends it.
public struct ChatMessage: Sendable, Hashable, Codable {
    public var id: String
    public var characterID: String
    public var text: String
    /// When it was written (shown only as an option; the video times messages itself).
    public var timestamp: Date?

    public init(id: String = UUID.random().uuidString.lowercased(), characterID: String, text: String, timestamp: Date? = nil) {
        self.id = id
        self.characterID = characterID
        self.text = text
        self.timestamp = timestamp
    }

    enum CodingKeys: String, CodingKey {
        case id, text, timestamp
        case characterID = "character_id"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeIfPresent(String.self, forKey: .id) ?? UUID.random().uuidString.lowercased()
        characterID = try container.decode(String.self, forKey: .characterID)
        text = try container.decode(String.self, forKey: .text)
        timestamp = try container.decodeIfPresent(Date.self, forKey: .timestamp)
    }
}
