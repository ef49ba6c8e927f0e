import Foundation

/// The edits a user makes to an analysis, as pure functions of it: the server, the CLI and
/// the tests share one definition of merging, adding, reassigning and counting.
extension StoryAnalysis {
    public enum EditError: Error, Equatable, Sendable {
        case unknownCharacter(String)
        case unknownSegment(Int)
        case sameCharacter
    }

    /// Each character's number of dialogue lines, recounted from the segments.
    public mutating func recountLines() {
        var counts: [String: Int] = [:]
        for segment in segments where segment.kind == .dialogue {
            if let speaker = segment.speaker { counts[speaker, default: 0] += 1 }
        }
        for index in characters.indices { characters[index].lines = counts[characters[index].id] ?? 0 }
    }

    /// The id a new character gets: ids stay stable, so a new one takes the next number
    /// (`c7` after `c6`), never the id of a character merged away.
    public var nextCharacterID: String {
        let highest = characters.compactMap { $0.id.first == "c" ? Int($0.id.dropFirst()) : nil }.max() ?? 0
        return "c\(highest + 1)"
    }

    /// Adds `character` under a fresh id (its own id is ignored) and returns that id.
    @discardableResult
    public mutating func add(_ character: Character) -> String {
        var added = character
        added.id = nextCharacterID
        added.lines = 0
        characters.append(added)
        return added.id
    }

    /// Folds character `id` into `survivor`: its lines, name and aliases go to the survivor.
    public mutating func merge(_ id: String, into survivor: String) throws(EditError) {
        guard let from = characters.firstIndex(where: { $0.id == id }) else { throw .unknownCharacter(id) }
        guard let into = characters.firstIndex(where: { $0.id == survivor }) else { throw .unknownCharacter(survivor) }
        guard from != into else { throw .sameCharacter }
        let gone = characters[from]
        for alias in [gone.name] + gone.aliases where !characters[into].aliases.contains(alias) && alias != characters[into].name {
            characters[into].aliases.append(alias)
        }
        for index in segments.indices where segments[index].speaker == id {
            segments[index].speaker = survivor
        }
        characters.remove(at: from)
        recountLines()
    }

    /// Gives segment `index` to `speaker` (a dialogue line the user vouches for), or makes it
    /// narration when `speaker` is nil.
    public mutating func reassign(segment index: Int, to speaker: String?) throws(EditError) {
        guard segments.indices.contains(index) else { throw .unknownSegment(index) }
        if let speaker, character(id: speaker) == nil { throw .unknownCharacter(speaker) }
        segments[index].speaker = speaker
        segments[index].kind = speaker == nil ? .narration : .dialogue
        segments[index].confidence = speaker == nil ? nil : 1
        recountLines()
    }
}

/// A user's change to a character: each field that is set replaces the character's own.
public struct CharacterEdit: Sendable, Hashable {
    public var name: String?
    public var gender: Gender?
    public var ageRange: AgeRange?
    /// An empty text clears the field.
    public var accent: String?
    public var personality: String?
    public var description: String?
    public var aliases: [String]?

    public init(
        name: String? = nil, gender: Gender? = nil, ageRange: AgeRange? = nil, accent: String? = nil,
        personality: String? = nil, description: String? = nil, aliases: [String]? = nil
    ) {
        self.name = name
        self.gender = gender
        self.ageRange = ageRange
        self.accent = accent
        self.personality = personality
        self.description = description
        self.aliases = aliases
    }
}

extension Character {
    /// Applies `edit`. What the user sets is certain (confidence 1), and a model's quotation
    /// stays only while its field still says what the model said.
    public mutating func apply(_ edit: CharacterEdit) {
        if let name = edit.name { self.name = name }
        if let gender = edit.gender {
            if gender != self.gender { dropEvidence(for: .gender) }
            self.gender = gender
            genderConfidence = 1
        }
        if let age = edit.ageRange {
            if age != ageRange { dropEvidence(for: .ageRange) }
            ageRange = age
            ageConfidence = 1
        }
        if let accent = edit.accent.map(Self.optionalText), accent != self.accent {
            self.accent = accent
            dropEvidence(for: .accent)
        }
        if let personality = edit.personality.map(Self.optionalText), personality != self.personality {
            self.personality = personality
            dropEvidence(for: .personality)
        }
        if let description = edit.description.map(Self.optionalText), description != self.description {
            self.description = description
            dropEvidence(for: .description)
        }
        if let aliases = edit.aliases { self.aliases = aliases.compactMap(Self.optionalText) }
    }

    /// Trimmed, at most 300 characters; nil when nothing is left.
    public static func optionalText(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : String(trimmed.prefix(300))
    }
}
