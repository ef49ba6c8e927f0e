/// Builds narration text from markup: collapses whitespace, separates paragraphs with one blank
/// line, and resolves marks (anchors, heading starts) to the scalar offset where the next visible
/// text lands, so a mark never points at a separator.
struct ParagraphTextBuilder {
    enum Separator: Int, Comparable {
        case none, space, line, paragraph
        static func < (a: Separator, b: Separator) -> Bool { a.rawValue < b.rawValue }
    }

    /// UTF-8 of the text so far: appending bytes is much cheaper than growing a String by scalars.
    private var utf8: [UInt8] = []
    /// Scalars written so far.
    private(set) var count = 0
    private var pending = Separator.none
    private var waiting: [Int] = []
    /// Resolved offsets of marks, by the token `mark()` returned.
    private(set) var marks: [Int] = []

    var text: String { String(decoding: utf8, as: UTF8.self) }
    var isEmpty: Bool { count == 0 }

    /// Appends visible text; whitespace becomes (at most) one space between words.
    mutating func append(_ scalar: Unicode.Scalar) {
        if scalar.value < 0x80 {
            // ASCII fast path: most story text is ASCII, and scalar properties are a table lookup.
            if scalar.value == 0x20 || (0x09...0x0D).contains(scalar.value) {
                separate(.space)
                return
            }
            if pending != .none || !waiting.isEmpty { flush() }
            utf8.append(UInt8(scalar.value))
            count += 1
            return
        }
        if scalar.properties.isWhitespace {
            separate(.space)
            return
        }
        if Self.invisible.contains(scalar.value) { return }
        if pending != .none || !waiting.isEmpty { flush() }
        utf8.appendUTF8(scalar)
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
        case .space: utf8.append(0x20); count += 1
        case .line: utf8.append(0x0A); count += 1
        case .paragraph: utf8.append(0x0A); utf8.append(0x0A); count += 2
        }
        pending = .none
        for token in waiting { marks[token] = count }
        waiting.removeAll()
    }

    /// Soft hyphen, zero-width space, word joiner, BOM (joiners stay: emoji need them): never spoken, never shown.
    private static let invisible: Set<UInt32> = [0x00AD, 0x200B, 0x2060, 0xFEFF]
}

extension Array where Element == UInt8 {
    /// Appends the scalar's UTF-8 encoding.
    mutating func appendUTF8(_ scalar: Unicode.Scalar) {
        let value = scalar.value
        switch value {
        case ..<0x80:
            append(UInt8(value))
        case ..<0x800:
            append(UInt8(0xC0 | value >> 6))
            append(UInt8(0x80 | value & 0x3F))
        case ..<0x10000:
            append(UInt8(0xE0 | value >> 12))
            append(UInt8(0x80 | (value >> 6) & 0x3F))
            append(UInt8(0x80 | value & 0x3F))
        default:
            append(UInt8(0xF0 | value >> 18))
            append(UInt8(0x80 | (value >> 12) & 0x3F))
            append(UInt8(0x80 | (value >> 6) & 0x3F))
            append(UInt8(0x80 | value & 0x3F))
        }
    }
}
