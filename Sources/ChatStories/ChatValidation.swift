import Foundation

/// The limits a conversation must respect to be kept and exported.
public struct ChatLimits: Sendable, Hashable {
    public var maxCharacters: Int
    public var maxMessages: Int
    /// In grapheme clusters (what a reader counts as characters; an emoji is one).
    public var maxMessageLength: Int
    public var maxTitleLength: Int

    public init(maxCharacters: Int = 8, maxMessages: Int = 1_000, maxMessageLength: Int = 2_000, maxTitleLength: Int = 200) {
        self.maxCharacters = maxCharacters
        self.maxMessages = maxMessages
        self.maxMessageLength = maxMessageLength
        self.maxTitleLength = maxTitleLength
    }

    public static let standard = ChatLimits()
}

extension ChatConversation {
    /// Checks what a kept conversation must satisfy (a draft may still have no messages).
    public func validate(limits: ChatLimits = .standard) throws(ChatStoryError) {
        guard title.count <= limits.maxTitleLength else { throw .titleTooLong(title.count, limit: limits.maxTitleLength) }
        guard characters.count >= 2 else { throw .tooFewCharacters(characters.count) }
        guard characters.count <= limits.maxCharacters else { throw .tooManyCharacters(characters.count, limit: limits.maxCharacters) }
        var seen = Set<String>()
        for (position, character) in characters.enumerated() {
            let name = character.name.trimmingCharacters(in: .whitespacesAndNewlines)
            let person = name.isEmpty ? "person \(position + 1)" : name
            guard seen.insert(character.id).inserted else { throw .duplicateCharacterID(character.id) }
            guard !name.isEmpty else { throw .emptyName(person: person) }
            guard RGBColor(hex: character.color) != nil else { throw .invalidColor(person: person, color: character.color) }
            if let avatar = character.avatarEmoji, !avatar.isEmpty, !Self.isSingleEmoji(avatar) { throw .invalidAvatar(person: person) }
        }
        let senders = characters.filter(\.isMe)
        guard !senders.isEmpty else { throw .noSender }
        guard senders.count == 1 else { throw .severalSenders(senders.map(\.name)) }
        guard messages.count <= limits.maxMessages else { throw .tooManyMessages(messages.count, limit: limits.maxMessages) }
        for (index, message) in messages.enumerated() {
            guard seen.contains(message.characterID) else { throw .unknownCharacter(messageIndex: index, characterID: message.characterID) }
            guard !message.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw .emptyMessage(messageIndex: index) }
            guard message.text.count <= limits.maxMessageLength else {
                throw .messageTooLong(messageIndex: index, characters: message.text.count, limit: limits.maxMessageLength)
            }
        }
    }

    /// Checks that the conversation can be made into a video: valid, with something to show.
    public func validateForExport(limits: ChatLimits = .standard) throws(ChatStoryError) {
        try validate(limits: limits)
        guard !messages.isEmpty else { throw .noMessages }
    }

    /// One grapheme cluster made of emoji (a flag, a family, a skin tone all count as one).
    static func isSingleEmoji(_ text: String) -> Bool {
        guard text.count == 1, let first = text.unicodeScalars.first else { return false }
        return text.unicodeScalars.contains { $0.properties.isEmojiPresentation } || (first.properties.isEmoji && first.value > 0xFF)
    }
}

extension ChatConversation {
    /// Reads a `*.chat.json` file's bytes, saying what is wrong when they are not one.
    public static func decodeFile(_ data: Data) throws(ChatStoryError) -> ChatConversation {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(ChatConversation.self, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            throw .unreadableFile("\"\(key.stringValue)\" is missing\(Self.place(context.codingPath)).")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw .unreadableFile("\(context.debugDescription)\(Self.place(context.codingPath))")
        } catch let DecodingError.dataCorrupted(context) {
            if let value = context.codingPath.last, ["theme", "format", "typing_speed"].contains(value.stringValue) {
                throw .unreadableFile("\"\(value.stringValue)\" has a value that is not offered\(Self.place(context.codingPath)).")
            }
            throw .unreadableFile("it is not JSON (\(context.debugDescription)).")
        } catch {
            throw .unreadableFile("\(error)")
        }
    }

    /// The file's bytes: pretty-printed, keys sorted, dates in ISO 8601.
    public func encodedFile() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return (try? encoder.encode(self)) ?? Data()
    }

    private static func place(_ path: [any CodingKey]) -> String {
        let parts = path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
        return parts.isEmpty ? "" : " (at \(parts.joined(separator: ".").replacingOccurrences(of: ".[", with: "[")))"
    }
}
