import StoryModel

/// Where a chapter starts (a Unicode-scalar offset) and what it is called.
struct ChapterBoundary: Equatable, Sendable {
    var start: Int
    var title: String
}

/// Turns chapter starts into chapters that tile the whole text, so every scalar belongs to
/// exactly one chapter and narration never drops a word.
enum ChapterTiling {
    /// Text before the first heading with more letters than this becomes its own chapter; shorter
    /// front matter (an epigraph, a title line) is read as the start of the first chapter.
    static let longOpening = 1_000
    static let openingTitle = "Opening"

    static func chapters(from boundaries: [ChapterBoundary], in scalars: [Unicode.Scalar], storyTitle: String) -> [Chapter] {
        let count = scalars.count
        var starts: [ChapterBoundary] = []
        for boundary in boundaries.enumerated().sorted(by: { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }) {
            let start = max(0, boundary.element.start)
            guard start < count else { continue }
            if let last = starts.last, last.start == start {
                // Two entries for one place ("Part One" and its first chapter): keep both names.
                if !boundary.element.title.isEmpty, last.title != boundary.element.title {
                    starts[starts.count - 1].title = last.title.isEmpty ? boundary.element.title : "\(last.title) — \(boundary.element.title)"
                }
                continue
            }
            starts.append(ChapterBoundary(start: start, title: boundary.element.title))
        }
        guard let first = starts.first else {
            return [Chapter(title: storyTitle, start: 0, end: count)]
        }
        var chapters: [Chapter] = []
        if first.start > 0 {
            var letters = 0
            for scalar in scalars[0..<first.start] where !scalar.properties.isWhitespace {
                letters += 1
                if letters > longOpening { break }
            }
            if letters > longOpening {
                chapters.append(Chapter(title: openingTitle, start: 0, end: first.start))
            } else {
                starts[0].start = 0
            }
        }
        for (index, boundary) in starts.enumerated() {
            let end = index + 1 < starts.count ? starts[index + 1].start : count
            let title = boundary.title.isEmpty ? "Chapter \(chapters.count + 1)" : boundary.title
            chapters.append(Chapter(title: title, start: boundary.start, end: end))
        }
        return chapters
    }
}
