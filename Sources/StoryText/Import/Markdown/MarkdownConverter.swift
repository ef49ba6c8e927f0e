/// Markdown to narration text: what a listener should hear, not the syntax. Heading markers,
/// emphasis, link targets, images, list markers and HTML tags go; link text, code and the words
/// stay. Paragraphs are separated by one blank line; headings are their own paragraphs.
enum MarkdownConverter {
    static func convert(_ markdown: String) -> ConvertedText {
        var lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)[...]
        var state = MarkdownState()
        state.readFrontMatter(&lines)
        for line in lines {
            state.consume(line)
        }
        return state.finish()
    }
}

private struct MarkdownState {
    var builder = ParagraphTextBuilder()
    var paragraph: [Substring] = []
    var fence: (marker: Character, length: Int)?
    var headings: [(level: Int, title: String, token: Int)] = []
    var title: String?
    var author: String?

    /// YAML front matter (`---` ... `---`): read `title:` and `author:`, narrate none of it.
    mutating func readFrontMatter(_ lines: inout ArraySlice<Substring>) {
        guard lines.first?.trimmingTrailingWhitespace == "---" else { return }
        guard let close = lines.dropFirst().prefix(100).firstIndex(where: {
            $0.trimmingTrailingWhitespace == "---" || $0.trimmingTrailingWhitespace == "..."
        }) else { return }
        for line in lines[lines.startIndex + 1..<close] {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].trimmingWhitespace.lowercased()
            var value = line[line.index(after: colon)...].trimmingWhitespace
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = String(value.dropFirst().dropLast())
            }
            if key == "title", !value.isEmpty { title = value }
            if key == "author", !value.isEmpty { author = value }
        }
        lines = lines[(close + 1)...]
    }

    mutating func consume(_ line: Substring) {
        if let open = fence {
            let trimmed = line.drop { $0 == " " }
            if trimmed.prefix(while: { $0 == open.marker }).count >= open.length,
               trimmed.drop(while: { $0 == open.marker }).allSatisfy(\.isWhitespace) {
                fence = nil
                builder.separate(.paragraph)
            } else {
                // Code is kept as text, line by line.
                builder.separate(.line)
                builder.append(String(line))
            }
            return
        }
        var content = line.trimmingLeadingSpaces(upTo: 3)
        // Block quotes: the words are the story; the `>` is not.
        while content.first == ">" {
            content = content.dropFirst().trimmingLeadingSpaces(upTo: 1)
        }
        if content.allSatisfy(\.isWhitespace) {
            flushParagraph()
            return
        }
        if let marker = content.first, marker == "`" || marker == "~" {
            let run = content.prefix { $0 == marker }.count
            if run >= 3 {
                flushParagraph()
                fence = (marker, run)
                return
            }
        }
        if let (level, text) = Self.atxHeading(content) {
            flushParagraph()
            addHeading(level: level, text: text)
            return
        }
        if !paragraph.isEmpty, let level = Self.setextLevel(content) {
            let text = paragraph.joined(separator: " ")
            paragraph.removeAll()
            addHeading(level: level, text: Substring(text))
            return
        }
        if Self.isThematicBreak(content) {
            flushParagraph()
            return
        }
        if paragraph.isEmpty, Self.isReferenceDefinition(content) {
            return
        }
        if let item = Self.listItemText(content) {
            flushParagraph()
            paragraph.append(item)
            return
        }
        paragraph.append(content)
    }

    private mutating func addHeading(level: Int, text: Substring) {
        let plain = MarkdownInline.plainText(String(text)).collapsingWhitespace
        guard !plain.isEmpty else { return }
        builder.separate(.paragraph)
        let token = builder.mark()
        builder.append(plain)
        builder.separate(.paragraph)
        headings.append((level, plain, token))
    }

    private mutating func flushParagraph() {
        guard !paragraph.isEmpty else { return }
        builder.separate(.paragraph)
        builder.append(MarkdownInline.plainText(paragraph.joined(separator: " ")))
        builder.separate(.paragraph)
        paragraph.removeAll()
    }

    mutating func finish() -> ConvertedText {
        flushParagraph()
        builder.finish()
        return ConvertedText(
            text: builder.text,
            scalarCount: builder.count,
            headings: headings.map { StructuralHeading(level: $0.level, title: $0.title, start: builder.marks[$0.token]) },
            anchors: [:],
            title: title,
            author: author
        )
    }

    /// `## Title ##` -> (2, "Title").
    static func atxHeading(_ line: Substring) -> (Int, Substring)? {
        let level = line.prefix { $0 == "#" }.count
        guard (1...6).contains(level) else { return nil }
        let rest = line.dropFirst(level)
        guard rest.isEmpty || rest.first == " " || rest.first == "\t" else { return nil }
        var text = rest.trimmingWhitespace[...]
        // A closing run of #s preceded by a space is decoration.
        let closing = text.reversed().prefix { $0 == "#" }.count
        if closing > 0, closing == text.count || text.dropLast(closing).last == " " {
            text = text.dropLast(closing)
        }
        return (level, Substring(text.trimmingWhitespace))
    }

    /// An underline of `=` (level 1) or `-` (level 2) under a paragraph line.
    static func setextLevel(_ line: Substring) -> Int? {
        guard let first = line.first, first == "=" || first == "-" else { return nil }
        let trimmed = line.trimmingWhitespace
        guard let first = trimmed.first, first == "=" || first == "-" else { return nil }
        return trimmed.allSatisfy({ $0 == first }) ? (first == "=" ? 1 : 2) : nil
    }

    static func isThematicBreak(_ line: Substring) -> Bool {
        guard let first = line.first, first == "-" || first == "*" || first == "_" else { return false }
        let marks = line.filter { !$0.isWhitespace }
        guard marks.count >= 3, let first = marks.first, first == "-" || first == "*" || first == "_" else { return false }
        return marks.allSatisfy { $0 == first }
    }

    /// `[label]: https://...` defines a link target; it is not text.
    static func isReferenceDefinition(_ line: Substring) -> Bool {
        guard line.first == "[", let close = line.firstIndex(of: "]") else { return false }
        return line[line.index(after: close)...].first == ":"
    }

    /// `- item`, `* item`, `+ item`, `1. item`, `1) item` -> "item".
    static func listItemText(_ line: Substring) -> Substring? {
        if let first = line.first, first == "-" || first == "*" || first == "+" {
            let rest = line.dropFirst()
            guard rest.first == " " || rest.first == "\t" else { return nil }
            return rest.drop { $0 == " " || $0 == "\t" }
        }
        let digits = line.prefix { $0.isASCII && $0.isNumber }
        guard (1...9).contains(digits.count) else { return nil }
        let rest = line.dropFirst(digits.count)
        guard let marker = rest.first, marker == "." || marker == ")" else { return nil }
        let after = rest.dropFirst()
        guard after.first == " " || after.first == "\t" else { return nil }
        return after.drop { $0 == " " || $0 == "\t" }
    }
}

extension StringProtocol {
    var trimmingWhitespace: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }

    var trimmingTrailingWhitespace: String {
        String(reversed().drop { $0.isWhitespace }.reversed())
    }
}

extension Substring {
    func trimmingLeadingSpaces(upTo limit: Int) -> Substring {
        var result = self
        var removed = 0
        while removed < limit, result.first == " " {
            result = result.dropFirst()
            removed += 1
        }
        return result
    }
}
