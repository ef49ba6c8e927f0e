import Foundation
import Journeys
import Testing

@Suite("When the listener reaches each part")
struct ListeningScheduleTests {
    /// Part 1 ready (sentences of 10, 20 and 30 s), part 2 ready (50 s), part 3 being written (12 s so far).
    let parts: [Int: PartAudio] = [
        1: PartAudio(isReady: true, sentenceSeconds: [10, 20, 30]),
        2: PartAudio(isReady: true, sentenceSeconds: [50]),
        3: PartAudio(isReady: false, sentenceSeconds: [12]),
    ]

    @Test("the part being heard, or waited for, is due now; parts behind the listener too")
    func currentPartIsDueNow() {
        let schedule = ListeningSchedule(listener: ListenerPosition(part: 2, sentence: 0), parts: parts)
        #expect(schedule.secondsUntil(part: 2) == 0)
        #expect(schedule.secondsUntil(part: 1) == 0)
        let waiting = ListeningSchedule(listener: ListenerPosition(part: 4), parts: parts)
        #expect(waiting.secondsUntil(part: 4) == 0)
    }

    @Test("the next parts are reached after the audio left in this one (the sentence playing counted as heard) and the ready parts between")
    func laterPartsAfterTheAudioAhead() {
        let schedule = ListeningSchedule(listener: ListenerPosition(part: 1, sentence: 1), parts: parts)
        // Sentences 0 and 1 (the one playing) heard: 30 s of part 1 left.
        #expect(schedule.secondsUntil(part: 2) == 30)
        #expect(schedule.secondsUntil(part: 3) == 80)
        // Part 3 is still being written: at least its minute.
        #expect(schedule.secondsUntil(part: 4) == 140)
        #expect(schedule.secondsUntil(part: 5) == 200, "a part not begun lasts its minute")
    }

    @Test("before the story starts (playhead 1, sentence 0, nothing ready) part 1 is due now and part 2 a minute later")
    func beforeAnything() {
        let schedule = ListeningSchedule(listener: ListenerPosition(part: 1), parts: [:])
        #expect(schedule.secondsUntil(part: 1) == 0)
        #expect(schedule.secondsUntil(part: 2) == 60)
    }
}

@Suite("A part that will be late is known early")
struct PartDeadlineTests {
    /// A model making 5 words a second, 10 s to a first sentence; a voice speaking 2.4 words a second.
    let pace = ModelPace(firstSentenceSeconds: 10, wordsPerSecond: 5)

    func decide(due: Double?, words: Int = 145, planning: Double = 0, wait: Double = 0, margin: Double = 0, pace: ModelPace? = nil) -> PartDeadline.Decision {
        PartDeadline.decide(secondsUntilDue: due, words: words, minimumWords: 48, spokenWordsPerSecond: 2.4, pace: pace ?? self.pace,
                            planningSeconds: planning, waitSeconds: wait, planningMargin: margin)
    }

    @Test("with nobody listening, or time in hand, a part is planned first and told in full")
    func inTime() {
        #expect(decide(due: nil, planning: 30) == .init(plansFirst: true, words: 145, isBridge: false, lateBy: 0))
        #expect(decide(due: 120, planning: 30) == .init(plansFirst: true, words: 145, isBridge: false, lateBy: 0))
    }

    @Test("a part whose planning request would make it late is told without it")
    func planningIsSkipped() {
        // 10 s to the first sentence, 30 s of planning: in time at 40 s, not at 20.
        #expect(decide(due: 40, planning: 30).plansFirst)
        let tight = decide(due: 20, planning: 30)
        #expect(!tight.plansFirst && tight.words == 145 && !tight.isBridge && tight.lateBy == 0)
    }

    @Test("a plan is made only with the margin still in hand after it; without it the part is told in full, unplanned")
    func planningMargin() {
        // 10 s to the first sentence and 30 s of planning: 40 s; due in 100 s leaves 60 s.
        #expect(decide(due: 100, planning: 30, margin: 60).plansFirst)
        let thin = decide(due: 99, planning: 30, margin: 60)
        #expect(!thin.plansFirst && thin.words == 145 && !thin.isBridge && thin.lateBy == 0)
        #expect(decide(due: nil, planning: 30, margin: 60).plansFirst, "nobody listening: the plan is always made")
    }

