import Foundation

/// Cuts a reply into sentences while it is still being written, so speech can start with the
/// first sentence before the model has finished the rest.
///
/// A sentence ends at `.`, `!`, `?` or `…` (closing quotes and brackets included) followed by
/// whitespace, or at a line break. A short piece ("Yes." "Mr.") waits for more, so the voice is
/// not started for a word and abbreviations are not read as ends. With `firstClause`, the first
/// piece may also end at a clause's comma, semicolon, colon or dash once it has
/// `clauseMinimumLength` characters, or before a word that starts a phrase ("because", "which",
/// "is", "from", …) once it has `phraseMinimumWords` words: a listener waiting for an answer hears
/// it begin sooner ("The boiling point of water | is 100 degrees Celsius."), and the model writes
/// the rest meanwhile. On this machine the model writes about eight words a second, so a first
/// sentence of fifteen words would otherwise keep a caller waiting two seconds more.
public struct SentenceSplitter: Sendable {
    /// Pieces shorter than this (in characters) are joined to what follows.
    public var minimumLength: Int
    public var clauseMinimumLength = 16
    public var phraseMinimumWords = 4
    /// The piece after a cut first clause or phrase ends at its sentence's end however short
    /// ("is Paris."): joined to the next sentence, it would leave a silence after the first.
    public var continuationMinimumLength = 8
    private var continuing = false
    private var pending = ""
    private var firstClause: Bool

    public init(minimumLength: Int = 24, firstClause: Bool = false) {
        self.minimumLength = minimumLength
        self.firstClause = firstClause
    }

    /// Adds streamed text; returns the sentences it completed, trimmed.
    public mutating func add(_ text: String) -> [String] {
        pending += text
        var sentences: [String] = []
        while let end = firstEnd(in: pending) {
            let sentence = String(pending[..<end]).trimmingCharacters(in: .whitespacesAndNewlines)
            pending = String(pending[end...])
            if !sentence.isEmpty {
                sentences.append(sentence)
                continuing = firstClause && !Self.terminators.contains(sentence.last ?? ".")
                firstClause = false
            }
        }
        return sentences
    }

    /// Every sentence of a whole text, however short (a text compared sentence by sentence).
    public static func sentences(of text: String) -> [String] {
        var splitter = SentenceSplitter(minimumLength: 1)
        return splitter.add(text) + [splitter.finish()].compactMap { $0 }
    }

    /// What remains at the end of the reply.
    public mutating func finish() -> String? {
        let rest = pending.trimmingCharacters(in: .whitespacesAndNewlines)
        pending = ""
        return rest.isEmpty ? nil : rest
    }

    /// The index just past the first sentence end at or after `minimumLength` characters.
    private func firstEnd(in text: String) -> String.Index? {
        let minimumLength = continuing ? continuationMinimumLength : self.minimumLength
        var index = text.startIndex
        var count = 0
        var words = 0
        while index < text.endIndex {
            let character = text[index]
            count += 1
            let next = text.index(after: index)
            if !character.isWhitespace, index == text.startIndex || text[text.index(before: index)].isWhitespace { words += 1 }
            if character.isNewline, count >= minimumLength { return next }
            if firstClause, character.isWhitespace, words >= phraseMinimumWords, count >= clauseMinimumLength,
               Self.phraseStarts(at: next, in: text) {
                return index
            }
            if firstClause, Self.clauseEnds.contains(character), count >= clauseMinimumLength,
               next < text.endIndex, text[next].isWhitespace {
                return next
            }
            if Self.terminators.contains(character), count >= minimumLength {
                var end = next
                while end < text.endIndex, Self.closers.contains(text[end]) { end = text.index(after: end) }
                // The sentence ends only where whitespace follows; at the end of what has
                // arrived so far it may still go on ("3." of "3.5").
                if end < text.endIndex, text[end].isWhitespace { return end }
            }
            index = next
        }
        return nil
    }

    /// Whether the word at `start` is complete (whitespace follows it) and begins a phrase.
    private static func phraseStarts(at start: String.Index, in text: String) -> Bool {
        guard let end = text[start...].firstIndex(where: \.isWhitespace), end > start else { return false }
        return phraseStarters.contains(text[start..<end].lowercased())
    }

    /// Words a spoken phrase often begins with: conjunctions, relative words, the verb "to be"
    /// after its subject, and prepositions that open a phrase of their own ("of" and "to" bind
    /// too closely to what comes before: "the point | of water" would break a noun).
    static let phraseStarters: Set<String> = [
        "and", "but", "or", "so", "because", "since", "although", "though", "while", "when", "where", "which", "who",
        "whose", "that", "if", "unless", "until", "as", "is", "are", "was", "were", "about", "after", "before", "from",
        "in", "into", "on", "at", "with", "without", "for", "by", "through", "during", "around", "like",
    ]

    static let terminators: Set<Character> = [".", "!", "?", "…"]
    static let clauseEnds: Set<Character> = [",", ";", ":", "—"]
    static let closers: Set<Character> = ["\"", "'", "”", "’", ")", "]", "»"]
}
