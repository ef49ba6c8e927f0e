/// Inline Markdown to the words a listener should hear. Works on Unicode scalars (Markdown
/// syntax is ASCII), which keeps it linear and fast.
enum MarkdownInline {
    static func plainText(_ markdown: String) -> String {
        // Most paragraphs have no syntax at all.
        guard markdown.utf8.contains(where: { syntaxBytes.contains($0) }) else { return markdown }
        let chars = Array(markdown.unicodeScalars)
        var out = ScalarWriter()
        var index = 0
        while index < chars.count {
            let char = chars[index]
            switch char {
            case "\\":
                if index + 1 < chars.count, asciiPunctuation.contains(chars[index + 1]) {
                    out.append(chars[index + 1])
                    index += 2
                } else {
                    out.append(char)
                    index += 1
                }
            case "`":
                let run = runLength(chars, at: index)
                if let close = closingBackticks(chars, from: index + run, length: run) {
                    out.append(contentsOf: trimmed(chars[(index + run)..<close]))
                    index = close + run
                } else {
                    out.append(contentsOf: chars[index..<(index + run)])
                    index += run
                }
            case "!" where index + 1 < chars.count && chars[index + 1] == "[":
                if let link = link(chars, at: index + 1) {
                    index = link.end  // Images are not narrated.
                } else {
                    out.append(char)
                    index += 1
                }
            case "[":
                if let link = link(chars, at: index) {
                    var text = ScalarWriter()
                    text.append(contentsOf: chars[link.text])
                    out.append(contentsOf: plainText(text.string).unicodeScalars)
                    index = link.end
                } else {
                    out.append(char)
                    index += 1
                }
            case "<":
                if let tagEnd = htmlOrAutolink(chars, at: index) {
                    if tagEnd.keep { out.append(contentsOf: chars[(index + 1)..<tagEnd.close]) }
                    index = tagEnd.close + 1
                } else {
                    out.append(char)
                    index += 1
                }
            case "*", "_", "~":
                let run = runLength(chars, at: index)
                let before = index > 0 ? chars[index - 1] : nil
                let after = index + run < chars.count ? chars[index + run] : nil
                if !isDelimiter(char, run: run, before: before, after: after) {
                    out.append(contentsOf: chars[index..<(index + run)])
                }
                index += run
            default:
                out.append(char)
                index += 1
            }
        }
        return out.string
    }

    private static let syntaxBytes: Set<UInt8> = Set("\\`![<*_~".utf8)
    private static let asciiPunctuation: Set<Unicode.Scalar> = Set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~".unicodeScalars)

    private static func runLength(_ chars: [Unicode.Scalar], at start: Int) -> Int {
        var end = start
        while end < chars.count, chars[end] == chars[start] { end += 1 }
        return end - start
    }

    private static func trimmed(_ span: ArraySlice<Unicode.Scalar>) -> ArraySlice<Unicode.Scalar> {
        span.drop { $0.properties.isWhitespace }.reversed().drop { $0.properties.isWhitespace }.reversed()[...]
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar?) -> Bool {
        guard let scalar else { return false }
        return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    /// Emphasis and strikethrough delimiters touch a word on at least one side; `_` inside a word
    /// (snake_case) and a lone `~` are text.
    private static func isDelimiter(_ char: Unicode.Scalar, run: Int, before: Unicode.Scalar?, after: Unicode.Scalar?) -> Bool {
        let opens = after.map { !$0.properties.isWhitespace } ?? false
        let closes = before.map { !$0.properties.isWhitespace } ?? false
        guard opens || closes else { return false }
        switch char {
        case "_": return !(isWordScalar(before) && isWordScalar(after))
        case "~": return run >= 2
        default: return true
        }
    }

    /// An autolink `<https://...>` (keep the address) or an inline HTML tag (drop it).
    private static func htmlOrAutolink(_ chars: [Unicode.Scalar], at start: Int) -> (close: Int, keep: Bool)? {
        let limit = min(chars.count, start + 300)
        guard let close = chars[start..<limit].firstIndex(of: ">"), close > start + 1 else { return nil }
        var inner = String.UnicodeScalarView()
        inner.append(contentsOf: chars[(start + 1)..<close])
        let text = String(inner)
        if text.hasPrefix("http://") || text.hasPrefix("https://") || text.hasPrefix("mailto:") {
            return (close, true)
        }
        let first = chars[start + 1]
        if first.properties.isAlphabetic || first == "/" || first == "!" { return (close, false) }
        return nil
    }

    private static func closingBackticks(_ chars: [Unicode.Scalar], from start: Int, length: Int) -> Int? {
        let limit = min(chars.count, start + 2_000)
        var index = start
        while index < limit {
            if chars[index] == "`" {
                let run = runLength(chars, at: index)
                if run == length { return index }
                index += run
            } else {
                index += 1
            }
        }
        return nil
    }

    /// `[text](target)`, `[text][label]` or `[text][]` starting at `start` (a `[`).
    private static func link(_ chars: [Unicode.Scalar], at start: Int) -> (text: Range<Int>, end: Int)? {
        guard let close = matching(chars, from: start, open: "[", close: "]") else { return nil }
        let text = (start + 1)..<close
        let next = close + 1
        guard next < chars.count else { return nil }
        if chars[next] == "(", let end = matching(chars, from: next, open: "(", close: ")") {
            return (text, end + 1)
        }
        if chars[next] == "[", let end = matching(chars, from: next, open: "[", close: "]") {
            return (text, end + 1)
        }
        return nil
    }

    private static func matching(_ chars: [Unicode.Scalar], from start: Int, open: Unicode.Scalar, close: Unicode.Scalar) -> Int? {
        // Bounded, so a paragraph full of stray brackets stays linear.
        let limit = min(chars.count, start + 2_000)
        var depth = 0
        var index = start
        while index < limit {
            if chars[index] == "\\" { index += 2; continue }
            if chars[index] == open { depth += 1 }
            if chars[index] == close {
                depth -= 1
                if depth == 0 { return index }
            }
            index += 1
        }
        return nil
    }
}

/// Collects scalars as UTF-8 and makes one String at the end.
struct ScalarWriter {
    private var utf8: [UInt8] = []

    mutating func append(_ scalar: Unicode.Scalar) { utf8.appendUTF8(scalar) }

    mutating func append<S: Sequence<Unicode.Scalar>>(contentsOf scalars: S) {
        for scalar in scalars { utf8.appendUTF8(scalar) }
    }

    var string: String { String(decoding: utf8, as: UTF8.self) }
}
