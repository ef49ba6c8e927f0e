import Foundation

/// Cuts a reply into sentences while it is still being written, so speech can start with the
/// first sentence before the model has finished the rest.
///
/// A sentence ends at `.`, `!`, `?` or `…` (closing quotes and brackets included) followed by
/// whitespace, or at a line break. A short piece ("Yes." "Mr.") waits for more, so the voice is
/// not started for a word and abbreviations are not read as ends. With `firstClause`, the first
/// piece may also end at a clause's comma, semicolon, colon or dash once it has
/// `clauseMinimumLength` characters: a listener waiting for an answer hears it begin a clause
/// sooner, and the model writes the rest meanwhile.
public struct SentenceSplitter: Sendable {
    /// Pieces shorter than this (in characters) are joined to what follows.
    public var minimumLength: Int
    public var clauseMinimumLength = 16
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
        var index = text.startIndex
        var count = 0
        while index < text.endIndex {
            let character = text[index]
            count += 1
            let next = text.index(after: index)
            if character.isNewline, count >= minimumLength { return next }
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

    static let terminators: Set<Character> = [".", "!", "?", "…"]
    static let clauseEnds: Set<Character> = [",", ";", ":", "—"]
    static let closers: Set<Character> = ["\"", "'", "”", "’", ")", "]", "»"]
}
