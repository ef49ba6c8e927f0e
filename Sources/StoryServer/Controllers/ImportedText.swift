import Foundation

/// A story's text and metadata as received by `POST /api/stories`.
///
/// Plain text and Markdown are read here as UTF-8; HTML and EPUB import arrive with
/// StoryText's `StoryImporter`, which this type will delegate to.
struct ImportedText {
    var title: String
    var author: String?
    var text: String

    static let textExtensions: Set<String> = ["txt", "text", "md", "markdown"]

    static func paste(text: String, title: String?, author: String?) throws -> ImportedText {
        guard text.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) else {
            throw APIError(status: .unprocessableEntity, code: "empty_story", message: "The story has no text; paste some first.")
        }
        return ImportedText(title: cleanTitle(title) ?? titleFromText(text), author: cleanAuthor(author), text: text)
    }

    static func upload(data: Data, filename: String, title: String?, author: String?) throws -> ImportedText {
        let ext = (filename as NSString).pathExtension.lowercased()
        guard textExtensions.contains(ext) else {
            throw APIError.unsupportedMediaType(
                "This server imports .txt and .md files; '\(filename)' is not one. Save the story as plain text, or paste it."
            )
        }
        guard var text = String(data: data, encoding: .utf8) else {
            throw APIError(status: .unprocessableEntity, code: "not_utf8",
                           message: "'\(filename)' is not UTF-8 text; save it as UTF-8 and upload it again.")
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let fallback = ((filename as NSString).deletingPathExtension as NSString).lastPathComponent
        var imported = try paste(text: text, title: title, author: author)
        if cleanTitle(title) == nil, !fallback.isEmpty {
            imported.title = fallback.replacingOccurrences(of: "_", with: " ").replacingOccurrences(of: "-", with: " ")
        }
        return imported
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
