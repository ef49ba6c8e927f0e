import Foundation

/// What is wrong with a conversation or an export, said so that the user knows what to do.
public enum ChatStoryError: Error, Sendable, Equatable, CustomStringConvertible {
    case noMessages
    case tooFewCharacters(Int)
    case tooManyCharacters(Int, limit: Int)
    case noSender
    case severalSenders([String])
    case duplicateCharacterID(String)
    /// People are named by their name, or "person N" when they have none.
    case emptyName(person: String)
    case invalidColor(person: String, color: String)
    case invalidAvatar(person: String)
    case unknownCharacter(messageIndex: Int, characterID: String)
    case emptyMessage(messageIndex: Int)
    case messageTooLong(messageIndex: Int, characters: Int, limit: Int)
    case tooManyMessages(Int, limit: Int)
    case titleTooLong(Int, limit: Int)
    /// A person's name, by their place in the list (1-based).
    case nameTooLong(person: Int, characters: Int, limit: Int)
    /// A text (`what`: "Message 3", "The title", "The name of person 2") with more code points
    /// than its field takes.
    case tooManyCodePoints(what: String, count: Int, limit: Int)
    /// A text with one character (grapheme cluster) built of more code points than any takes.
    case characterTooComplex(what: String, codePoints: Int, limit: Int)
    case idTooLong(what: String, limit: Int)
    case invalidFrameRate(Int)
    case unreadableFile(String)

    public var description: String {
        switch self {
        case .noMessages:
            "The conversation has no messages yet. Add at least one message, then export it."
        case .tooFewCharacters(let count):
            "A conversation needs at least two people; it has \(count). Add someone to talk to."
        case .tooManyCharacters(let count, let limit):
            "A conversation can have at most \(limit) people; it has \(count). Remove \(count - limit)."
        case .noSender:
            "Nobody in the conversation is \"me\" (the sender, on the right). Choose who is \"me\"."
        case .severalSenders(let names):
            "Only one person can be \"me\"; \(names.joined(separator: ", ")) all are. Choose one."
        case .duplicateCharacterID(let id):
            "Two people share the id \"\(id)\". Give each person their own id."
        case .emptyName(let person):
            "\(person.prefix(1).uppercased() + person.dropFirst()) has no name. Give them a name."
        case .invalidColor(let person, let color):
            "The colour \"\(color)\" of \(person) is not a colour. Use #RRGGBB, for example #34C759."
        case .invalidAvatar(let person):
            "The avatar of \(person) must be a single emoji (or nothing)."
        case .unknownCharacter(let index, let characterID):
            "Message \(index + 1) is sent by \"\(characterID)\", who is not in the conversation. Pick one of its people."
        case .emptyMessage(let index):
            "Message \(index + 1) is empty. Write something or delete it."
        case .messageTooLong(let index, let characters, let limit):
            "Message \(index + 1) is \(grouped(characters)) characters long; a message can be at most \(grouped(limit)). Split it into shorter messages."
        case .tooManyMessages(let count, let limit):
            "The conversation has \(grouped(count)) messages; it can have at most \(grouped(limit)). Split it into several stories."
        case .titleTooLong(let count, let limit):
            "The title is \(count) characters long; it can be at most \(limit)."
        case .nameTooLong(let person, let characters, let limit):
            "The name of person \(person) is \(grouped(characters)) characters long; a name can be at most \(limit)."
        case .tooManyCodePoints(let what, let count, let limit):
            "\(what) has \(grouped(count)) code points (each letter, accent and part of an emoji counts); it can have at most \(grouped(limit)). Shorten it."
        case .characterTooComplex(let what, let codePoints, let limit):
            "\(what) has a character built of \(grouped(codePoints)) code points (a letter with its accents, or an emoji sequence); a character can have at most \(limit). Remove the extra accents."
        case .idTooLong(let what, let limit):
            "\(what) is longer than \(limit) code points; use a shorter id."
        case .invalidFrameRate(let fps):
            "\(fps) frames a second is not offered; choose 30 or 60."
        case .unreadableFile(let reason):
            "The conversation file could not be read: \(reason)"
        }
    }
}

/// 10000 as "10,000", whatever the machine's locale.
func grouped(_ number: Int) -> String {
    let digits = String(number.magnitude)
    let groups = stride(from: digits.count, to: 0, by: -3).reversed().map { end in
        digits[digits.index(digits.startIndex, offsetBy: max(0, end - 3))..<digits.index(digits.startIndex, offsetBy: end)]
    }
    return (number < 0 ? "-" : "") + groups.joined(separator: ",")
}

extension ChatStoryError: LocalizedError {
    public var errorDescription: String? { description }
}
