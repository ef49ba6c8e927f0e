import Journeys
import Testing

@Suite struct StorytellingPaceTests {
    @Test("a brisk voice is slowed to a storyteller's pace, never sped up, never below 0.75")
    func rateBringsAVoiceToTheTarget() {
        #expect(abs(StorytellingPace.rate(naturalWordsPerMinute: 180) - 145.0 / 180) < 1e-9)
        #expect(StorytellingPace.rate(naturalWordsPerMinute: 215) == 0.75)
        #expect(StorytellingPace.rate(naturalWordsPerMinute: 130) == 1)
        #expect(StorytellingPace.rate(naturalWordsPerMinute: 160, target: 160) == 1)
        #expect(StorytellingPace.rate(naturalWordsPerMinute: 0) == 1)
    }

    @Test func paceIsWordsOverMinutesOfSpeech() {
        #expect(abs((StorytellingPace.wordsPerMinute(of: StorytellingPace.sample, seconds: 12.5) ?? 0) - 177.6) < 1e-9)
        #expect(StorytellingPace.wordsPerMinute(of: "Too short to say.", seconds: 2) == nil)
    }
}
