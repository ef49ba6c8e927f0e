import Foundation

/// What an EPUB's OPF package file says: metadata, manifest and reading order.
struct EPUBPackage {
    struct Item {
        var id: String
        /// Path inside the archive.
        var path: String
        var mediaType: String
        var properties: Set<String>

        var isDocument: Bool {
            let type = mediaType.lowercased()
            if type.contains("html") { return true }
            let ext = (path as NSString).pathExtension.lowercased()
            return type.isEmpty && ["xhtml", "html", "htm"].contains(ext)
        }
    }

    var title: String?
    var author: String?
    var items: [String: Item]
    /// Documents in reading order.
    var spine: [Item]
    /// The EPUB3 navigation document, if the manifest names one.
    var navigation: Item?
    /// The EPUB2 NCX table of contents, if any.
    var ncx: Item?
    /// Archive paths the EPUB2 `<guide>` marks as apparatus: cover, title page, table of
    /// contents, copyright page.
    var apparatus: Set<String> = []

    /// The package path that `META-INF/container.xml` names, or nil.
    static func packagePath(fromContainer xml: String) -> String? {
        let rootfiles = MarkupElement.parse(xml).descendants(named: "rootfile")
        let preferred = rootfiles.first { $0[attribute: "media-type"] == "application/oebps-package+xml" } ?? rootfiles.first
        return preferred?[attribute: "full-path"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Parses an OPF document found at `path`; nil if it is not a package at all.
    init?(opf xml: String, path: String) {
        let root = MarkupElement.parse(xml)
        guard let manifest = root.firstDescendant(named: "manifest") else { return nil }
        let base = EPUBPath.directory(of: path)
        var items: [String: Item] = [:]
        for element in manifest.descendants(named: "item") {
            guard let id = element[attribute: "id"], let href = element[attribute: "href"] else { continue }
            let properties = Set((element[attribute: "properties"] ?? "").split(separator: " ").map(String.init))
            let (itemPath, _) = EPUBPath.resolve(href, relativeTo: base)
            items[id] = Item(id: id, path: itemPath, mediaType: element[attribute: "media-type"] ?? "", properties: properties)
        }
        self.items = items
        let metadata = root.firstDescendant(named: "metadata") ?? root
        title = metadata.descendants(named: "title").lazy.map(\.textContent).first { !$0.isEmpty }
        let creators = metadata.descendants(named: "creator").filter { !$0.textContent.isEmpty }
        let authorElement = creators.first { ($0[attribute: "opf:role"] ?? $0[attribute: "role"]) == "aut" } ?? creators.first
        author = authorElement?.textContent

        let spineElement = root.firstDescendant(named: "spine")
        let references = spineElement?.descendants(named: "itemref") ?? []
        let linear = references.filter { ($0[attribute: "linear"] ?? "yes").lowercased() != "no" }
        // Non-linear items (covers, pop-ups) are skipped unless nothing else is left to read.
        let chosen = linear.isEmpty ? references : linear
        spine = chosen.compactMap { $0[attribute: "idref"].flatMap { items[$0] } }.filter(\.isDocument)
        navigation = items.values.first { $0.properties.contains("nav") }
        let guideTypes: Set<String> = ["cover", "title-page", "toc", "copyright-page"]
        for reference in root.firstDescendant(named: "guide")?.descendants(named: "reference") ?? []
        where guideTypes.contains((reference[attribute: "type"] ?? "").lowercased()) {
            if let href = reference[attribute: "href"] { apparatus.insert(EPUBPath.resolve(href, relativeTo: base).path) }
        }
        if let tocID = spineElement?[attribute: "toc"], let item = items[tocID] {
            ncx = item
        } else {
            ncx = items.values.first { $0.mediaType == "application/x-dtbncx+xml" }
        }
    }
}

/// Paths inside an EPUB: hrefs are URL-encoded and relative to the file that contains them.
enum EPUBPath {
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    /// The archive path and fragment an href points at, resolved against `directory`.
    static func resolve(_ href: String, relativeTo directory: String) -> (path: String, fragment: String?) {
        var reference = Substring(href.trimmingWhitespace)
        var fragment: String?
        if let hash = reference.firstIndex(of: "#") {
            fragment = String(reference[reference.index(after: hash)...])
            reference = reference[..<hash]
        }
        let decoded = String(reference).removingPercentEncoding ?? String(reference)
        guard !decoded.isEmpty else { return ("", fragment) }
        var components = decoded.hasPrefix("/") ? [] : directory.split(separator: "/").map(String.init)
        for component in decoded.split(separator: "/") {
            switch component {
            case ".": continue
            case "..": if !components.isEmpty { components.removeLast() }
            default: components.append(String(component))
            }
        }
        return (components.joined(separator: "/"), fragment.flatMap { $0.isEmpty ? nil : $0 })
    }
}
