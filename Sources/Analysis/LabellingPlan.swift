import StoryModel

/// One request's worth of spans: dialogue segments of one chapter, with their context.
public struct LabellingBatch: Sendable, Hashable {
    /// Index of the chapter the spans are in.
    public var chapter: Int
    public var chapterTitle: String
    /// Indices into the analysis's segments, in text order.
    public var segments: [Int]
    /// The text windows shown, `[start, end)` in scalars, in order and not overlapping.
    public var windows: [Range<Int>]
}

/// Which spans go to the model and how they are grouped into requests: a pure function of
/// the text, the offline analysis, the mode and the options.
public struct LabellingPlan: Sendable, Hashable {
    public var batches: [LabellingBatch]
    /// Dialogue segments in the story, and how many of them are sent.
    public var dialogueCount: Int
    public var targetCount: Int

    public init(text: ScalarText, analysis: StoryAnalysis, chapters: [Chapter], mode: LabellingMode, options: LabellingOptions) {
        let segments = analysis.segments
        let dialogue = segments.indices.filter { segments[$0].kind == .dialogue }
        let targets = dialogue.filter { index in
            mode == .full || (segments[index].confidence ?? 0) < options.confidenceThreshold
        }
        dialogueCount = dialogue.count
        targetCount = targets.count

        var batches: [LabellingBatch] = []
        var chapterIndex = 0
        var current: (segments: [Int], windows: [Range<Int>], chars: Int)?

        func close() {
            if let open = current, !open.segments.isEmpty {
                batches.append(LabellingBatch(chapter: chapterIndex, chapterTitle: chapters[chapterIndex].title, segments: open.segments, windows: open.windows))
            }
            current = nil
        }

        // The character budget of a passage: tokens are about four characters, and the
        // roster and instructions take part of the budget.
        let passageBudget = max(2000, (options.inputTokenBudget - 1200) * 4)
        for index in targets {
            let segment = segments[index]
            while chapterIndex < chapters.count - 1, segment.start >= chapters[chapterIndex].end {
                close()
                chapterIndex += 1
            }
            let bounds = chapters[chapterIndex]
            let window = Self.window(around: segment, in: text, within: bounds.start..<max(bounds.start, bounds.end), context: options.contextCharacters)
            var open = current ?? ([], [], 0)
            let added = open.windows.last.map { window.upperBound - max(window.lowerBound, $0.upperBound) } ?? window.count
            if !open.segments.isEmpty, open.segments.count >= options.maxSpansPerRequest || open.chars + max(0, added) > passageBudget {
                close()
                open = ([], [], 0)
            }
            if let last = open.windows.last, window.lowerBound <= last.upperBound {
                open.windows[open.windows.count - 1] = last.lowerBound..<max(last.upperBound, window.upperBound)
                open.chars += max(0, window.upperBound - last.upperBound)
            } else {
                open.windows.append(window)
                open.chars += window.count
            }
            open.segments.append(index)
            current = open
        }
        close()
        self.batches = batches
    }

    /// `context` scalars either side of the segment, widened to whole words, kept within the chapter.
    static func window(around segment: Segment, in text: ScalarText, within bounds: Range<Int>, context: Int) -> Range<Int> {
        let floor = max(0, min(bounds.lowerBound, segment.start))
        let ceiling = min(text.count, max(bounds.upperBound, segment.end))
        var lower = max(floor, segment.start - context)
        var upper = min(ceiling, segment.end + context)
        while lower > floor, lower < segment.start, !text[lower - 1].properties.isWhitespace { lower -= 1 }
        while upper < ceiling, upper > segment.end, !text[upper].properties.isWhitespace { upper += 1 }
        return lower..<upper
    }

    /// The story's chapters: the analysis's, else the source's, else the whole text as one.
    public static func chapters(document: StoryDocument, analysis: StoryAnalysis, textLength: Int) -> [Chapter] {
        let chosen = !analysis.chapters.isEmpty ? analysis.chapters : document.chapters
        guard !chosen.isEmpty else { return [Chapter(title: document.title, start: 0, end: textLength)] }
        var sorted = chosen.sorted { $0.start < $1.start }
        // Text before the first chapter belongs to it; the last runs to the end.
        sorted[0].start = 0
        sorted[sorted.count - 1].end = max(sorted[sorted.count - 1].end, textLength)
        return sorted
    }
}
