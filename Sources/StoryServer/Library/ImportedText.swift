import Foundation
import StoryModel
import StoryText

/// A story's text and metadata as received by `POST /api/stories`: pasted text as it is, an
/// uploaded file read by StoryText's `StoryImporter` (.txt, .md, .html, .epub), or a story
/// bundle exported by StoryVoice (`.storyvoice.zip`), which brings its analysis and voices along.
struct ImportedText {
    var title: String
    var author: String?
    var text: String
    /// From a bundle: the analysis (corrections included) and the voice choices as stored.
    var analysis: StoryAnalysis?
    var castJSON: Data?

    static func paste(text: String, title: String?, author: String?) throws -> ImportedText {
        guard text.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) else {
            throw APIError(status: .unprocessableEntity, code: "empty_story", message: "The story has no text; paste some first.")
        }
        return ImportedText(title: cleanTitle(title) ?? titleFromText(text), author: cleanAuthor(author), text: text)
    }

    static func upload(data: Data, filename: String, title: String?, author: String?) throws -> ImportedText {
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
            throw apiError(for: error)
        }
        return ImportedText(
            title: cleanTitle(title) ?? cleanTitle(document.title) ?? "Untitled",
            author: cleanAuthor(author) ?? cleanAuthor(document.author),
            text: document.text
        )
    }

    /// The importer's message, under the status that fits it.
    static func apiError(for error: ImportError) -> APIError {
        switch error {
        case .emptyFile:
            APIError(status: .unprocessableEntity, code: "empty_story", message: error.description)
        case .tooLarge(let name, _, let limit):
            APIError(status: .payloadTooLarge, code: "payload_too_large",
                     message: "\(name) holds more than \(limit / 1_000_000) MB of text, more than this server imports.")
        case .binaryFile, .unsupportedExtension:
            APIError(status: .unsupportedMediaType, code: "unsupported_media_type", message: error.description)
        case .brokenEPUB, .brokenBundle, .zipBomb, .fileNotFound, .unreadableFile:
            APIError(status: .unprocessableEntity, code: "unreadable_story", message: error.description)
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
