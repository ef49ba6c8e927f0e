import Foundation

/// A story's pronunciation fixes: word or phrase → respelling ("Hermione" → "her-MY-oh-nee",
/// "Cholmondeley" → "Chumley"), and, for engines that read phonemes (espeak-ng, Piper), the
/// exact phonemes. Applied to the text handed to an engine, never to the story.
///
/// Matching ignores case and happens on whole words (a key never matches inside a longer
/// word; "Hermione's" matches "Hermione"); longer keys win over shorter ones that overlap.
/// A respelling keeps a capital where the matched word had one and the respelling has none,
/// so sentence starts stay sentence starts for the engine's prosody. Phonemes go in verbatim
/// as `[[...]]` (case is meaningful in espeak-ng's notation).
public struct PronunciationLexicon: Codable, Sendable, Hashable {
    /// Key (as written by the user) → how to say it.
    public private(set) var entries: [String: Entry]

    /// How to say one word: a respelling any engine reads, and/or phonemes for the engines
    /// that take them. An engine with neither gets the word unchanged.
    public struct Entry: Sendable, Hashable, ExpressibleByStringLiteral {
        public var respelling: String?
        /// Engine id → phonemes in that engine's notation, without the `[[ ]]`.
        public var phonemes: [String: String]

        public init(respelling: String? = nil, phonemes: [String: String] = [:]) {
            self.respelling = respelling
            self.phonemes = phonemes
        }

        public init(stringLiteral respelling: String) { self.init(respelling: respelling) }

        /// What `engine` is given for this word: its phonemes when it takes phonemes and has
        /// some (its own, else those given for another engine of the same notation: Piper's IPA
        /// serves Kokoro), else the respelling, else nil (the word stays as written).
        func form(for engine: String) -> Form? {
            if let notation = PronunciationLexicon.phonemeEngines[engine] {
                let sameNotation = PronunciationLexicon.phonemeEngines.filter { $0.value == notation }.keys.sorted()
                if let phonemes = phonemes[engine] ?? sameNotation.lazy.compactMap({ phonemes[$0] }).first {
                    return .phonemes(phonemes, notation)
                }
            }
            return respelling.map(Form.respelling)
        }
    }

    enum Form: Equatable {
        case respelling(String)
        case phonemes(String, PhonemeNotation)
    }

    /// How an engine writes phonemes (its `[[...]]` input).
    public enum PhonemeNotation: String, Sendable, Hashable {
        /// espeak-ng's ASCII phoneme mnemonics (`fr'amt@n`), as `espeak-ng -x` prints them.
        case espeakMnemonics
        /// IPA as espeak-ng's phonemizer writes it for Piper (`fɹˈæmtən`), one symbol per character.
        case ipa
    }

    /// The engines that read `[[phonemes]]` inline in their text, by engine id. espeak-ng does
    /// so by default; Piper (piper-tts 1.8) passes `[[ ]]` blocks to the model as raw IPA, and
    /// Kokoro's worker does the same.
    /// flite, festival and the cloud engines would read the brackets aloud, so they get the
    /// respelling. (Ids as `EspeakEngine` and `PiperEngine` name themselves.)
    public static let phonemeEngines: [String: PhonemeNotation] = ["espeak-ng": .espeakMnemonics, "piper": .ipa, "kokoro": .ipa, "hibari": .ipa]

    /// A lexicon of respellings only.
    public init(_ respellings: [String: String] = [:]) {
        self.init(entries: respellings.mapValues { Entry(respelling: $0) })
    }

    public init(entries: [String: Entry]) {
        self.entries = [:]
        for (word, entry) in entries { self[word] = entry }
    }

    /// The entry for `word` (any case); setting nil removes it. Blank keys are ignored.
    public subscript(word: String) -> Entry? {
        get { entries.first { Self.normalized($0.key) == Self.normalized(word) }?.value }
        set {
            let key = word.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !key.isEmpty else { return }
            for existing in entries.keys where Self.normalized(existing) == Self.normalized(key) { entries[existing] = nil }
            if let newValue { entries[key] = newValue }
        }
    }

    public var isEmpty: Bool { entries.isEmpty }

    /// `text` as `engine` (an engine id) should be given it: every lexicon word replaced by
    /// that engine's form of it.
    public func apply(to text: String, engine: String) -> String {
        guard let matcher = Matcher(self) else { return text }
        return matcher.apply(to: text, engine: engine)
    }

