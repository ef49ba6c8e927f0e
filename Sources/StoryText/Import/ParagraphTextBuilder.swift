/// Builds narration text from markup: collapses whitespace, separates paragraphs with one blank
/// line, and resolves marks (anchors, heading starts) to the scalar offset where the next visible
/// text lands, so a mark never points at a separator.
struct ParagraphTextBuilder {
    enum Separator: Int, Comparable {
        case none, space, line, paragraph
        static func < (a: Separator, b: Separator) -> Bool { a.rawValue < b.rawValue }
    }

    private(set) var scalars = String.UnicodeScalarView()
    /// Scalars written so far.
    private(set) var count = 0
    private var pending = Separator.none
    private var waiting: [Int] = []
    /// Resolved offsets of marks, by the token `mark()` returned.
    private(set) var marks: [Int] = []

    var text: String { String(scalars) }
    var isEmpty: Bool { count == 0 }

    /// Appends visible text; whitespace becomes (at most) one space between words.
    mutating func append(_ scalar: Unicode.Scalar) {
        if scalar.properties.isWhitespace {
            separate(.space)
            return
        }
        if Self.invisible.contains(scalar.value) { return }
        if pending != .none || !waiting.isEmpty { flush() }
        scalars.append(scalar)
        count += 1
    }

    mutating func append<S: Sequence<Unicode.Scalar>>(contentsOf text: S) {
        for scalar in text { append(scalar) }
    }

    mutating func append(_ text: String) { append(contentsOf: text.unicodeScalars) }

    /// Asks for at least `separator` before the next visible text (never at the very start).
    mutating func separate(_ separator: Separator) {
        if count > 0, separator > pending { pending = separator }
    }

    /// A mark resolved to where the next visible text starts (or the end, if none follows).
    /// Returns a token to look the offset up in `marks` after `finish()`.
    mutating func mark() -> Int {
        marks.append(-1)
        waiting.append(marks.count - 1)
        return marks.count - 1
    }

    /// Resolves marks still waiting for text to the end of the text.
    mutating func finish() {
        for token in waiting { marks[token] = count }
        waiting.removeAll()
    }

    private mutating func flush() {
        switch pending {
        case .none: break
        case .space: scalars.append(" "); count += 1
        case .line: scalars.append("\n"); count += 1
        case .paragraph: scalars.append("\n"); scalars.append("\n"); count += 2
        }
        pending = .none
        for token in waiting { marks[token] = count }
        waiting.removeAll()
    }

    /// Soft hyphen, zero-width space, word joiner, BOM (joiners stay: emoji need them): never spoken, never shown.
    private static let invisible: Set<UInt32> = [0x00AD, 0x200B, 0x2060, 0xFEFF]
}
