import Foundation
import Journeys
import Testing

@Suite struct StoryArcTests {
    @Test func everyLengthCoversEveryPartOnceInOrder() {
        for parts in 1...240 {
            let acts = StoryArc.acts(parts: parts)
            #expect(acts.first?.parts.lowerBound == 1)
            #expect(acts.last?.parts.upperBound == parts)
            for (before, after) in zip(acts, acts.dropFirst()) { #expect(after.parts.lowerBound == before.parts.upperBound + 1) }
        }
    }

    @Test func aStoryAlwaysOpensAndEndsAndShortOnesKeepTheClimax() {
        #expect(StoryArc.acts(parts: 1).map(\.stage) == [.whole])
        #expect(StoryArc.acts(parts: 2).map(\.stage) == [.opening, .resolution])
        #expect(StoryArc.acts(parts: 3).map(\.stage) == [.opening, .climax, .resolution])
        for parts in 6...240 {
            #expect(StoryArc.acts(parts: parts).map(\.stage) == [.opening, .rising, .midpoint, .crisis, .climax, .resolution])
        }
    }

    @Test func longStoriesFollowTheProportions() {
        // 117 parts (Oxford to Cambridge by car): 111 spare parts shared 12/38/10/20/10/10 %.
        let counts = StoryArc.acts(parts: 117).map(\.parts.count)
        #expect(counts.reduce(0, +) == 117)
        #expect(counts == [15, 43, 12, 23, 12, 12])
        #expect(StoryArc.acts(parts: 240).map(\.parts.count) == [29, 90, 25, 48, 24, 24])
        #expect(StoryArc.acts(parts: 7).map(\.parts.count) == [1, 2, 1, 1, 1, 1])
        #expect(StoryArc.stage(ofPart: 1, parts: 117) == .opening)
        #expect(StoryArc.stage(ofPart: 58, parts: 117) == .rising)
        #expect(StoryArc.stage(ofPart: 59, parts: 117) == .midpoint)
        #expect(StoryArc.stage(ofPart: 117, parts: 117) == .resolution)
    }
}

@Suite struct StoryOutlineTests {
    let parts = 40

    @Test func beatsAreWrittenAFewAtATimeWithinTheAct() {
        // 40 parts: the opening is parts 1–5, the rising action 6–19.
        var outline = StoryOutline(title: "T", actSummaries: Array(repeating: "s", count: 6), beats: [1: "opening"])
        #expect(outline.beatsToWrite(for: 2, parts: parts) == 2...5)
        #expect(outline.beatsToWrite(for: 6, parts: parts) == 6...11)
        for part in 6...11 { outline.beats[part] = "b\(part)" }
        #expect(outline.beatsToWrite(for: 12, parts: parts) == 12...17)
        // A listener who skipped ahead: the beats from the first missing one to theirs.
        #expect(outline.beatsToWrite(for: 18, parts: parts) == 12...18)
        for part in 12...17 { outline.beats[part] = "b\(part)" }
        #expect(outline.beatsToWrite(for: 18, parts: parts) == 18...19)
        for part in 1...parts { outline.beats[part] = "b\(part)" }
        #expect(outline.beatsToWrite(for: 12, parts: parts) == nil)
    }

    @Test func aWindowNeverCrossesIntoTheNextAct() {
        let outline = StoryOutline(title: "T", actSummaries: [], beats: [:])
        for act in StoryArc.acts(parts: 117) {
            for part in act.parts {
                let window = outline.beatsToWrite(for: part, parts: 117)!
                #expect(act.parts.contains(window.lowerBound) && act.parts.contains(window.upperBound) && window.contains(part))
            }
        }
    }

