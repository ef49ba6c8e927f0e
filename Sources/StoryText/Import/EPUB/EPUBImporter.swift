import Foundation
import StoryModel
import ZIPFoundation

/// EPUB 2 and 3: container.xml -> OPF -> spine documents in order, joined with a blank line;
/// chapters from the table of contents (nav.xhtml, else toc.ncx), else from headings.
enum EPUBImporter {
    static func load(_ archive: Archive, name: String, limits: ImportLimits) throws -> StoryDocument {
        var zip = try LimitedArchive(archive: archive, name: name, limits: limits) { path in
            ImportError.brokenEPUB(name: name, problem: .unreadableDocument(path: path))
        }
        guard let containerData = try zip.read("META-INF/container.xml"),
              let packagePath = EPUBPackage.packagePath(fromContainer: TextDecoding.decode(containerData)) else {
            throw ImportError.brokenEPUB(name: name, problem: .missingContainer)
        }
        guard let packageData = try zip.read(packagePath) else {
            throw ImportError.brokenEPUB(name: name, problem: .missingPackage(path: packagePath))
        }
        guard let package = EPUBPackage(opf: TextDecoding.decode(packageData), path: packagePath) else {
            throw ImportError.brokenEPUB(name: name, problem: .unreadablePackage(path: packagePath))
        }
        guard !package.spine.isEmpty else {
            throw ImportError.brokenEPUB(name: name, problem: .emptySpine)
        }

        let book = try BookText(package.spine, skipping: { EPUBApparatus.isApparatus($0, xhtml: $1, package: package) }, from: &zip, name: name, limits: limits)
        guard book.text.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) else {
            throw ImportError.emptyFile(name: name)
        }
        let title = package.title ?? book.headings.first { $0.level == 1 }?.title ?? StoryMetadata.title(fromFilename: name)
        let scalars = Array(book.text.unicodeScalars)
        let toc = try tableOfContents(package, from: &zip)
        let boundaries = book.boundaries(for: toc)
        let chapters: [Chapter]
        if Set(boundaries.map(\.start)).count >= 2 {
            chapters = ChapterTiling.chapters(from: boundaries, in: scalars, storyTitle: title)
        } else {
            // A missing or one-entry table of contents says nothing about chapters.
            chapters = ChapterDetector.chapters(headings: book.headings, in: scalars, title: title)
        }
        return StoryDocument(title: title, author: package.author, text: book.text, chapters: chapters)
    }

    private static func tableOfContents(_ package: EPUBPackage, from zip: inout LimitedArchive) throws -> EPUBTableOfContents? {
        if let nav = package.navigation, let data = try zip.read(nav.path) {
            let toc = EPUBTableOfContents.navigation(TextDecoding.decode(data), path: nav.path)
            if !toc.entries.isEmpty { return toc }
        }
        if let ncx = package.ncx, let data = try zip.read(ncx.path) {
            return EPUBTableOfContents.ncx(TextDecoding.decode(data), path: ncx.path)
        }
        return nil
    }
}

/// The spine's documents as one text, remembering where each document and anchor landed.
private struct BookText {
    var text = ""
    var headings: [StructuralHeading] = []
    /// Start offset of each spine document, by archive path.
    var documentStarts: [String: Int] = [:]
    var anchors: [String: [String: Int]] = [:]
    /// Documents left out as apparatus: table-of-contents entries for them name no chapter.
    var skippedDocuments: Set<String> = []

    /// `skipping` names documents that are not the book's text (its table of contents, title
    /// page, cover); they are left out unless nothing else has text.
    init(
        _ spine: [EPUBPackage.Item], skipping: (EPUBPackage.Item, String) -> Bool, from zip: inout LimitedArchive, name: String,
        limits: ImportLimits
    ) throws {
        var documents: [(item: EPUBPackage.Item, converted: ConvertedText, skipped: Bool)] = []
        for item in spine where !documents.contains(where: { $0.item.path == item.path }) {
            guard let data = try zip.read(item.path) else {
                throw ImportError.brokenEPUB(name: name, problem: .unreadableDocument(path: item.path))
            }
            let xhtml = TextDecoding.decode(data)
            documents.append((item, HTMLTextConverter.convert(xhtml), skipping(item, xhtml)))
        }
        let anyStory = documents.contains { !$0.skipped && $0.converted.scalarCount > 0 }
        var count = 0, utf8Count = 0
        var waitingForText: [String] = []
        for (item, converted, skipped) in documents {
            guard converted.scalarCount > 0, !(skipped && anyStory) else {
                if skipped && anyStory { skippedDocuments.insert(item.path) }
                // An image-only page: entries pointing at it mean the text that follows it.
                waitingForText.append(item.path)
                documentStarts[item.path] = count
                continue
            }
            if count > 0 {
                text += "\n\n"
                count += 2
                utf8Count += 2
            }
            for path in waitingForText { documentStarts[path] = count }
            waitingForText.removeAll()
            documentStarts[item.path] = count
            anchors[item.path] = converted.anchors.mapValues { $0 + count }
            headings += converted.headings.map { StructuralHeading(level: $0.level, title: $0.title, start: $0.start + count) }
            text += converted.text
            count += converted.scalarCount
            utf8Count += converted.text.utf8.count
            if utf8Count > limits.maxTextBytes {
                throw ImportError.tooLarge(name: name, bytes: utf8Count, limit: limits.maxTextBytes)
            }
        }
    }

    /// Table-of-contents entries placed in the text; entries outside the spine, and those for
    /// apparatus that is not narrated (title page, contents, copyright), are dropped.
    func boundaries(for toc: EPUBTableOfContents?) -> [ChapterBoundary] {
        (toc?.entries ?? []).compactMap { entry in
            guard let start = documentStarts[entry.path], !skippedDocuments.contains(entry.path) else { return nil }
            let offset = entry.fragment.flatMap { anchors[entry.path]?[$0] } ?? start
            return ChapterBoundary(start: offset, title: entry.title)
        }
    }
}
