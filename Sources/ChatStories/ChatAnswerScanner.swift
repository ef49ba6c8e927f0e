import Foundation

/// The parts of a model's answer (`{"title", "characters": [...], "messages": [...]}`) that are
/// complete so far: each person and message once its object has closed.
public struct ChatAnswerParts: Sendable, Hashable {
    public struct Person: Sendable, Hashable {
        public var name: String?
        public var isMe: Bool?
    }

    public struct Line: Sendable, Hashable {
        public var from: String?
        public var text: String?
    }

    public var title: String?
    public var people: [Person] = []
    public var messages: [Line] = []

    public init() {}

    /// The parts of a whole answer already parsed as JSON.
    init(_ object: [String: Any]) {
        title = object["title"] as? String
        people = ((object["characters"] as? [[String: Any]]) ?? []).map(Person.init)
        messages = ((object["messages"] as? [[String: Any]]) ?? []).map(Line.init)
    }
}

extension ChatAnswerParts.Person {
    init(_ object: [String: Any]) {
        self.init(name: object["name"] as? String, isMe: object["is_me"] as? Bool)
    }
}

extension ChatAnswerParts.Line {
    init(_ object: [String: Any]) {
        self.init(from: object["from"] as? String, text: object["text"] as? String)
    }
}

/// Reads a model's answer as it is written, piece by piece, and keeps the parts that are
/// complete (`parts`): the title once its string has closed, each person and each message once
/// its object has. Every byte is looked at once, and each complete part is decoded from its own
/// bytes only, so reading the whole answer is linear in its length however it is cut.
///
/// Like `ChatGeneratedAnswer`, it reads the first JSON object in the text (words or a code fence
/// before it are skipped) and ignores what follows it.
public struct ChatAnswerScanner: Sendable {
    public private(set) var parts = ChatAnswerParts()

    private var bytes: [UInt8] = []
    private var position = 0
    /// The open objects and arrays (`{` or `[`); empty before the answer's object starts.
    private var stack: [UInt8] = []
    private var started = false
    private var finished = false
    private var inString = false
    private var escaped = false
    private var stringStart = 0
    /// At depth 1: the next string is a key (after `{` or `,`).
    private var expectingKey = false
    private var readingKey = false
    private var key: String?
    private var elementStart: Int?

    public init() {}

    /// Reads `piece`; true when a part was completed by it.
    @discardableResult
    public mutating func feed(_ piece: String) -> Bool {
        guard !finished else { return false }
        bytes.append(contentsOf: piece.utf8)
        var completed = false
        while position < bytes.count, !finished {
            completed = read(bytes[position], at: position) || completed
            position += 1
        }
        return completed
    }

    private static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), comma = UInt8(ascii: ",")
    private static let openObject = UInt8(ascii: "{"), closeObject = UInt8(ascii: "}")
    private static let openArray = UInt8(ascii: "["), closeArray = UInt8(ascii: "]")

    /// One byte; true when it completed a part.
    private mutating func read(_ byte: UInt8, at offset: Int) -> Bool {
        guard started else {
            if byte == Self.openObject {
                started = true
                stack = [byte]
                expectingKey = true
            }
            return false
        }
        if inString {
            if escaped {
                escaped = false
            } else if byte == Self.backslash {
                escaped = true
            } else if byte == Self.quote {
                inString = false
                return closeString(at: offset)
            }
            return false
        }
        switch byte {
        case Self.quote:
            inString = true
            stringStart = offset
            readingKey = stack.count == 1 && expectingKey
        case Self.comma where stack.count == 1:
            expectingKey = true
            key = nil
        case Self.openObject, Self.openArray:
            stack.append(byte)
            // An element of the top-level array of people or of messages begins.
            if byte == Self.openObject, stack.count == 3, stack[1] == Self.openArray { elementStart = offset }
        case Self.closeObject, Self.closeArray:
            stack.removeLast()
            if stack.isEmpty {
                finished = true
            } else if stack.count == 2, let start = elementStart {
                elementStart = nil
                return closeElement(bytes[start...offset])
            }
        default:
            break
        }
        return false
    }

    private mutating func closeString(at offset: Int) -> Bool {
        guard stack.count == 1 else { return false }
        let text = Self.decode(bytes[stringStart...offset]) as? String
        if readingKey {
            key = text
            expectingKey = false
            readingKey = false
            return false
        }
        guard key == "title", let text else { return false }
        parts.title = text
        return true
    }

    private mutating func closeElement(_ slice: ArraySlice<UInt8>) -> Bool {
        guard let object = Self.decode(slice) as? [String: Any] else { return false }
        switch key {
        case "characters": parts.people.append(ChatAnswerParts.Person(object))
        case "messages": parts.messages.append(ChatAnswerParts.Line(object))
        default: return false
        }
        return true
    }

    private static func decode(_ slice: ArraySlice<UInt8>) -> Any? {
        try? JSONSerialization.jsonObject(with: Data(slice), options: [.fragmentsAllowed])
    }
}
