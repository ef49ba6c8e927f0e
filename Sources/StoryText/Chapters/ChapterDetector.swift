import StoryModel

/// Finds chapters in plain text from its headings.
public enum ChapterDetector {
    /// Chapters that tile [0, text.unicodeScalars.count) in order. Headings: "Chapter 1", "CHAPTER IV",
    /// "Chapter the First", "Part Two", "BOOK I", Markdown "# Title", optionally followed by a title line.
    /// Text before the first heading joins the first chapter unless it is long (then it is its own
    /// chapter titled e.g. "Opening"). No heading at all -> one chapter titled with the story's title.
    public static func chapters(in text: String, title: String) -> [Chapter] {
        let scalars = Array(text.unicodeScalars)
        return chapters(in: scalars, title: title)
    }

    static func chapters(in scalars: [Unicode.Scalar], title: String) -> [Chapter] {
        let headings = HeadingScan(scalars).headings()
        return ChapterTiling.chapters(from: Self.pruned(headings, in: scalars), in: scalars, storyTitle: title)
    }

    /// A heading found in the text, with where its heading lines end (so the body can be measured).
    struct Found {
        var start: Int
        var headingEnd: Int
        var kind: String
        var title: String
        var numeral: Int?
    }

    /// A heading with (almost) nothing under it is either a table-of-contents entry (the next
    /// heading is of the same kind: drop it) or a part heading that introduces a chapter (the next
    /// is of another kind: the chapter starts at the part heading and carries both names).
    static func pruned(_ found: [Found], in scalars: [Unicode.Scalar]) -> [ChapterBoundary] {
        var kept: [Found] = []
        var carried: Found?
        for (index, heading) in found.enumerated() {
            var heading = heading
            if let part = carried {
                heading.start = part.start
                heading.title = "\(part.title) — \(heading.title)"
                carried = nil
            }
            guard index + 1 < found.count else {
                kept.append(heading)
                break
            }
            let next = found[index + 1]
            if hasBody(scalars[min(heading.headingEnd, next.start)..<next.start]) {
                kept.append(heading)
            } else if next.kind != found[index].kind {
                carried = heading
            }
        }
        return kept.map { ChapterBoundary(start: $0.start, title: $0.title) }
    }

    /// True when the span holds at least `minimumBody` non-whitespace scalars (stops counting there).
    private static func hasBody(_ span: ArraySlice<Unicode.Scalar>) -> Bool {
        var letters = 0
        for scalar in span where !scalar.properties.isWhitespace {
            letters += 1
            if letters >= minimumBody { return true }
        }
        return false
    }

    /// Fewer letters than this between two headings means no real chapter lies between them.
    static let minimumBody = 40
}

/// One pass over the lines of a text, finding heading lines in context: a heading stands after a
/// blank line (or another heading, or the start) and before a blank line, a title line or another
/// heading.
struct HeadingScan {
    private let scalars: [Unicode.Scalar]
    private let lines: [Range<Int>]

    init(_ scalars: [Unicode.Scalar]) {
        self.scalars = scalars
        var lines: [Range<Int>] = []
        var start = 0
        for (offset, scalar) in scalars.enumerated() where scalar == "\n" {
            lines.append(start..<offset)
            start = offset + 1
        }
        lines.append(start..<scalars.count)
        self.lines = lines
    }

    func headings() -> [ChapterDetector.Found] {
        var found: [ChapterDetector.Found] = []
        var previousWasHeading = false
        var index = 0
        while index < lines.count {
            let current = index
            index += 1
            guard current == 0 || previousWasHeading || isBlank(current - 1), let heading = heading(at: current) else {
                previousWasHeading = false
                continue
            }
            var title = heading.label
            var end = lines[current].upperBound
            if !heading.isMarkdown {
                let followedByHeading = nextNonBlank(after: current, within: 3).map { self.heading(at: $0) != nil } ?? false
                if !followedByHeading, let titleIndex = titleLine(after: current) {
                    if !heading.hasTitle {
                        title += ": " + HeadingLine.cleanLabel(string(titleIndex))
                        end = lines[titleIndex].upperBound
                        index = titleIndex + 1
                    }
                } else if !followedByHeading, current + 1 < lines.count, !isBlank(current + 1) {
                    // A heading-like line running into a paragraph is the paragraph's first line.
                    previousWasHeading = false
                    continue
                }
            }
            found.append(.init(start: lines[current].lowerBound, headingEnd: end, kind: heading.kind, title: title, numeral: heading.numeral))
            previousWasHeading = true
        }
        return Self.numeralsInSequence(found)
    }

    /// Bare numerals ("I", "II", ...) are chapters only as a run counting up from one; a lone "I"
    /// or a stray number is text.
    private static func numeralsInSequence(_ found: [ChapterDetector.Found]) -> [ChapterDetector.Found] {
        var expected = 1
        var kept: [ChapterDetector.Found] = []
        var numerals = 0
        for heading in found {
            guard let value = heading.numeral else {
                kept.append(heading)
                continue
            }
            if value == expected {
                kept.append(heading)
                expected += 1
                numerals += 1
            }
        }
        return numerals >= 2 ? kept : kept.filter { $0.numeral == nil }
    }

    private func heading(at index: Int) -> HeadingLine? {
        let line = lines[index]
        guard line.count <= HeadingLine.maxLength, mayBeHeading(line) else { return nil }
        return HeadingLine(string(index))
    }

    /// A cheap look at the first word, so ordinary lines never become Strings.
    private func mayBeHeading(_ line: Range<Int>) -> Bool {
        if line.count <= 12 { return true }  // Short enough to be a bare numeral; parsing is cheap.
        var word = ""
        for scalar in scalars[line].drop(while: { $0 == " " || $0 == "\t" }) {
            if scalar == "#" { return word.isEmpty }
            guard scalar.properties.isAlphabetic, word.unicodeScalars.count < 14 else { break }
            word.unicodeScalars.append(scalar)
        }
        return HeadingLine.startsWithKeyword(word.lowercased())
    }

    /// A short title under a heading ("CHAPTER I" / "THE BEGINNING"), alone in its paragraph.
    private func titleLine(after index: Int) -> Int? {
        guard let next = nextNonBlank(after: index, within: 3) else { return nil }
        guard lines[next].count <= 80, next + 1 >= lines.count || isBlank(next + 1), heading(at: next) == nil else { return nil }
        let text = string(next).trimmingWhitespace
        guard let first = text.first, let last = text.last else { return nil }
        // Dialogue and clauses are the chapter's first line, not its title.
        if "\"'“‘«—-(".contains(first) || ",;:".contains(last) { return nil }
        let allCaps = !text.contains(where: \.isLowercase)
        if !allCaps, last == "?" || last == "!" { return nil }
        return HeadingLine.isTitleLike(text) ? next : nil
    }

    private func nextNonBlank(after index: Int, within blanks: Int) -> Int? {
        var next = index + 1
        while next < lines.count, isBlank(next) {
            if next - index > blanks { return nil }
            next += 1
        }
        return next < lines.count && next - index - 1 <= blanks ? next : nil
    }

    private func isBlank(_ index: Int) -> Bool {
        scalars[lines[index]].allSatisfy { $0.properties.isWhitespace }
    }

    private func string(_ index: Int) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[lines[index]])
        return String(view)
    }
}
