import Foundation

/// Titles and authors read from what a file says about itself.
enum StoryMetadata {
    /// A Project Gutenberg header's "Title:" and "Author:" (continuation lines are indented).
    static func gutenbergHeader(in text: String) -> (title: String?, author: String?) {
        var title: String?, author: String?
        var current: String?
        for line in text.prefix(20_000).split(separator: "\n", omittingEmptySubsequences: false).prefix(150) {
            if line.hasPrefix("*** START OF") { break }
            if let value = field("Title:", line) {
                title = value
                current = "title"
            } else if let value = field("Author:", line) {
                author = value
                current = "author"
            } else if let first = line.first, first == " " || first == "\t", !line.trimmingWhitespace.isEmpty, let field = current {
                let more = line.trimmingWhitespace
                if field == "title" { title = title.map { "\($0) \(more)" } } else { author = author.map { "\($0) \(more)" } }
            } else {
                current = nil
            }
        }
        return (title?.nilIfEmpty, author?.nilIfEmpty)
    }

    private static func field(_ name: String, _ line: Substring) -> String? {
        guard line.hasPrefix(name) else { return nil }
        return line.dropFirst(name.count).trimmingWhitespace
    }

    /// A title page: a short title line first, then (after at most three blank lines) "by Author".
    /// ALL-CAPS titles are title-cased ("THE GAMBLER" -> "The Gambler").
    static func titlePage(in text: String) -> (title: String, author: String)? {
        let lines = text.prefix(2_000).split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.firstIndex(where: { !$0.trimmingWhitespace.isEmpty }) else { return nil }
        let title = lines[first].trimmingWhitespace
        guard title.count <= 80, HeadingLine.isTitleLike(title), HeadingLine(title) == nil,
              let next = lines[(first + 1)...].prefix(4).first(where: { !$0.trimmingWhitespace.isEmpty }) else { return nil }
        let byline = next.trimmingWhitespace
        guard byline.lowercased().hasPrefix("by "), byline.count <= 80 else { return nil }
        let author = byline.dropFirst(3).trimmingWhitespace
        guard !author.isEmpty else { return nil }
        let isAllCaps = !title.contains(where: \.isLowercase)
        return (isAllCaps ? titleCased(title.lowercased().split(separator: " ").map(String.init)) : title, author)
    }

    /// "the-gift-of-the-magi.txt" -> "The Gift of the Magi"; names with capitals keep them.
    static func title(fromFilename filename: String) -> String {
        let base = ((filename as NSString).lastPathComponent as NSString).deletingPathExtension
        let words = base.split(whereSeparator: { $0 == "-" || $0 == "_" || $0 == " " || $0 == "." }).map(String.init)
        guard !words.isEmpty else { return "Untitled" }
        if base.contains(where: \.isUppercase) { return words.joined(separator: " ") }
        return titleCased(words)
    }

    private static func titleCased(_ words: [String]) -> String {
        words.enumerated().map { index, word in
            if index > 0, index < words.count - 1, minorWords.contains(word) { return word }
            return word.prefix(1).uppercased() + word.dropFirst()
        }.joined(separator: " ")
    }

    private static let minorWords: Set<String> = [
        "a", "an", "the", "and", "but", "or", "nor", "for", "of", "in", "on", "at", "to", "by", "with", "from", "as",
    ]
}
