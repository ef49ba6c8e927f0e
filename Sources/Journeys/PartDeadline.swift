import Foundation

/// How fast the model has been making a part's audio, as measured on the parts before (queue,
/// prompt and voice included: what the listener waits on, not what the model could do alone).
public struct ModelPace: Sendable, Hashable {
    /// From asking to the first sentence's audio: the wait for the model, reading the prompt,
    /// writing the first sentence and voicing it.
    public var firstSentenceSeconds: Double
    /// Words made a second after the first sentence (written and voiced).
    public var wordsPerSecond: Double

    public init(firstSentenceSeconds: Double, wordsPerSecond: Double) {
        self.firstSentenceSeconds = max(0, firstSentenceSeconds)
        self.wordsPerSecond = max(0.1, wordsPerSecond)
    }

    /// Before anything is measured: the model on this machine on a busy two-core machine (it read
    /// a part's prompt and wrote its first sentence in 5–15 s, then 4–6 words a second; 2026-12).
    public static let assumed = ModelPace(firstSentenceSeconds: 12, wordsPerSecond: 4)

    /// This pace moved towards `sample` (an average that follows a machine getting busier
    /// within a part or two, without one slow part deciding alone).
    public func updated(with sample: ModelPace, weight: Double = 0.4) -> ModelPace {
        ModelPace(firstSentenceSeconds: firstSentenceSeconds + weight * (sample.firstSentenceSeconds - firstSentenceSeconds),
                  wordsPerSecond: wordsPerSecond + weight * (sample.wordsPerSecond - wordsPerSecond))
    }

    /// The pace of one part: `firstSentence` seconds to its first audio, then `words` more words
    /// in `seconds`; nil when too little came after the first sentence to say.
    public static func measured(firstSentence: Double, words: Int, seconds: Double) -> ModelPace? {
        guard words >= 15, seconds >= 1 else { return nil }
        return ModelPace(firstSentenceSeconds: firstSentence, wordsPerSecond: Double(words) / seconds)
    }
}

/// Whether the next part will be ready for its listener, and what to do when it will not: the
/// policy that keeps a listener from hearing silence while the shared model is busy.
///
/// The player plays a part while it is still being written, so a part is in time when its first
/// sentence is heard by the time the listener reaches it and the text stays ahead of them after
/// that: it starts `wait + planning + firstSentence` seconds from now and gains on the listener
/// when the model writes faster than the voice speaks, or loses `1/made − 1/spoken` seconds a word
/// when it does not (the model taken by live turns, a busy machine). When it will not be in time:
///
/// 1. the part is told without the planning request it needed (its beats are asked for once the
///    story is ahead again; it is told from its stage and how the part before ended, as the first
///    parts are);
/// 2. if that is not enough, it becomes a **bridge**: shorter, as many words as the model can
///    make before the listener would catch up, at least `minimumWords`; the next part makes up
///    the minute (the teller's words follow the story's length, not the part's);
/// 3. a part that cannot start in time whatever its length is late by `lateBy` seconds; it is
///    told as the shortest bridge, and the next part's opening is prepared: the answer for this
///    part is read on past its end into the next part's first sentences (`carryWords`), so that
///    the listener goes straight on while the next request gets going.
public enum PartDeadline {
    public struct Decision: Sendable, Hashable {
        /// Whether to make the planning request (the part's beats) before the part.
        public var plansFirst: Bool
        /// The words to tell the part in: as asked, or fewer for a bridge.
        public var words: Int
        /// Whether the part is shortened to be in time.
        public var isBridge: Bool
        /// Seconds the listener will wait even so (0 when the part is in time).
        public var lateBy: Double

        public init(plansFirst: Bool, words: Int, isBridge: Bool, lateBy: Double) {
            (self.plansFirst, self.words, self.isBridge, self.lateBy) = (plansFirst, words, isBridge, lateBy)
        }
    }

    /// - Parameters:
    ///   - secondsUntilDue: until the listener reaches the part; nil when nobody listens (the CLI).
    ///   - words: the part's words as planned.
    ///   - spokenWordsPerSecond: the voice's pace (the listener hears this many words a second).
    ///   - planningSeconds: what the planning request the part needs would take (0 when none).
    ///   - waitSeconds: before the model is free for it (live turns running or waiting).
    ///   - planningMargin: seconds of story that must still be in hand after the planning
    ///     request for it to be made: a plan is worth having, not worth a listener's wait, and
    ///     the estimate does not see the live turns still to come.
    public static func decide(
        secondsUntilDue: Double?, words: Int, minimumWords: Int, spokenWordsPerSecond: Double, pace: ModelPace,
        planningSeconds: Double, waitSeconds: Double, planningMargin: Double = 0
    ) -> Decision {
        guard let due = secondsUntilDue else { return Decision(plansFirst: true, words: words, isBridge: false, lateBy: 0) }
        let start = waitSeconds + pace.firstSentenceSeconds
        // Seconds a word the listener gains on the text (0 when the text gains on the listener).
        let losing = max(0, 1 / pace.wordsPerSecond - 1 / max(0.1, spokenWordsPerSecond))
        func gap(planning: Double, words: Int) -> Double { start + planning + Double(words) * losing - due }
        if planningSeconds > 0, gap(planning: planningSeconds, words: words) <= -planningMargin {
            return Decision(plansFirst: true, words: words, isBridge: false, lateBy: 0)
        }
        if gap(planning: 0, words: words) <= 0 {
            return Decision(plansFirst: planningSeconds == 0, words: words, isBridge: false, lateBy: 0)
        }
        let shortest = min(words, max(1, minimumWords))
        let fits = losing > 0 ? Int(((due - start) / losing).rounded(.down)) : words
        let bridge = min(words, max(shortest, fits))
        return Decision(plansFirst: false, words: bridge, isBridge: bridge < words, lateBy: max(0, gap(planning: 0, words: bridge)))
    }

    /// Words to read on past a part's end into the next part's opening, so that the listener
    /// goes straight on: when the next part, asked only once this one is written, would start
    /// after they reach it (its request waits for the model and reads its prompt before its first
    /// sentence). As many words as the listener hears meanwhile, `minimum` to `maximum`; 0 when
    /// the next part will be in time, or nobody listens. `secondsUntilDue`: until the listener
    /// reaches this part.
    public static func carryWords(
        secondsUntilDue: Double?, words: Int, spokenWordsPerSecond: Double, pace: ModelPace, waitSeconds: Double,
        minimum: Int = 20, maximum: Int = 60
    ) -> Int {
        guard let due = secondsUntilDue else { return 0 }
        let spoken = max(0.1, spokenWordsPerSecond)
        let start = waitSeconds + pace.firstSentenceSeconds
        // The listener reaches the next part when this one's audio ends (it cannot start before its text).
        let nextDue = max(due, start) + Double(words) / spoken
        let nextStart = start + Double(words) / pace.wordsPerSecond + start
        guard nextStart > nextDue else { return 0 }
        return min(maximum, max(minimum, Int((start * spoken).rounded(.up))))
    }

    /// How long a planning request (one line for each of `lines` parts, ~25 tokens a line, and
    /// its prompt) takes at `pace`: its JSON is not voiced, so it costs the model's time only.
    public static func planningSeconds(lines: Int, pace: ModelPace) -> Double {
        guard lines > 0 else { return 0 }
        // Words a second of prose ≈ tokens a second ÷ 1.3; a line is about 18 words of JSON.
        return pace.firstSentenceSeconds + Double(lines * 18) / pace.wordsPerSecond
    }
}
