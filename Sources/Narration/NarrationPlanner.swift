import StoryModel

/// Plans a story's performance: which voice says which span, in order, with pauses. Pure.
public struct NarrationPlanner: Sendable {
    /// Narration longer than this (in scalars) splits at sentence ends.
    public var maxUtteranceLength = 600
    public var pauses = PausePolicy()

    public init() {}

    public func plan(text: String, analysis: StoryAnalysis, cast: Cast) -> [Utterance] {
        let scalars = ScalarText(text).scalars
        var utterances: [Utterance] = []
        var chapterIndex = 0
        var lastChapterSpoken = -1
        for (index, segment) in analysis.segments.enumerated() {
            let voice = segment.kind == .dialogue ? cast.assignment(for: segment.speaker) : cast.narrator
            for piece in pieces(of: segment, in: scalars) {
                while chapterIndex + 1 < analysis.chapters.count && analysis.chapters[chapterIndex + 1].start <= piece.lowerBound {
                    chapterIndex += 1
                }
                let spoken = SpokenText.make(scalars[piece.lowerBound..<piece.upperBound])
                guard SpokenText.isSpeakable(spoken) else { continue }
                let pause: Double
                if utterances.isEmpty {
                    pause = 0
                } else if chapterIndex != lastChapterSpoken {
                    pause = pauses.chapter
                } else {
                    pause = containsParagraphBreak(scalars, from: utterances[utterances.count - 1].end, to: piece.lowerBound)
                        ? pauses.paragraph : pauses.withinParagraph
                }
                lastChapterSpoken = chapterIndex
                utterances.append(Utterance(
                    segment: index, start: piece.lowerBound, end: piece.upperBound, spokenText: spoken, kind: segment.kind,
                    speaker: segment.kind == .dialogue ? segment.speaker : nil, voice: voice,
                    pauseBefore: pause, chapter: chapterIndex))
            }
        }
        return utterances
    }

    /// A segment's non-blank paragraphs, long ones cut into groups of whole sentences.
    func pieces(of segment: Segment, in scalars: [Unicode.Scalar]) -> [Range<Int>] {
        let end = min(segment.end, scalars.count)
        var result: [Range<Int>] = []
        var start = segment.start
        var i = segment.start
        while i < end {
            if scalars[i] == "\n" {
                var j = i + 1
                while j < end && scalars[j].properties.isWhitespace && scalars[j] != "\n" { j += 1 }
                // A blank line ends a paragraph; single line breaks are just wrapping.
                if j < end && scalars[j] == "\n" {
                    appendTrimmed(start..<i, scalars, to: &result)
                    start = j
                    i = j
                    continue
                }
            }
            i += 1
        }
        appendTrimmed(start..<end, scalars, to: &result)
        return result.flatMap { splitLong($0, scalars) }
    }

    private func appendTrimmed(_ range: Range<Int>, _ scalars: [Unicode.Scalar], to result: inout [Range<Int>]) {
        var lower = range.lowerBound, upper = range.upperBound
        while lower < upper && scalars[lower].properties.isWhitespace { lower += 1 }
        while upper > lower && scalars[upper - 1].properties.isWhitespace { upper -= 1 }
        if lower < upper { result.append(lower..<upper) }
    }

    private func splitLong(_ range: Range<Int>, _ scalars: [Unicode.Scalar]) -> [Range<Int>] {
        guard range.count > maxUtteranceLength else { return [range] }
        var result: [Range<Int>] = []
        var start = range.lowerBound
        var lastBoundary: Int?
        var i = range.lowerBound
        while i < range.upperBound {
            let s = scalars[i]
            if (s == "." || s == "!" || s == "?" || s == ";") && i + 1 < range.upperBound && scalars[i + 1] == " " {
                lastBoundary = i + 1
            }
            if i - start >= maxUtteranceLength, let boundary = lastBoundary, boundary > start {
                appendTrimmed(start..<boundary, scalars, to: &result)
                start = boundary
                lastBoundary = nil
            }
            i += 1
        }
        appendTrimmed(start..<range.upperBound, scalars, to: &result)
        return result
    }

    private func containsParagraphBreak(_ scalars: [Unicode.Scalar], from: Int, to: Int) -> Bool {
        guard from < to else { return false }
        return scalars[from..<to].contains("\n")
    }
}
