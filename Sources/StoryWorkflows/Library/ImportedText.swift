import Foundation
import Platform
import StoryModel
import StoryText

/// A story's text and metadata as received by `POST /api/stories`: pasted text as it is, an
/// uploaded file read by StoryText's `StoryImporter` (.txt, .md, .html, .epub), or a story
/// bundle exported by StoryVoice (`.storyvoice.zip`), which brings its analysis and voices along.
public struct ImportedText: Sendable {
    var title: String
    var author: String?
    var text: String
    /// From a bundle: the analysis (corrections included) and the voice choices as stored.
    var analysis: StoryAnalysis?
    var castJSON: Data?
    /// The chapters the importer found (headings, an EPUB's spine); kept so the analysis, the
    /// player and exports have them as the CLI does. Pasted text has them detected.
    var chapters: [Chapter] = []

    public static func paste(text: String, title: String?, author: String?) throws -> ImportedText {
        guard text.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) else {
            throw ServiceError(.invalid, code: "empty_story", "The story has no text; paste some first.")
        }
        let title = cleanTitle(title) ?? titleFromText(text)
        return ImportedText(title: title, author: cleanAuthor(author), text: text, chapters: ChapterDetector.chapters(in: text, title: title))
    }

    public static func upload(data: Data, filename: String, title: String?, author: String?) throws -> ImportedText {
        let document: StoryDocument
        do {
            if StoryBundle.isBundle(data) {
                let bundle = try StoryBundle.read(data, name: filename)
                return ImportedText(
                    title: cleanTitle(title) ?? cleanTitle(bundle.title) ?? "Untitled", author: cleanAuthor(author) ?? cleanAuthor(bundle.author),
                    text: bundle.text, analysis: bundle.analysis, castJSON: bundle.cast)
            }
            document = try StoryImporter.load(data: data, filename: filename)
        } catch let error as ImportError {
            throw storyError(for: error)
        }
        return ImportedText(
            title: cleanTitle(title) ?? cleanTitle(document.title) ?? "Untitled",
            author: cleanAuthor(author) ?? cleanAuthor(document.author),
            text: document.text, chapters: document.chapters
        )
    }

    /// The importer's message, under the status that fits it.
    static func storyError(for error: ImportError) -> ServiceError {
        switch error {
        case .emptyFile:
            ServiceError(.invalid, code: "empty_story", error.description)
        case .tooLarge(let name, _, let limit):
            ServiceError(.tooLarge, code: "payload_too_large", "\(name) holds more than \(limit / 1_000_000) MB of text, more than this server imports.")
        case .binaryFile, .unsupportedExtension:
            ServiceError(.unsupportedMedia, code: "unsupported_media_type", error.description)
        case .brokenEPUB, .brokenBundle, .zipBomb, .fileNotFound, .unreadableFile:
            ServiceError(.invalid, code: "unreadable_story", error.description)
        }
    }

    private static func cleanTitle(_ title: String?) -> String? {
        guard let trimmed = title?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        return String(trimmed.prefix(300))
    }

    private static func cleanAuthor(_ author: String?) -> String? {
        cleanTitle(author)
    }

    /// The first non-empty line, without Markdown heading marks, shortened.
    private static func titleFromText(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline)
            .lazy
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .first { !$0.isEmpty } ?? "Untitled"
        let bare = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
        return bare.count > 80 ? String(bare.prefix(80)) + "…" : (bare.isEmpty ? "Untitled" : bare)
    }
}