    @Test("live turns waiting for the model count against the time left")
    func liveTurnsWait() {
        #expect(decide(due: 40, planning: 20).plansFirst)
        #expect(!decide(due: 40, planning: 20, wait: 20).plansFirst)
    }

    @Test("when the model makes words slower than the voice speaks them, the part becomes a bridge as long as keeps ahead of the listener")
    func bridge() {
        // 2 words a second against 2.4 spoken: the listener gains 1/12 s a word; 30 s - 10 s to start leaves 240 words.
        let slow = ModelPace(firstSentenceSeconds: 10, wordsPerSecond: 2)
        #expect(decide(due: 30, words: 145, pace: slow) == .init(plansFirst: true, words: 145, isBridge: false, lateBy: 0))
        let bridge = decide(due: 15, words: 145, pace: slow)
        #expect(bridge.isBridge && bridge.words == 60 && bridge.lateBy < 1e-9)
        let shortest = decide(due: 12, words: 145, pace: slow)
        #expect(shortest.isBridge && shortest.words == 48, "never under the minimum")
        #expect(shortest.lateBy > 0)
    }

    @Test("a part that cannot start in time is late by what is missing, told as the shortest bridge when the model is slow, in full when it keeps ahead once started")
    func late() {
        let late = decide(due: 4)
        #expect(!late.plansFirst && late.words == 145 && late.lateBy == 6)
        let slowLate = decide(due: 4, pace: ModelPace(firstSentenceSeconds: 10, wordsPerSecond: 1))
        #expect(slowLate.isBridge && slowLate.words == 48)
    }

    @Test("the next part's opening is read on from this part's answer only when the next part would start after the listener reaches it")
    func carry() {
        // This part is due now: its 145 words take 10 + 29 s, the next part's first sentence 10 s more (49 s);
        // the listener reaches the next part once this one has started (10 s) and played (60 s): in time.
        #expect(PartDeadline.carryWords(secondsUntilDue: 0, words: 145, spokenWordsPerSecond: 2.4, pace: pace, waitSeconds: 0) == 0)
        // Live turns holding the model 20 s before each request: 30 + 29 + 30 = 89 s against 30 + 60 s.
        #expect(PartDeadline.carryWords(secondsUntilDue: 0, words: 145, spokenWordsPerSecond: 2.4, pace: pace, waitSeconds: 20) == 0)
        // 25 s each: 35 + 29 + 35 = 99 s against 95 s: late; the listener hears 35 s × 2.4 words meanwhile (84, held to 60).
        #expect(PartDeadline.carryWords(secondsUntilDue: 0, words: 145, spokenWordsPerSecond: 2.4, pace: pace, waitSeconds: 25) == 60)
        #expect(PartDeadline.carryWords(secondsUntilDue: 0, words: 145, spokenWordsPerSecond: 2.4, pace: ModelPace(firstSentenceSeconds: 4, wordsPerSecond: 1), waitSeconds: 0) == 20,
                "at least a sentence or two")
        #expect(PartDeadline.carryWords(secondsUntilDue: nil, words: 145, spokenWordsPerSecond: 2.4, pace: pace, waitSeconds: 100) == 0, "nobody listens")
    }

    @Test("the model's pace follows what is measured, and a part too short to say is no measure")
    func paceIsMeasured() {
        let measured = ModelPace.measured(firstSentence: 20, words: 100, seconds: 50)
        #expect(measured == ModelPace(firstSentenceSeconds: 20, wordsPerSecond: 2))
        #expect(ModelPace.measured(firstSentence: 5, words: 8, seconds: 3) == nil)
        let moved = ModelPace(firstSentenceSeconds: 10, wordsPerSecond: 4).updated(with: ModelPace(firstSentenceSeconds: 20, wordsPerSecond: 2), weight: 0.5)
        #expect(moved == ModelPace(firstSentenceSeconds: 15, wordsPerSecond: 3))
        #expect(PartDeadline.planningSeconds(lines: 0, pace: self.pace) == 0)
        #expect(PartDeadline.planningSeconds(lines: 5, pace: self.pace) == 10 + 18)
    }
}