    /// Each of `texts` with the lexicon applied for `engine` (the matcher is built once).
    public func apply(to texts: [String], engine: String) -> [String] {
        guard let matcher = Matcher(self) else { return texts }
        return texts.map { matcher.apply(to: $0, engine: engine) }
    }

    /// The normalized keys whose entry differs between `self` and `other` (added, removed or
    /// changed, for any engine).
    public func changedKeys(comparedWith other: PronunciationLexicon) -> Set<String> {
        let (mine, theirs) = (normalizedEntries, other.normalizedEntries)
        return Set(mine.keys).union(theirs.keys).filter { mine[$0] != theirs[$0] }
    }

    /// Indices of the `lines` (spoken text and the engine id of the voice speaking it) whose
    /// engine text changes when the lexicon goes from `old` to `new`: exactly the utterances to
    /// re-render. A line is skipped cheaply unless a key whose form for its engine changed
    /// occurs in it; the rest are compared applied both ways, so an edit shadowed by a longer
    /// key, one that gives the same text, or new phonemes for another engine mark nothing stale.
    public static func affectedIndices(
        of lines: [(text: String, engine: String)], from old: PronunciationLexicon, to new: PronunciationLexicon
    ) -> [Int] {
        let changed = old.changedKeys(comparedWith: new)
        guard !changed.isEmpty else { return [] }
        let (before, after) = (Matcher(old), Matcher(new))
        let (oldEntries, newEntries) = (old.normalizedEntries, new.normalizedEntries)
        var changedFor: [String: [String]] = [:]
        return lines.indices.filter { index in
            let (text, engine) = lines[index]
            let keys = changedFor[engine] ?? {
                let keys = changed.filter { oldEntries[$0]?.form(for: engine) != newEntries[$0]?.form(for: engine) }.sorted()
                changedFor[engine] = keys
                return keys
            }()
            let folded = normalized(text)
            guard keys.contains(where: { folded.contains($0) }) else { return false }
            return (before?.apply(to: text, engine: engine) ?? text) != (after?.apply(to: text, engine: engine) ?? text)
        }
    }

