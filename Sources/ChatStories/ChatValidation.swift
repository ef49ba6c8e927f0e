import Foundation

/// The limits a conversation must respect to be kept and exported, in the units that cost.
///
/// Text is drawn by shaping its code points (Unicode scalars): one character (grapheme cluster)
/// costs the square of its code points in Pango/HarfBuzz ("a" with 16,000 accents took 1.5 s to
/// measure, 300,000 took minutes), and everything else is linear in them. So every text is
/// bounded three ways, checked in this order before anything is measured: its code points, the
/// code points of each of its characters, and its characters (what a reader counts).
public struct ChatLimits: Sendable, Hashable {
    public var maxCharacters: Int
    public var maxMessages: Int
    /// In grapheme clusters (what a reader counts as characters; an emoji is one).
    public var maxMessageLength: Int
    /// In code points: four a character on average leaves room for emoji and accents.
    public var maxMessageCodePoints: Int
    public var maxTitleLength: Int
    public var maxTitleCodePoints: Int
    /// A person's name, in characters (the web app's field takes 60) and code points.
    public var maxNameLength: Int
    public var maxNameCodePoints: Int
    /// Code points in one character: a letter and its accents, an emoji sequence (the longest
    /// standard emoji has 10; stream-safe text has at most 30 combining marks in a row).
    public var maxCodePointsPerCharacter: Int
    /// The ids of people and messages, in code points (the web app makes 36-character UUIDs).
    public var maxIDLength: Int

    public init(
        maxCharacters: Int = 8, maxMessages: Int = 1_000, maxMessageLength: Int = 2_000, maxMessageCodePoints: Int = 8_000,
        maxTitleLength: Int = 200, maxTitleCodePoints: Int = 800, maxNameLength: Int = 60, maxNameCodePoints: Int = 240,
        maxCodePointsPerCharacter: Int = 32, maxIDLength: Int = 100
    ) {
        self.maxCharacters = maxCharacters
        self.maxMessages = maxMessages
        self.maxMessageLength = maxMessageLength
        self.maxMessageCodePoints = maxMessageCodePoints
        self.maxTitleLength = maxTitleLength
        self.maxTitleCodePoints = maxTitleCodePoints
        self.maxNameLength = maxNameLength
        self.maxNameCodePoints = maxNameCodePoints
        self.maxCodePointsPerCharacter = maxCodePointsPerCharacter
        self.maxIDLength = maxIDLength
    }

    public static let standard = ChatLimits()
}

/// A text's size in the units that cost, and the first limit it breaks. Linear in the text:
/// the code points are counted before any character is segmented.
enum TextSize {
    enum Excess: Equatable {
        case codePoints(Int)
        case characterCodePoints(Int)
        case characters(Int)
    }

    static func excess(_ text: String, characters: Int, codePoints: Int, perCharacter: Int) -> Excess? {
        let scalars = text.unicodeScalars.count
        if scalars > codePoints { return .codePoints(scalars) }
        // Only texts with some character of several code points need segmenting for that.
        var count = 0
        for character in text {
            let size = character.unicodeScalars.count
            if size > perCharacter { return .characterCodePoints(size) }
            count += 1
        }
        return count > characters ? .characters(count) : nil
    }
}

extension ChatConversation {
    /// Checks what a kept conversation must satisfy (a draft may still have no messages).
    public func validate(limits: ChatLimits = .standard) throws(ChatStoryError) {
        try Self.check(title, what: "The title", characters: limits.maxTitleLength, codePoints: limits.maxTitleCodePoints, limits: limits) { count in
            .titleTooLong(count, limit: limits.maxTitleLength)
        }
        guard characters.count >= 2 else { throw .tooFewCharacters(characters.count) }
        guard characters.count <= limits.maxCharacters else { throw .tooManyCharacters(characters.count, limit: limits.maxCharacters) }
        var seen = Set<String>()
        for (position, character) in characters.enumerated() {
            let name = character.name.trimmingCharacters(in: .whitespacesAndNewlines)
            let person = name.isEmpty ? "person \(position + 1)" : name
            guard character.id.unicodeScalars.count <= limits.maxIDLength else { throw .idTooLong(what: "The id of \(person.prefix(60))", limit: limits.maxIDLength) }
            guard seen.insert(character.id).inserted else { throw .duplicateCharacterID(character.id) }
            guard !name.isEmpty else { throw .emptyName(person: person) }
            try Self.check(character.name, what: "The name of person \(position + 1)", characters: limits.maxNameLength, codePoints: limits.maxNameCodePoints, limits: limits) { count in
                .nameTooLong(person: position + 1, characters: count, limit: limits.maxNameLength)
            }
            guard RGBColor(hex: character.color) != nil else { throw .invalidColor(person: person, color: character.color) }
            if let avatar = character.avatarEmoji, !avatar.isEmpty, !Self.isSingleEmoji(avatar) { throw .invalidAvatar(person: person) }
        }
        let senders = characters.filter(\.isMe)
        guard !senders.isEmpty else { throw .noSender }
        guard senders.count == 1 else { throw .severalSenders(senders.map(\.name)) }
        guard messages.count <= limits.maxMessages else { throw .tooManyMessages(messages.count, limit: limits.maxMessages) }
        for (index, message) in messages.enumerated() {
            guard message.id.unicodeScalars.count <= limits.maxIDLength else { throw .idTooLong(what: "The id of message \(index + 1)", limit: limits.maxIDLength) }
            try Self.check(message.text, what: "Message \(index + 1)", characters: limits.maxMessageLength, codePoints: limits.maxMessageCodePoints, limits: limits) { count in
                .messageTooLong(messageIndex: index, characters: count, limit: limits.maxMessageLength)
            }
            guard seen.contains(message.characterID) else { throw .unknownCharacter(messageIndex: index, characterID: String(message.characterID.prefix(60))) }
            guard !message.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw .emptyMessage(messageIndex: index) }
        }
    }

    /// Refuses `text` (named `what` in the error) when it breaks its limits: its code points,
    /// one character's, then its characters (`tooLong` says that one in the field's own words).
    private static func check(
        _ text: String, what: String, characters: Int, codePoints: Int, limits: ChatLimits, tooLong: (Int) -> ChatStoryError
    ) throws(ChatStoryError) {
        switch TextSize.excess(text, characters: characters, codePoints: codePoints, perCharacter: limits.maxCodePointsPerCharacter) {
        case nil: return
        case .codePoints(let count): throw .tooManyCodePoints(what: what, count: count, limit: codePoints)
        case .characterCodePoints(let count): throw .characterTooComplex(what: what, codePoints: count, limit: limits.maxCodePointsPerCharacter)
        case .characters(let count): throw tooLong(count)
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
