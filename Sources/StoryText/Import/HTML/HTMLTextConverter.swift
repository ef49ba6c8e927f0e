/// A heading found in markup: its level (1 for `<h1>` or `#`) and where its text starts.
struct StructuralHeading: Equatable, Sendable {
    var level: Int
    var title: String
    var start: Int
}

/// Text extracted from markup, with what the markup said about its structure.
struct ConvertedText {
    var text: String
    /// `text.unicodeScalars.count`, kept so callers need not count again.
    var scalarCount: Int
    var headings: [StructuralHeading]
    /// Element ids (and `<a name>`) to the offset of the text that follows them.
    var anchors: [String: Int]
    /// HTML `<title>` or Markdown front matter `title:`.
    var title: String?
    var author: String?

    /// The first level-1 heading's title.
    var firstTopHeading: String? { headings.first { $0.level == 1 }?.title }
}

/// HTML/XHTML to narration text: block elements become paragraphs separated by a blank line,
/// whitespace inside a paragraph collapses to single spaces, headings are their own paragraphs,
/// scripts, styles and the document head are dropped.
enum HTMLTextConverter {
    static func convert(_ html: String) -> ConvertedText {
        var state = ConversionState()
        var tokenizer = HTMLTokenizer(html)
        while let token = tokenizer.next() {
            state.consume(token)
        }
        return state.finish()
    }

    static let blockElements: Set<String> = [
        "p", "div", "li", "ul", "ol", "dl", "dt", "dd", "blockquote", "tr", "table", "thead", "tbody",
        "tfoot", "caption", "section", "article", "header", "footer", "nav", "aside", "main", "figure",
        "figcaption", "pre", "address", "center", "hr", "br", "body", "html", "form", "fieldset", "legend",
        "details", "summary", "dialog", "h1", "h2", "h3", "h4", "h5", "h6",
    ]

    /// Elements whose content is never narrated.
    static let droppedElements: Set<String> = ["noscript", "template", "svg", "math", "select", "iframe", "object"]
}

private struct ConversionState {
    var builder = ParagraphTextBuilder()
    var inHead = false
    var inTitle = false
    var titleText = String.UnicodeScalarView()
    var author: String?
    var dropped: [String] = []
    var openHeading: (level: Int, token: Int, title: String.UnicodeScalarView)?
    var headings: [(level: Int, title: String, token: Int)] = []
    var anchors: [(id: String, token: Int)] = []

    mutating func consume(_ token: HTMLTokenizer.Token) {
        switch token {
        case .startTag(let name, let attributes, let selfClosing):
            start(name, attributes, selfClosing)
        case .endTag(let name):
            end(name)
        case .text(let scalars):
            if inTitle {
                titleText.append(contentsOf: scalars)
            } else if !inHead, dropped.isEmpty {
                builder.append(contentsOf: scalars)
                openHeading?.title.append(contentsOf: scalars)
            }
        }
    }

    private mutating func start(_ name: String, _ attributes: [String: String], _ selfClosing: Bool) {
        if let id = attributes["id"], !id.isEmpty {
            anchors.append((id, builder.mark()))
        }
        if name == "a", let anchor = attributes["name"], !anchor.isEmpty {
            anchors.append((anchor, builder.mark()))
        }
        switch name {
        case "head": inHead = !selfClosing
        case "body": inHead = false
        case "title": inTitle = !selfClosing
        case "meta":
            let key = attributes["name"]?.lowercased()
            if key == "author" || key == "dc.creator", author == nil, let content = attributes["content"] {
                author = content.collapsingWhitespace.nilIfEmpty
            }
        default: break
        }
        if HTMLTextConverter.droppedElements.contains(name), !selfClosing {
            dropped.append(name)
        }
        if let level = Self.headingLevel(name) {
            closeHeading()
            builder.separate(.paragraph)
            if !selfClosing { openHeading = (level, builder.mark(), String.UnicodeScalarView()) }
        } else if HTMLTextConverter.blockElements.contains(name) {
            builder.separate(.paragraph)
        } else if name == "td" || name == "th" {
            builder.separate(.space)
        }
    }

    private mutating func end(_ name: String) {
        switch name {
        case "head": inHead = false
        case "title": inTitle = false
        default: break
        }
        if let index = dropped.lastIndex(of: name) {
            dropped.removeSubrange(index...)
        }
        if Self.headingLevel(name) != nil {
            closeHeading()
        }
        if HTMLTextConverter.blockElements.contains(name) {
            builder.separate(.paragraph)
        } else if name == "td" || name == "th" {
            builder.separate(.space)
        }
    }

    private mutating func closeHeading() {
        guard let heading = openHeading else { return }
        openHeading = nil
        if let title = String(heading.title).collapsingWhitespace.nilIfEmpty {
            headings.append((heading.level, title, heading.token))
        }
    }

    private static func headingLevel(_ name: String) -> Int? {
        let scalars = Array(name.unicodeScalars)
        guard scalars.count == 2, scalars[0] == "h", ("1"..."6").contains(scalars[1]) else { return nil }
        return Int(scalars[1].value - 0x30)
    }

    mutating func finish() -> ConvertedText {
        closeHeading()
        builder.finish()
        var anchorOffsets: [String: Int] = [:]
        for anchor in anchors where anchorOffsets[anchor.id] == nil {
            anchorOffsets[anchor.id] = builder.marks[anchor.token]
        }
        return ConvertedText(
            text: builder.text,
            scalarCount: builder.count,
            headings: headings.map { StructuralHeading(level: $0.level, title: $0.title, start: builder.marks[$0.token]) },
            anchors: anchorOffsets,
            title: String(titleText).collapsingWhitespace.nilIfEmpty,
            author: author
        )
    }
}

extension String {
    /// Runs of whitespace become one space; leading and trailing whitespace goes.
    var collapsingWhitespace: String {
        split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    var nilIfEmpty: String? { isEmpty ? nil : self }
}