    @Test("a part whose beat came back unusable is told from its stage, not asked for again")
    func unplannedPartsAreNotAskedAgain() throws {
        var outline = StoryOutline(title: "T", actSummaries: [], beats: [1: "opening"], unplanned: [2, 3])
        #expect(outline.beatsToWrite(for: 2, parts: parts) == nil)
        #expect(outline.beatsToWrite(for: 4, parts: parts) == 4...5, "the window starts after the unplanned parts")
        outline.beats[4] = "b4"
        let kept = try JSONDecoder().decode(StoryOutline.self, from: JSONEncoder().encode(outline))
        #expect(kept == outline)
        // An outline kept before parts could be unplanned reads as having none.
        let old = try JSONDecoder().decode(StoryOutline.self, from: Data(#"{"title":"T","acts":[],"beats":{"1":"a"}}"#.utf8))
        #expect(old.unplanned.isEmpty && old.beats == [1: "a"])
    }

    @Test func recentBeatsAreTheLastFewInOrder() {
        let outline = StoryOutline(title: "T", actSummaries: [], beats: [1: "a", 2: "b", 3: "c", 4: "d", 5: "e"])
        #expect(outline.recentBeats(before: 5, count: 3).map(\.beat) == ["b", "c", "d"])
        #expect(outline.recentBeats(before: 1).isEmpty)
    }
}

@Suite struct StoryStyleTests {
    @Test func customNeedsADescriptionOfReasonableLength() throws {
        #expect(throws: JourneyError.self) { try StoryStyle(.custom) }
        #expect(throws: JourneyError.self) { try StoryStyle(.custom, description: "   ") }
        #expect(throws: JourneyError.self) { try StoryStyle(.custom, description: String(repeating: "a", count: 301)) }
        let style = try StoryStyle(.custom, description: "a cosy mystery on a night train")
        #expect(style.guidance.contains("a cosy mystery on a night train"))
    }

    @Test func unknownStylesAreRefusedByName() {
        do {
            _ = try StoryStyle(id: "horror")
            Issue.record("horror was accepted")
        } catch {
            #expect(error.kind == .invalidStyle)
            #expect(error.message.contains("horror") && error.message.contains("noir"))
        }
    }
}

@Suite struct SpokenProseTests {
    @Test func headingsAndLabelsAreNotSpoken() {
        #expect(SpokenProse.speakable("Part 2: The Bridge") == nil)
        #expect(SpokenProse.speakable("**Chapter One**") == nil)
        #expect(SpokenProse.speakable("# The Lantern") == nil)
        #expect(SpokenProse.speakable("Title: The Lantern on the Fen") == nil)
        #expect(SpokenProse.speakable("The End.") == nil)
        // A heading line arrives joined to the sentence after it.
        #expect(SpokenProse.speakable("Part 1: The Pond\n\nThen Dot walked along the river.") == "Then Dot walked along the river.")
        #expect(SpokenProse.speakable("The Pond\nThen Dot walked along the river.") == "Then Dot walked along the river.")
        #expect(SpokenProse.speakable("“Wait,” she said.\nThen Dot walked along the river.") == "“Wait,” she said. Then Dot walked along the river.")
    }

    @Test func markupIsRemovedButTheWordsAreKept() {
        #expect(SpokenProse.speakable("She *ran* to the **bridge**.") == "She ran to the bridge.")
        #expect(SpokenProse.speakable("Part of her wanted to stay.") == "Part of her wanted to stay.")
        #expect(SpokenProse.speakable("Chapter and verse, he thought, was all they had left of the old town.") != nil)
    }

    @Test func dataIsNotProse() {
        #expect(SpokenProse.looksLikeData(" {\"text\": \"Once"))
        #expect(SpokenProse.looksLikeData("```json"))
        #expect(!SpokenProse.looksLikeData("Once upon a time"))
        #expect(SpokenProse.problem(with: "{\"part\": \"Once upon a time\"}", targetWords: 4) != nil)
    }

    @Test func aPartMustFillHalfItsMinute() {
        let words = Array(repeating: "word", count: 70).joined(separator: " ") + "."
        #expect(SpokenProse.problem(with: words, targetWords: 145) != nil)
        #expect(SpokenProse.problem(with: words, targetWords: 140) == nil)
        #expect(SpokenProse.problem(with: "", targetWords: 145) == "the part is empty")
    }

    @Test func refusalsAreTheModelTalkingNotTheStory() {
        #expect(SpokenProse.isRefusal("I'm sorry, but I can't assist with that request."))
        #expect(SpokenProse.isRefusal("I’m sorry, I cannot continue this story."))
        #expect(SpokenProse.isRefusal("As an AI, I don't write stories about crime."))
        #expect(!SpokenProse.isRefusal("I'm sorry, kid, but the city doesn't forgive."))
        #expect(!SpokenProse.isRefusal("I can't help thinking the river knew."))
    }

    @Test("a plan's line is a sentence of the model's own, not the story copied or cut off")
    func planLines() {
        let prompt = "The story so far:\nPart 1: Elara walked along the path, her eyes scanning the trees for clues."
        #expect(SpokenProse.isPlanLine("Elara finds a silver owl in the tallest tree.", source: prompt, limit: 120))
        #expect(SpokenProse.isPlanLine("“Stop!” Elara calls to the owl", source: prompt, limit: 120), "no full stop, but whole")
        #expect(!SpokenProse.isPlanLine("She walked along the path, her eyes scanning the trees for clues.", source: prompt, limit: 120), "copied")
        #expect(!SpokenProse.isPlanLine("her chest. The tree was tall and majestic.", source: prompt, limit: 120), "goes on from another line")
        #expect(!SpokenProse.isPlanLine(String(repeating: "Elara walks on and on ", count: 6), source: prompt, limit: 120), "ran to the limit")
        #expect(!SpokenProse.isPlanLine("  ", source: prompt, limit: 120))
    }

    /// Seen in the browser test: the small model began part 2 with its task read back.
    @Test func theRequestReadBackIsNotTheStory() {
        let prompt = """
            The listener is walking from Carfax to Magdalen Bridge, about 2 minutes.

            Part 1 ended: “I had been following a trail of clues that had led me here, but everything had been so quiet.”

            Write part 2 of 3 (the climax: The decisive confrontation or moment of truth, with the highest tension). \
            About 198 words, continuing straight on from where part 1 ended, without repeating it.
            """
        #expect(SpokenProse.echoes("Part 2: The climax: The decisive confrontation or moment of truth, with the highest tension.", prompt: prompt))
        #expect(SpokenProse.echoes("About 198 words, continuing straight on from where part 1 ended, without repeating it.", prompt: prompt))
        // The story's own words, quoted back to the model, may be taken up again.
        #expect(!SpokenProse.echoes("I had been following a trail of clues that had led me here, but everything had been so quiet.", prompt: prompt))
        // The story's own sentences share words with the prompt, not runs of them.
        #expect(!SpokenProse.echoes("I knew I had to find the truth or I would die.", prompt: prompt))
        #expect(!SpokenProse.echoes("At the bridge the moment of truth came: she was waiting for me in the rain.", prompt: prompt))
        #expect(!SpokenProse.echoes("Run!", prompt: prompt))
    }

    @Test func cutOffSentencesAreIncomplete() {
        #expect(SpokenProse.isComplete("He ran."))
        #expect(SpokenProse.isComplete("“Run!”"))
        #expect(!SpokenProse.isComplete("He ran towards the"))
    }
}
