import Foundation

/// What a user asks the generator for.
public struct ChatGenerationRequest: Sendable, Hashable, Codable {
    public var prompt: String
    public var genre: ChatGenre
    public var mood: ChatMood
    public var length: ChatLength
    /// How many people, "me" included.
    public var characters: Int

    public static let maxPromptLength = 1_000
    public static let characterRange = 2...6

    public init(prompt: String, genre: ChatGenre = .drama, mood: ChatMood = .dramatic, length: ChatLength = .short, characters: Int = 2) {
        self.prompt = prompt
        self.genre = genre
        self.mood = mood
        self.length = length
        self.characters = characters
    }

    enum CodingKeys: String, CodingKey { case prompt, genre, mood, length, characters }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        prompt = try container.decode(String.self, forKey: .prompt)
        genre = try container.decodeIfPresent(ChatGenre.self, forKey: .genre) ?? .drama
        mood = try container.decodeIfPresent(ChatMood.self, forKey: .mood) ?? .dramatic
        length = try container.decodeIfPresent(ChatLength.self, forKey: .length) ?? .short
        characters = try container.decodeIfPresent(Int.self, forKey: .characters) ?? 2
    }

    public func validated() throws(ChatGenerationError) -> ChatGenerationRequest {
        let trimmed = prompt.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .invalidRequest("Write a prompt: what is the conversation about?") }
        guard trimmed.count <= Self.maxPromptLength else {
            throw .invalidRequest("The prompt is \(trimmed.count) characters long; keep it under \(Self.maxPromptLength).")
        }
        guard Self.characterRange.contains(characters) else {
            throw .invalidRequest("A generated conversation has \(Self.characterRange.lowerBound) to \(Self.characterRange.upperBound) people; \(characters) were asked for.")
        }
        var request = self
        request.prompt = trimmed
        return request
    }
}

public enum ChatGenre: String, Sendable, Hashable, Codable, CaseIterable { case drama, comedy, romance, horror, mystery }
public enum ChatMood: String, Sendable, Hashable, Codable, CaseIterable { case funny, dramatic, scary, romantic }

public enum ChatLength: String, Sendable, Hashable, Codable, CaseIterable {
    case short, medium, long

    /// How many messages a conversation of this length has.
    public var messages: ClosedRange<Int> {
        switch self {
        case .short: 5...10
        case .medium: 10...20
        case .long: 20...30
        }
    }
}

/// Why nothing was generated.
public enum ChatGenerationError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidRequest(String)
    /// The model answered twice with something that is not a usable conversation.
    case unusableAnswer([String])

    public var description: String {
        switch self {
        case .invalidRequest(let message): message
        case .unusableAnswer(let problems):
            "The language model did not write a usable conversation (\(problems.prefix(3).joined(separator: "; "))). Nothing was created; try again, reword the prompt, or choose another model in Settings."
        }
    }
}

/// A model's answer read as a conversation: the JSON found in it (a code fence, words around
/// it or a cut-off end are tolerated), repaired where the intent is plain, refused otherwise.
public enum ChatGeneratedAnswer {
    static let colors = ["#34C759", "#FF9500", "#AF52DE", "#FF2D55", "#5AC8FA", "#FFCC00"]

    /// The conversation in `text`, or the problems that make it unusable.
    public static func conversation(from text: String, for request: ChatGenerationRequest) -> Result<ChatConversation, ChatGenerationError> {
        guard let object = jsonObject(in: text) else { return .failure(.unusableAnswer(["the answer is not JSON"])) }
        return conversation(from: ChatAnswerParts(object), for: request)
    }

    /// The conversation the parts make, or the problems that make it unusable.
    public static func conversation(from parts: ChatAnswerParts, for request: ChatGenerationRequest) -> Result<ChatConversation, ChatGenerationError> {
        var problems: [String] = []
        let characters = people(parts, for: request)
        if characters.count < 2 { problems.append("it names \(characters.count) people, not \(request.characters)") }
        var (messages, strangers) = lines(parts, of: characters)
        if !strangers.isEmpty { problems.append("messages come from people it did not list (\(strangers.sorted().joined(separator: ", ")))") }
        let wanted = request.length.messages
        if messages.count < wanted.lowerBound { problems.append("it has \(messages.count) messages, not \(wanted.lowerBound)–\(wanted.upperBound)") }
        if messages.count > wanted.upperBound { messages = Array(messages.prefix(wanted.upperBound)) }
        if Set(messages.map(\.characterID)).count < 2, !messages.isEmpty { problems.append("only one person speaks") }
        guard problems.isEmpty else { return .failure(.unusableAnswer(problems)) }

        let conversation = ChatConversation(title: title(parts, for: request), characters: characters, messages: messages)
        do {
            try conversation.validate()
        } catch {
            return .failure(.unusableAnswer([error.description]))
        }
        return .success(conversation)
    }

