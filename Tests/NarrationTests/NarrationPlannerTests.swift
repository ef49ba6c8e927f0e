import Testing
@testable import Narration
import StoryModel

@Suite struct NarrationPlannerTests {
    static let text = """
        CHAPTER I

        Alice looked up. "Who are you?" she asked.

        "Nobody," said the man.

        CHAPTER II

        The end came quickly.
        """

    /// A hand-made analysis of `text`: quotes as dialogue, the rest narration.
    static func analysis() -> StoryAnalysis {
        let scalars = Array(text.unicodeScalars)
        func find(_ needle: String, from: Int = 0) -> Int {
            let n = Array(needle.unicodeScalars)
            for i in from...(scalars.count - n.count) where Array(scalars[i..<i + n.count]) == n { return i }
            fatalError("fixture text lacks \(needle)")
        }
        let q1 = find("\"Who"), q1end = find("?\"") + 2
        let q2 = find("\"Nobody"), q2end = find(",\"", from: q2) + 2
        let chapter2 = find("CHAPTER II")
        return StoryAnalysis(
            title: "Test",
            characters: [Character(id: "c1", name: "Alice", gender: .female, lines: 1),
                         Character(id: "c2", name: "the man", gender: .male, lines: 1)],
            chapters: [Chapter(title: "Chapter I", start: 0, end: chapter2), Chapter(title: "Chapter II", start: chapter2, end: scalars.count)],
            segments: [
                Segment(start: 0, end: q1, kind: .narration),
                Segment(start: q1, end: q1end, kind: .dialogue, speaker: "c1", confidence: 0.9),
                Segment(start: q1end, end: q2, kind: .narration),
                Segment(start: q2, end: q2end, kind: .dialogue, speaker: "c2", confidence: 0.9),
                Segment(start: q2end, end: scalars.count, kind: .narration),
            ])
    }

    static let cast = Cast(
        narrator: VoiceAssignment(voice: "flite:slt"),
        characters: ["c1": VoiceAssignment(voice: "espeak-ng:en-us+f3"), "c2": VoiceAssignment(voice: "flite:rms")])

    @Test func narrationSplitsIntoParagraphsAndQuotesKeepTheirSpeaker() {
        let plan = NarrationPlanner().plan(text: Self.text, analysis: Self.analysis(), cast: Self.cast)
        #expect(plan.map(\.spokenText) == [
            "CHAPTER I", "Alice looked up.", "Who are you?", "she asked.", "Nobody", "said the man.",
            "CHAPTER II", "The end came quickly.",
        ])
        #expect(plan.map(\.voice.voice) == [
            "flite:slt", "flite:slt", "espeak-ng:en-us+f3", "flite:slt", "flite:rms", "flite:slt", "flite:slt", "flite:slt",
        ])
        #expect(plan[2].speaker == "c1" && plan[2].kind == .dialogue)
        #expect(plan[3].speaker == nil && plan[3].kind == .narration)
        #expect(plan.map(\.chapter) == [0, 0, 0, 0, 0, 0, 1, 1])
    }

    @Test func pausesAreLongerBetweenParagraphsThanBetweenAQuoteAndItsTag() {
        let plan = NarrationPlanner().plan(text: Self.text, analysis: Self.analysis(), cast: Self.cast)
        let pauses = PausePolicy()
        #expect(plan[0].pauseBefore == 0)
        #expect(plan[1].pauseBefore == pauses.paragraph)       // heading -> paragraph
        #expect(plan[2].pauseBefore == pauses.withinParagraph)  // narration -> quote, same paragraph
        #expect(plan[3].pauseBefore == pauses.withinParagraph)  // quote -> its tag
        #expect(plan[4].pauseBefore == pauses.paragraph)
        #expect(plan[6].pauseBefore == pauses.chapter)
        #expect(pauses.chapter > pauses.paragraph && pauses.paragraph > pauses.withinParagraph)
    }

    @Test func everyUtteranceLiesInsideItsSegmentInOrder() {
        let analysis = Self.analysis()
        let plan = NarrationPlanner().plan(text: Self.text, analysis: analysis, cast: Self.cast)
        var previousEnd = 0
        for utterance in plan {
            let segment = analysis.segments[utterance.segment]
            #expect(utterance.start >= segment.start && utterance.end <= segment.end)
            #expect(utterance.start >= previousEnd)
            previousEnd = utterance.end
        }
    }

    @Test func longNarrationSplitsAtSentenceEnds() {
        let sentence = "The river ran on past the mill and under the bridge. "
        let text = String(repeating: sentence, count: 40)
        let count = text.unicodeScalars.count
        let analysis = StoryAnalysis(title: "Long", characters: [], chapters: [Chapter(title: "One", start: 0, end: count)],
                                     segments: [Segment(start: 0, end: count, kind: .narration)])
        var planner = NarrationPlanner()
        planner.maxUtteranceLength = 200
        let plan = planner.plan(text: text, analysis: analysis, cast: Self.cast)
        #expect(plan.count > 5)
        for utterance in plan {
            #expect(utterance.spokenText.hasSuffix("bridge."))
            #expect(utterance.end - utterance.start <= 200 + sentence.count)
        }
    }
}

