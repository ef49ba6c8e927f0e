/// Cuts text for APIs that limit how much one request may carry.
///
/// Pieces end on sentence boundaries (after `.`, `!`, `?`, `…` and any closing quotes or
/// brackets, or at a line break); sentences are packed greedily up to the limit. A sentence
/// longer than the limit is cut after a clause (`,` `;` `:` `—`), else between words, and only
/// a single unbroken run longer than the limit is cut mid-word. Joined with the whitespace
/// between them, the pieces are the text: nothing is dropped, added or reordered.
public enum TextChunker {
    /// The pieces of `text`, each at most `limit` Unicode scalars, trimmed of surrounding
    /// whitespace; empty pieces are left out.
    public static func chunks(_ text: String, limit: Int) -> [String] {
        precondition(limit > 0, "a chunk limit must be positive")
        var packer = Packer(limit: limit)
        packer.add(Array(text.unicodeScalars), level: 0)
        packer.flush()
        return packer.pieces
    }

    /// Packs units greedily: a unit that fits joins the current piece; one that does not starts
    /// a new piece, and one longer than the limit is cut at the next finer level (sentences,
    /// then clauses, then words, then fixed lengths).
    private struct Packer {
        let limit: Int
        var pieces: [String] = []
        var current: [Unicode.Scalar] = []

        mutating func add(_ scalars: [Unicode.Scalar], level: Int) {
            let units: [[Unicode.Scalar]] = switch level {
            case 0: TextChunker.split(scalars, at: TextChunker.sentenceEnds(scalars))
            case 1: TextChunker.split(scalars, at: TextChunker.breaks(scalars, where: TextChunker.isClauseEnd))
            case 2: TextChunker.split(scalars, at: TextChunker.breaks(scalars, where: { $0.properties.isWhitespace }))
            default: TextChunker.hardCut(scalars, limit: limit)
            }
            for unit in units {
                if current.count + unit.count <= limit {
                    current += unit
                    continue
                }
                flush()
                if unit.count <= limit || level >= 3 {
                    current = unit
                } else {
                    add(unit, level: level + 1)
                }
            }
        }

        mutating func flush() {
            let piece = TextChunker.trimmed(current)
            if !piece.isEmpty { pieces.append(String(String.UnicodeScalarView(piece))) }
            current = []
        }
    }

    /// Indices just past each sentence end (and its closing punctuation and whitespace).
    static func sentenceEnds(_ scalars: [Unicode.Scalar]) -> [Int] {
        var ends: [Int] = []
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if scalar == "\n" {
                while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
                ends.append(index)
            } else if terminators.contains(scalar) {
                while index < scalars.count, terminators.contains(scalars[index]) || closers.contains(scalars[index]) { index += 1 }
                // A terminator followed by a letter ("3.5", "e.g.x") does not end a sentence.
                guard index == scalars.count || scalars[index].properties.isWhitespace else { continue }
                while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
                ends.append(index)
            }
        }
        return ends
    }

    private static let terminators: Set<Unicode.Scalar> = [".", "!", "?", "…", "。", "！", "？"]
    private static let closers: Set<Unicode.Scalar> = ["\"", "'", "”", "’", ")", "]", "»", "›"]

    private static func isClauseEnd(_ scalar: Unicode.Scalar) -> Bool {
        [",", ";", ":", "—", "–"].contains(scalar)
    }

    /// Indices just past each scalar matching `predicate` and the whitespace after it.
    private static func breaks(_ scalars: [Unicode.Scalar], where predicate: (Unicode.Scalar) -> Bool) -> [Int] {
        var result: [Int] = []
        var index = 0
        while index < scalars.count {
            let matched = predicate(scalars[index])
            index += 1
            if matched {
                while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
                result.append(index)
            }
        }
        return result
    }

    private static func split(_ scalars: [Unicode.Scalar], at ends: [Int]) -> [[Unicode.Scalar]] {
        var parts: [[Unicode.Scalar]] = []
        var start = 0
        for end in ends where end > start {
            parts.append(Array(scalars[start..<end]))
            start = end
        }
        if start < scalars.count { parts.append(Array(scalars[start...])) }
        return parts
    }

    private static func hardCut(_ scalars: [Unicode.Scalar], limit: Int) -> [[Unicode.Scalar]] {
        stride(from: 0, to: scalars.count, by: limit).map { Array(scalars[$0..<min(scalars.count, $0 + limit)]) }
    }

    private static func trimmed(_ scalars: [Unicode.Scalar]) -> [Unicode.Scalar] {
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return [] }
        return Array(scalars[first...last])
    }
}
