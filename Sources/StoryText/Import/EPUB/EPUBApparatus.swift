import Foundation

/// The parts of an EPUB that are about the book rather than the book: its navigation document,
/// table of contents, cover, title page, copyright page. Read aloud they are a list of chapter
/// names before the story starts, so the importer leaves them out of the text (EPUB 3 marks
/// them with `epub:type` or the `nav` property; EPUB 2 with `<guide>` references).
enum EPUBApparatus {
    static let types: Set<String> = ["toc", "landmarks", "page-list", "cover", "titlepage", "copyright-page", "halftitlepage"]

    static func isApparatus(_ item: EPUBPackage.Item, xhtml: String, package: EPUBPackage) -> Bool {
        if item.properties.contains("nav") || item.path == package.navigation?.path { return true }
        if package.apparatus.contains(item.path) { return true }
        return outermostTypes(xhtml).contains { types.contains($0) }
    }

    /// The `epub:type` (or ARIA `role`, `doc-` prefix dropped) values of the `<body>` and of the
    /// first element inside it: where a whole document declares what it is.
    static func outermostTypes(_ xhtml: String) -> [String] {
        guard let body = xhtml.range(of: "<body", options: .caseInsensitive) else { return [] }
        var tags: [Substring] = []
        var rest = xhtml[body.lowerBound...]
        for _ in 0..<2 {
            guard let end = rest.firstIndex(of: ">") else { break }
            tags.append(rest[..<end])
            rest = rest[rest.index(after: end)...]
            guard let next = rest.firstIndex(of: "<") else { break }
            rest = rest[next...]
        }
        return tags.flatMap { tag in
            ["epub:type", "role"].flatMap { attribute in
                value(of: attribute, in: tag).split(whereSeparator: \.isWhitespace).map {
                    let word = $0.lowercased()
                    return word.hasPrefix("doc-") ? String(word.dropFirst(4)) : word
                }
            }
        }
    }

    private static func value(of attribute: String, in tag: Substring) -> Substring {
        guard let name = tag.range(of: "\(attribute)=", options: .caseInsensitive),
              let quote = tag[name.upperBound...].first, quote == "\"" || quote == "'" else { return "" }
        let start = tag.index(after: name.upperBound)
        let end = tag[start...].firstIndex(of: quote) ?? tag.endIndex
        return tag[start..<end]
    }
}
