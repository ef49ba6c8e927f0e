import StoryModel

extension ChapterDetector {
    /// Chapters from the headings of markup (HTML `<hN>`, Markdown `#`): the top-most heading level
    /// used at least twice marks chapters (a lone `<h1>` above `<h2>` chapters is the book's title
    /// and joins the opening). With no such level, headings in the text decide.
    static func chapters(headings: [StructuralHeading], in scalars: [Unicode.Scalar], title: String) -> [Chapter] {
        var counts: [Int: Int] = [:]
        for heading in headings { counts[heading.level, default: 0] += 1 }
        guard let level = counts.filter({ $0.value >= 2 }).keys.min() else {
            return chapters(in: scalars, title: title)
        }
        let boundaries = headings.filter { $0.level == level }.map { ChapterBoundary(start: $0.start, title: $0.title) }
        return ChapterTiling.chapters(from: boundaries, in: scalars, storyTitle: title)
    }
}
