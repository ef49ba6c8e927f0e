/// Inline Markdown to the words a listener should hear.
enum MarkdownInline {
    static func plainText(_ markdown: String) -> String {
        let chars = Array(markdown)
        var out = ""
        var index = 0
        while index < chars.count {
            let char = chars[index]
            switch char {
            case "\\":
                if index + 1 < chars.count, chars[index + 1].isASCII, chars[index + 1].isPunctuation || chars[index + 1].isSymbol {
                    out.append(chars[index + 1])
                    index += 2
                } else {
                    out.append(char)
                    index += 1
                }
            case "`":
                let run = chars[index...].prefix { $0 == "`" }.count
                if let close = closingBackticks(chars, from: index + run, length: run) {
                    out += String(chars[(index + run)..<close]).trimmingWhitespace
                    index = close + run
                } else {
                    out += String(repeating: "`", count: run)
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
                    out += plainText(String(chars[link.text]))
                    index = link.end
                } else {
                    out.append(char)
                    index += 1
                }
            case "<":
                if let close = chars[index..<min(chars.count, index + 300)].firstIndex(of: ">"), close > index + 1 {
                    let inner = String(chars[(index + 1)..<close])
                    if inner.hasPrefix("http://") || inner.hasPrefix("https://") || inner.hasPrefix("mailto:") {
                        out += inner
                        index = close + 1
                        continue
                    }
                    if let first = inner.first, first.isLetter || first == "/" || first == "!" {
                        index = close + 1  // Inline HTML tag.
                        continue
                    }
                }
                out.append(char)
                index += 1
            case "*", "_", "~":
                let run = chars[index...].prefix { $0 == char }.count
                let before = index > 0 ? chars[index - 1] : nil
                let after = index + run < chars.count ? chars[index + run] : nil
                if isDelimiter(char, run: run, before: before, after: after) {
                    index += run
                } else {
                    out += String(repeating: char, count: run)
                    index += run
                }
            default:
                out.append(char)
                index += 1
            }
        }
        return out
    }

    /// Emphasis and strikethrough delimiters touch a word on at least one side; `_` inside a word
    /// (snake_case) and a lone `~` are text.
    private static func isDelimiter(_ char: Character, run: Int, before: Character?, after: Character?) -> Bool {
        let opens = after.map { !$0.isWhitespace } ?? false
        let closes = before.map { !$0.isWhitespace } ?? false
        guard opens || closes else { return false }
        switch char {
        case "_":
            let intraword = (before?.isLetter == true || before?.isNumber == true)
                && (after?.isLetter == true || after?.isNumber == true)
            return !intraword
        case "~": return run >= 2
        default: return true
        }
    }

    private static func closingBackticks(_ chars: [Character], from start: Int, length: Int) -> Int? {
        let limit = min(chars.count, start + 2_000)
        var index = start
        while index < limit {
            if chars[index] == "`" {
                let run = chars[index...].prefix { $0 == "`" }.count
                if run == length { return index }
                index += run
            } else {
                index += 1
            }
        }
        return nil
    }

    /// `[text](target)`, `[text][label]` or `[text][]` starting at `start` (a `[`).
    private static func link(_ chars: [Character], at start: Int) -> (text: Range<Int>, end: Int)? {
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

    private static func matching(_ chars: [Character], from start: Int, open: Character, close: Character) -> Int? {
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