    private var normalizedEntries: [String: Entry] {
        Dictionary(entries.map { (Self.normalized($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// Case- and width-folded, whitespace collapsed: how keys are compared.
    static func normalized(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .widthInsensitive], locale: nil)
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// One compiled pass over a text: all keys in one case-insensitive alternation, longest
    /// first. Every key takes part for every engine, so a key with no form for an engine
    /// still shadows shorter keys inside it (the phrase stays as written).
    private struct Matcher {
        let expression: NSRegularExpression
        let entries: [String: Entry]

        init?(_ lexicon: PronunciationLexicon) {
            let entries = lexicon.normalizedEntries
            guard !entries.isEmpty else { return nil }
            let alternatives = entries.keys.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }.map { key in
                // Spaces inside a key match any run of whitespace in the text.
                key.split(separator: " ").map { NSRegularExpression.escapedPattern(for: String($0)) }.joined(separator: "\\s+")
            }
            let pattern = "(?<![\\p{L}\\p{N}])(?:\(alternatives.joined(separator: "|")))(?![\\p{L}\\p{N}])"
            guard let expression = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else { return nil }
            self.expression = expression
            self.entries = entries
        }

        func apply(to text: String, engine: String) -> String {
            let range = NSRange(text.startIndex..., in: text)
            var result = ""
            var cursor = text.startIndex
            for match in expression.matches(in: text, range: range) {
                guard let matched = Range(match.range, in: text), matched.lowerBound >= cursor,
                      let form = entries[PronunciationLexicon.normalized(String(text[matched]))]?.form(for: engine) else { continue }
                result += text[cursor..<matched.lowerBound]
                cursor = matched.upperBound
                switch form {
                case .respelling(let respelling):
                    result += Self.matchingCapital(respelling, like: text[matched])
                case .phonemes(var phonemes, let notation):
                    // A possessive after a phoneme block would be read as the word "s": it
                    // joins the block, voiced as the engine itself voices "Framton's".
                    if let after = Self.possessive(in: text, at: cursor) {
                        phonemes += notation.possessive(after: phonemes)
                        cursor = after
                    }
                    result += "[[\(phonemes)]]"
                }
            }
            result += text[cursor...]
            return result
        }

        /// The end of a possessive `'s` (or `’s`) at `index` that ends a word, if there is one.
        static func possessive(in text: String, at index: String.Index) -> String.Index? {
            let rest = text[index...]
            guard let apostrophe = rest.first, apostrophe == "'" || apostrophe == "\u{2019}" else { return nil }
            let afterApostrophe = rest.dropFirst()
            guard afterApostrophe.first == "s" || afterApostrophe.first == "S" else { return nil }
            let end = afterApostrophe.index(after: afterApostrophe.startIndex)
            if end < text.endIndex, text[end].isLetter || text[end].isNumber { return nil }
            return end
        }

        static func matchingCapital(_ respelling: String, like original: Substring) -> String {
            guard let first = original.first, first.isUppercase, let own = respelling.first, own.isLowercase else { return respelling }
            return own.uppercased() + respelling.dropFirst()
        }
    }
}

extension PronunciationLexicon.PhonemeNotation {
    /// The possessive ending after `phonemes`, as English voices it: /ɪz/ after a sibilant,
    /// /s/ after another voiceless consonant, else /z/ (Alice's, Cliff's, Framton's).
    func possessive(after phonemes: String) -> String {
        // Stress, length and syllable marks say nothing about the last sound.
        let marks: Set<Character> = ["'", ",", ":", "ˈ", "ˌ", "ː", "ˑ", ".", "#", "2", " "]
        let last = phonemes.last { !marks.contains($0) }
        switch self {
        case .espeakMnemonics:
            if let last, "szSZ".contains(last) { return "I2z" }
            if let last, "ptkfT".contains(last) { return "s" }
            return "z"
        case .ipa:
            if let last, "szʃʒ".contains(last) { return "ɪz" }
            if let last, "ptkfθ".contains(last) { return "s" }
            return "z"
        }
    }
}

/// An entry is written as its respelling alone (`"FRAM-tun"`, how every lexicon was written
/// before phonemes) or, with phonemes, as an object: `{"say": "FRAM-tun", "espeak-ng": "fr'amt@n"}`.
extension PronunciationLexicon.Entry: Codable {
    /// The object key of the respelling.
    public static let respellingKey = "say"

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        if let respelling = try? decoder.singleValueContainer().decode(String.self) {
            try self.init(validating: Self.trimmed(respelling), phonemes: [:], codingPath: decoder.codingPath)
            return
        }
        let container = try decoder.container(keyedBy: Key.self)
        var respelling: String?
        var phonemes: [String: String] = [:]
        for key in container.allKeys {
            let value = try container.decode(String.self, forKey: key)
            if key.stringValue == Self.respellingKey {
                respelling = Self.trimmed(value)
            } else {
                phonemes[key.stringValue] = Self.unbracketed(value)
            }
        }
        try self.init(validating: respelling, phonemes: phonemes, codingPath: decoder.codingPath)
    }

    public func encode(to encoder: any Encoder) throws {
        if phonemes.isEmpty, let respelling {
            var container = encoder.singleValueContainer()
            try container.encode(respelling)
            return
        }
        var container = encoder.container(keyedBy: Key.self)
        if let respelling { try container.encode(respelling, forKey: Key(stringValue: Self.respellingKey)) }
        for (engine, value) in phonemes { try container.encode(value, forKey: Key(stringValue: engine)) }
    }

    private init(validating respelling: String?, phonemes: [String: String], codingPath: [any CodingKey]) throws {
        if let problem = Self.problem(respelling: respelling, phonemes: phonemes) {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: problem))
        }
        self.init(respelling: respelling, phonemes: phonemes)
    }

    /// What is wrong with an entry made of these parts, in words for the user; nil when it is fine.
    static func problem(respelling: String?, phonemes: [String: String]) -> String? {
        if respelling == nil && phonemes.isEmpty { return "gives neither a respelling nor phonemes" }
        if respelling?.isEmpty == true { return "has an empty respelling" }
        let takers = PronunciationLexicon.phonemeEngines.keys.sorted().joined(separator: " and ")
        for (engine, value) in phonemes.sorted(by: { $0.key < $1.key }) {
            guard PronunciationLexicon.phonemeEngines[engine] != nil else {
                return "gives phonemes for '\(engine)', which does not read phonemes (\(takers) do); other engines use the respelling"
            }
            if value.isEmpty { return "has empty phonemes for \(engine)" }
            if value.contains("[[") || value.contains("]]") { return "has '[[' or ']]' inside the phonemes for \(engine)" }
        }
        return nil
    }

    static func trimmed(_ text: String) -> String { text.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// Phonemes without surrounding `[[ ]]`, which the JSON form allows but does not need.
    static func unbracketed(_ text: String) -> String {
        let text = trimmed(text)
        guard text.hasPrefix("[["), text.hasSuffix("]]"), text.count >= 4 else { return text }
        return trimmed(String(text.dropFirst(2).dropLast(2)))
    }
}