@Suite struct SpokenTextTests {
    func spoken(_ s: String) -> String { SpokenText.make(Array(s.unicodeScalars)[...]) }

    @Test func dropsQuoteMarksAndKeepsApostrophes() {
        #expect(spoken("\u{201C}Don't go,\u{201D} she said") == "Don't go, she said")
        #expect(spoken("'Bertie, why do you bound?' he sang") == "Bertie, why do you bound? he sang")
        #expect(spoken("the girls' o'clock") == "the girls o'clock")
    }

    @Test func dashesBecomePausesAndLayoutCollapses() {
        #expect(spoken("that window--\"") == "that window")
        #expect(spoken("attention--but not") == "attention, but not")
        #expect(spoken("a\n  _very_   long\nline") == "a very long line")
    }

    @Test func punctuationAloneIsNotSpeakable() {
        #expect(!SpokenText.isSpeakable(spoken("\" -- \"")))
        #expect(SpokenText.isSpeakable(spoken("\"1914\"")))
    }
}

@Suite("Cutting a book into parts for parallel encoders")
struct EncoderPartsTests {
    /// 100 lines of 3 s at 10 Hz (30 samples each), with a long pause before every 7th line.
    func assembly(lines: Int = 100) -> (Narrator.Assembly, [Double]) {
        let pauses = (0..<lines).map { $0 % 7 == 0 ? 2.0 : 0.5 }
        var starts: [Int] = [], position = 0
        for pause in pauses {
            starts.append(position)
            position += Int(pause * 10) + 30
        }
        return (Narrator.Assembly(timing: [], chapters: [], totalSamples: position + 8, lineStarts: starts), pauses)
    }

    @Test("parts cover every line once, their samples add up, and each cut is at a long pause")
    func cuts() {
        let (assembly, pauses) = assembly()
        let parts = assembly.parts(count: 3, pauses: pauses, sampleRate: 10)
        #expect(parts.count == 3)
        #expect(parts.map(\.lines.lowerBound) == [0] + parts.dropLast().map(\.lines.upperBound))
        #expect(parts.last?.lines.upperBound == 100)
        #expect(parts.map(\.samples).reduce(0, +) == assembly.totalSamples)
        for part in parts.dropFirst() { #expect(pauses[part.lines.lowerBound] == 2.0) }
        // About a third each.
        for part in parts { #expect(abs(part.samples - assembly.totalSamples / 3) < assembly.totalSamples / 8) }
    }

    @Test("a short book, or one encoder, stays whole")
    func whole() {
        let (assembly, pauses) = assembly()
        #expect(assembly.parts(count: 1, pauses: pauses, sampleRate: 10).count == 1)
        #expect(assembly.parts(count: 4, pauses: pauses, sampleRate: 22_050).count == 1)
    }
}
