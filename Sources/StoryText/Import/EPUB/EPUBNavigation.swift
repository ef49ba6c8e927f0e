/// An EPUB's table of contents: entries in reading order, each a title and a place in the book.
struct EPUBTableOfContents {
    struct Entry: Equatable {
        var title: String
        /// Archive path of the document the entry points at.
        var path: String
        /// The element id inside the document, if the href had a `#fragment`.
        var fragment: String?
    }

    var entries: [Entry]

    /// From an EPUB3 navigation document: the links of `<nav epub:type="toc">`.
    static func navigation(_ xhtml: String, path: String) -> EPUBTableOfContents {
        let root = MarkupElement.parse(xhtml)
        let navs = root.descendants(named: "nav")
        let toc = navs.first { nav in
            let type = nav[attribute: "epub:type"] ?? nav[attribute: "type"] ?? nav[attribute: "role"] ?? ""
            return type.split(separator: " ").contains { $0 == "toc" || $0 == "doc-toc" }
        } ?? navs.first
        let base = EPUBPath.directory(of: path)
        let entries = (toc?.descendants(named: "a") ?? []).compactMap { link -> Entry? in
            guard let href = link[attribute: "href"], !href.isEmpty else { return nil }
            let (target, fragment) = EPUBPath.resolve(href, relativeTo: base)
            return Entry(title: link.textContent, path: target.isEmpty ? path : target, fragment: fragment)
        }
        return EPUBTableOfContents(entries: entries)
    }

    /// From an EPUB2 NCX: its navPoints in document order (nested ones included).
    static func ncx(_ xml: String, path: String) -> EPUBTableOfContents {
        let root = MarkupElement.parse(xml)
        let base = EPUBPath.directory(of: path)
        let map = root.firstDescendant(named: "navmap") ?? root
        let entries = map.descendants(named: "navpoint").compactMap { point -> Entry? in
            guard let content = point.elements.first(where: { $0.name == "content" }),
                  let source = content[attribute: "src"], !source.isEmpty else { return nil }
            let label = point.elements.first { $0.name == "navlabel" }?.textContent ?? ""
            let (target, fragment) = EPUBPath.resolve(source, relativeTo: base)
            return Entry(title: label, path: target, fragment: fragment)
        }
        return EPUBTableOfContents(entries: entries)
    }
}
