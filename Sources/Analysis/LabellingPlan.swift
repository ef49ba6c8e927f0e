import StoryModel

/// A stretch of text shown in a request, `[start, end)` in scalars, within one chapter.
public struct PassageWindow: Sendable, Hashable {
    public var range: Range<Int>
    public var chapter: Int
}

/// One request's worth of spans, with their context: whole chapters where they fit the
/// budget, so a sparse chapter shares a request with its neighbours and a dense one is split.
public struct LabellingBatch: Sendable, Hashable {
    /// Indices into the analysis's segments, in text order.
    public var segments: [Int]
    /// The text shown, in order and not overlapping.
    public var windows: [PassageWindow]
    /// Indices of the chapters the spans are in.
    public var chapters: [Int]
    /// "Chapter 3" or "Chapter 3 – Chapter 5", for notes.
    public var title: String

    /// The batch in two, each with the passages its spans are in (`start` gives a segment's
    /// offset): for a request too long for a small model's window. Nil for a single span.
    func halves(start: (Int) -> Int) -> (LabellingBatch, LabellingBatch)? {
        guard segments.count > 1 else { return nil }
        func part(_ indices: ArraySlice<Int>) -> LabellingBatch {
            let shown = windows.filter { window in indices.contains { window.range.contains(start($0)) } }
            var batch = self
            batch.segments = Array(indices)
            batch.windows = shown
            batch.chapters = shown.reduce(into: [Int]()) { if $0.last != $1.chapter { $0.append($1.chapter) } }
            return batch
        }
        let middle = segments.count / 2
        return (part(segments[..<middle]), part(segments[middle...]))
    }
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

        // Targets by chapter, each with its window of context.
        var byChapter: [[(segment: Int, window: Range<Int>)]] = Array(repeating: [], count: chapters.count)
        var chapterIndex = 0
        for index in targets {
            let segment = segments[index]
            while chapterIndex < chapters.count - 1, segment.start >= chapters[chapterIndex].end { chapterIndex += 1 }
            let bounds = chapters[chapterIndex]
            let window = Self.window(around: segment, in: text, within: bounds.start..<max(bounds.start, bounds.end), context: options.contextCharacters)
            byChapter[chapterIndex].append((index, window))
        }

        // The character budget of a passage: tokens are about four characters, and the
        // roster and instructions take part of the budget.
        let passageBudget = max(2000, (options.inputTokenBudget - 1200) * 4)
        var batches: [LabellingBatch] = []
        var open = BatchBuilder()
        for (chapter, spans) in byChapter.enumerated() where !spans.isEmpty {
            // A chapter that does not fit what is left of the open request starts a new one:
            // a chapter is split across requests only when it is too big for one by itself.
            var whole = BatchBuilder()
            for span in spans { whole.add(span.segment, window: span.window, chapter: chapter) }
            if !open.segments.isEmpty,
               open.segments.count + whole.segments.count > options.maxSpansPerRequest || open.characters + whole.characters > passageBudget {
                batches.append(open.build(chapters: chapters))
                open = BatchBuilder()
            }
            for span in spans {
                if !open.segments.isEmpty,
                   open.segments.count >= options.maxSpansPerRequest || open.characters + open.growth(adding: span.window, chapter: chapter) > passageBudget {
                    batches.append(open.build(chapters: chapters))
                    open = BatchBuilder()
                }
                open.add(span.segment, window: span.window, chapter: chapter)
            }
        }
        if !open.segments.isEmpty { batches.append(open.build(chapters: chapters)) }
        self.batches = batches
    }

    private struct BatchBuilder {
        var segments: [Int] = []
        var windows: [PassageWindow] = []
        var characters = 0

        func growth(adding window: Range<Int>, chapter: Int) -> Int {
            if let last = windows.last, last.chapter == chapter, window.lowerBound <= last.range.upperBound {
                return max(0, window.upperBound - last.range.upperBound)
            }
            return window.count
        }

        mutating func add(_ segment: Int, window: Range<Int>, chapter: Int) {
            characters += growth(adding: window, chapter: chapter)
            if let last = windows.last, last.chapter == chapter, window.lowerBound <= last.range.upperBound {
                windows[windows.count - 1].range = last.range.lowerBound..<max(last.range.upperBound, window.upperBound)
            } else {
                windows.append(PassageWindow(range: window, chapter: chapter))
            }
            segments.append(segment)
        }

        func build(chapters: [Chapter]) -> LabellingBatch {
            var indices: [Int] = []
            for window in windows where indices.last != window.chapter { indices.append(window.chapter) }
            let title = indices.count == 1
                ? chapters[indices[0]].title
                : "\(chapters[indices.first!].title) – \(chapters[indices.last!].title)"
            return LabellingBatch(segments: segments, windows: windows, chapters: indices, title: title)
        }
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
