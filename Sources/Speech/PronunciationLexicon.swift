import Foundation

/// A story's pronunciation fixes: word or phrase → respelling ("Hermione" → "her-MY-oh-nee",
/// "Cholmondeley" → "Chumley"). Applied to the text handed to an engine, never to the story.
///
/// Matching ignores case and happens on whole words (a key never matches inside a longer
/// word; "Hermione's" matches "Hermione"); longer keys win over shorter ones that overlap.
/// A respelling keeps a capital where the matched word had one and the respelling has none,
/// so sentence starts stay sentence starts for the engine's prosody.
public struct PronunciationLexicon: Codable, Sendable, Hashable {
    /// Key (as written by the user) → respelling.
    public private(set) var entries: [String: String]

    public init(_ entries: [String: String] = [:]) {
        self.entries = [:]
        for (word, respelling) in entries { self[word] = respelling }
    }

    /// The respelling for `word` (any case); setting nil removes it. Blank keys are ignored.
    public subscript(word: String) -> String? {
        get { entries.first { Self.normalized($0.key) == Self.normalized(word) }?.value }
        set {
            let key = word.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !key.isEmpty else { return }
            for existing in entries.keys where Self.normalized(existing) == Self.normalized(key) { entries[existing] = nil }
            if let newValue { entries[key] = newValue }
        }
    }

    public var isEmpty: Bool { entries.isEmpty }

    /// `text` with every lexicon word replaced by its respelling.
    public func apply(to text: String) -> String {
        guard let matcher = Matcher(self) else { return text }
        return matcher.apply(to: text)
    }

    /// Each of `texts` with the lexicon applied (the matcher is built once).
    public func apply(to texts: [String]) -> [String] {
        guard let matcher = Matcher(self) else { return texts }
        return texts.map(matcher.apply(to:))
    }

    /// The normalized keys whose respelling differs between `self` and `other` (added,
    /// removed or changed).
    public func changedKeys(comparedWith other: PronunciationLexicon) -> Set<String> {
        let (mine, theirs) = (normalizedEntries, other.normalizedEntries)
        return Set(mine.keys).union(theirs.keys).filter { mine[$0] != theirs[$0] }
    }

    /// Indices of the `texts` whose engine text changes when the lexicon goes from `old` to
    /// `new`: exactly the utterances to re-render. Texts that cannot contain a changed key are
    /// skipped cheaply; the rest are compared applied both ways, so an edit shadowed by a
    /// longer key, or one that happens to give the same text, marks nothing stale.
    public static func affectedIndices(of texts: [String], from old: PronunciationLexicon, to new: PronunciationLexicon) -> [Int] {
        let changed = old.changedKeys(comparedWith: new)
        guard !changed.isEmpty else { return [] }
        let (before, after) = (Matcher(old), Matcher(new))
        return texts.indices.filter { index in
            let folded = normalized(texts[index])
            guard changed.contains(where: { folded.contains($0) }) else { return false }
            return (before?.apply(to: texts[index]) ?? texts[index]) != (after?.apply(to: texts[index]) ?? texts[index])
        }
    }

    private var normalizedEntries: [String: String] {
        Dictionary(entries.map { (Self.normalized($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// Case- and width-folded, whitespace collapsed: how keys are compared.
    static func normalized(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .widthInsensitive], locale: nil)
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// One compiled pass over a text: all keys in one case-insensitive alternation, longest first.
    private struct Matcher {
        let expression: NSRegularExpression
        let respellings: [String: String]

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
            self.respellings = entries
        }

        func apply(to text: String) -> String {
            let range = NSRange(text.startIndex..., in: text)
            var result = ""
            var cursor = text.startIndex
            for match in expression.matches(in: text, range: range) {
                guard let matched = Range(match.range, in: text),
                      let respelling = respellings[PronunciationLexicon.normalized(String(text[matched]))] else { continue }
                result += text[cursor..<matched.lowerBound]
                result += Self.matchingCapital(respelling, like: text[matched])
                cursor = matched.upperBound
            }
            result += text[cursor...]
            return result
        }

        static func matchingCapital(_ respelling: String, like original: Substring) -> String {
            guard let first = original.first, first.isUppercase, let own = respelling.first, own.isLowercase else { return respelling }
            return own.uppercased() + respelling.dropFirst()
        }
    }
}
