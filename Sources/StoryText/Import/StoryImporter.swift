import Foundation
import StoryModel
import ZIPFoundation

/// Reads a story file into a `StoryDocument`: its text as narration will read it, its title and
/// author, and its chapters. Pure apart from reading the file; writes nothing.
public enum StoryImporter {
    /// Reads .txt, .md/.markdown, .html/.htm/.xhtml, .epub (by extension; sniff content when unknown).
    /// The returned document always has chapters: from the EPUB TOC, else ChapterDetector.
    public static func load(contentsOf url: URL, limits: ImportLimits = ImportLimits()) throws -> StoryDocument {
        let path = url.path
        let name = url.lastPathComponent
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ImportError.fileNotFound(path: path)
        }
        guard !isDirectory.boolValue else {
            throw ImportError.unreadableFile(path: path, reason: "it is a folder")
        }
        let format = try StoryFormat.from(filename: name)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        // Refuse before reading: a file far over the limit should not be loaded at all.
        let sizeLimit = format == .epub || format == nil ? max(limits.maxTextBytes, limits.maxUncompressedBytes) : limits.maxTextBytes
        if size > sizeLimit {
            throw ImportError.tooLarge(name: name, bytes: size, limit: sizeLimit)
        }
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            throw ImportError.unreadableFile(path: path, reason: (error as NSError).localizedDescription)
        }
        return try load(data: data, filename: name, limits: limits)
    }

    /// Same for bytes already in memory (the web server's uploads); `filename` gives the format.
    /// What a reader should know about how a text file's bytes were read (not UTF-8, or UTF-8
    /// with broken bytes), or nil when there is nothing to say.
    public static func encodingNote(for data: Data) -> String? {
        TextDecoding.note(for: data)
    }

    public static func load(data: Data, filename: String, limits: ImportLimits = ImportLimits()) throws -> StoryDocument {
        let name = (filename as NSString).lastPathComponent.nilIfEmpty ?? "The upload"
        let format = try StoryFormat.from(filename: name)
        guard !data.isEmpty else { throw ImportError.emptyFile(name: name) }
        let verdict = ContentSniffer.sniff(data)

        if format == .epub || verdict == .zip {
            guard verdict == .zip, let archive = ZipReading.archive(data) else {
                if format == .epub { throw ImportError.brokenEPUB(name: name, problem: .notAZip) }
                throw ImportError.binaryFile(name: name, kind: "a ZIP archive")
            }
            if format != .epub, !isEPUB(archive) {
                throw ImportError.binaryFile(name: name, kind: zipKind(archive))
            }
            return try EPUBImporter.load(archive, name: name, limits: limits)
        }
        if case .binary(let kind) = verdict {
            throw ImportError.binaryFile(name: name, kind: kind)
        }
        if data.count > limits.maxTextBytes {
            throw ImportError.tooLarge(name: name, bytes: data.count, limit: limits.maxTextBytes)
        }
        let decoded = TextDecoding.decode(data)
        guard decoded.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) else {
            throw ImportError.emptyFile(name: name)
        }
        switch format ?? (ContentSniffer.looksLikeHTML(decoded) ? .html : .plainText) {
        case .markdown: return try markupDocument(MarkdownConverter.convert(decoded), name: name, limits: limits)
        case .html: return try markupDocument(HTMLTextConverter.convert(decoded), name: name, limits: limits)
        case .plainText, .epub: return plainTextDocument(decoded, name: name, limits: limits)
        }
    }

    private static func plainTextDocument(_ text: String, name: String, limits: ImportLimits) -> StoryDocument {
        let header = StoryMetadata.gutenbergHeader(in: text)
        let titlePage = header.title == nil ? StoryMetadata.titlePage(in: text) : nil
        let title = header.title ?? titlePage?.title ?? StoryMetadata.title(fromFilename: name)
        let chapters = ChapterDetector.chapters(in: text, title: title)
        return StoryDocument(title: title, author: header.author ?? titlePage?.author, text: text, chapters: chapters)
    }

    private static func markupDocument(_ converted: ConvertedText, name: String, limits: ImportLimits) throws -> StoryDocument {
        guard converted.scalarCount > 0 else { throw ImportError.emptyFile(name: name) }
        let bytes = converted.text.utf8.count
        if bytes > limits.maxTextBytes {
            throw ImportError.tooLarge(name: name, bytes: bytes, limit: limits.maxTextBytes)
        }
        let title = converted.title ?? converted.firstTopHeading ?? StoryMetadata.title(fromFilename: name)
        let scalars = Array(converted.text.unicodeScalars)
        let chapters = ChapterDetector.chapters(headings: converted.headings, in: scalars, title: title)
        return StoryDocument(title: title, author: converted.author, text: converted.text, chapters: chapters)
    }

    private static func isEPUB(_ archive: Archive) -> Bool {
        archive["META-INF/container.xml"] != nil || archive["mimetype"] != nil && !isOffice(archive)
    }

    private static func isOffice(_ archive: Archive) -> Bool {
        archive["word/document.xml"] != nil || archive["content.xml"] != nil
    }

    /// What a ZIP that is not an EPUB probably is, for the error message.
    private static func zipKind(_ archive: Archive) -> String {
        if archive["word/document.xml"] != nil { return "a Word document (.docx)" }
        if archive["content.xml"] != nil { return "an OpenDocument file (.odt)" }
        return "a ZIP archive that is not an EPUB"
    }
}