    /// What the parts written so far show, read as a whole answer would be (the same people,
    /// ids and colours), without its checks of counts: nil until two people are named.
    public static func partial(from parts: ChatAnswerParts, for request: ChatGenerationRequest) -> ChatConversation? {
        let characters = people(parts, for: request)
        guard characters.count >= 2 else { return nil }
        let messages = lines(parts, of: characters).messages.prefix(request.length.messages.upperBound)
        return ChatConversation(id: "", title: title(parts, for: request), characters: characters, messages: Array(messages))
    }

    /// The people named, each once, at most as many as asked for; exactly one "me" (the first
    /// who claims it, else the first person).
    static func people(_ parts: ChatAnswerParts, for request: ChatGenerationRequest) -> [ChatCharacter] {
        var characters: [ChatCharacter] = []
        for person in parts.people {
            guard let name = person.name?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty,
                  !characters.contains(where: { $0.name.lowercased() == name.lowercased() }) else { continue }
            characters.append(ChatCharacter(id: "c\(characters.count + 1)", name: String(name.prefix(40)), color: "", isMe: person.isMe ?? false))
        }
        if characters.count > request.characters { characters = Array(characters.prefix(request.characters)) }
        let me = characters.firstIndex(where: \.isMe) ?? 0
        for index in characters.indices {
            characters[index].isMe = index == me
            characters[index].color = index == me ? "#007AFF" : colors[(index - (index > me ? 1 : 0)) % colors.count]
        }
        return characters
    }

    /// The messages sent by `characters` (names match whatever their case), and the names of
    /// senders who are not among them.
    static func lines(_ parts: ChatAnswerParts, of characters: [ChatCharacter]) -> (messages: [ChatMessage], strangers: Set<String>) {
        var messages: [ChatMessage] = []
        var strangers = Set<String>()
        for entry in parts.messages {
            guard let text = entry.text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { continue }
            let from = (entry.from ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            guard let speaker = characters.first(where: { $0.name.lowercased() == from.lowercased() }) else {
                strangers.insert(from)
                continue
            }
            messages.append(ChatMessage(id: "m\(messages.count + 1)", characterID: speaker.id, text: String(text.prefix(ChatLimits.standard.maxMessageLength))))
        }
        return (messages, strangers)
    }

    static func title(_ parts: ChatAnswerParts, for request: ChatGenerationRequest) -> String {
        let title = parts.title?.trimmingCharacters(in: .whitespacesAndNewlines).prefix(80)
        return title.flatMap { $0.isEmpty ? nil : String($0) } ?? String(request.prompt.prefix(60))
    }

    /// The first JSON object in `text`: inside a code fence or words, and, when the answer was
    /// cut off, closed after its last complete element.
    static func jsonObject(in text: String) -> [String: Any]? {
        guard let start = text.firstIndex(of: "{") else { return nil }
        let body = String(text[start...])
        for candidate in [body, String(body[...(body.lastIndex(of: "}") ?? body.startIndex)]), JSONRepair.closingTruncated(body)] {
            if let data = candidate.data(using: .utf8), let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
                return object
            }
        }
        return nil
    }
}

/// Closes JSON cut off mid-way (a model that ran out of tokens): everything after the last
/// complete value is dropped and the open arrays and objects are closed.
enum JSONRepair {
    static func closingTruncated(_ text: String) -> String {
        var stack: [Character] = []
        var inString = false
        var escaped = false
        var lastSafe: (end: String.Index, stack: [Character])?
        for index in text.indices {
            let character = text[index]
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                continue
            }
            switch character {
            case "\"": inString = true
            case "{", "[": stack.append(character)
            case "}", "]":
                guard !stack.isEmpty else { return text }
                stack.removeLast()
                // A value just ended inside an array: a safe place to cut.
                if stack.last == "[" { lastSafe = (text.index(after: index), stack) }
                if stack.isEmpty { return String(text[...index]) }
            default: break
            }
        }
        guard let lastSafe else { return text }
        let closers = lastSafe.stack.reversed().map { $0 == "[" ? "]" : "}" }
        return String(text[..<lastSafe.end]) + closers.joined()
    }
}
