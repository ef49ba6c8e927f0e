/// How fast a journey's story is spoken: a storyteller's pace, whatever the voice's own. Voices
/// read at their own pace, which for some is brisk (Piper's Joe reads about 200 words a minute,
/// a newsreader's pace); a story heard on a walk is told as audiobooks are, at 140–160. A
/// slower voice also needs fewer words for its minute, which the model on a small machine
/// writes sooner.
public enum StorytellingPace {
    /// The slowest rate a voice is slowed to: below it speech sounds drawn out (the player's
    /// own slowest speed is 0.75× too).
    public static let slowestRate = 0.75

    /// The rate that brings a voice reading `natural` words a minute to `target`: never faster
    /// than the voice's own pace, never slower than `slowestRate`.
    public static func rate(naturalWordsPerMinute natural: Double, target: Double = JourneyPlanner.defaultWordsPerMinute) -> Double {
        guard natural > 0, target > 0 else { return 1 }
        return min(1, max(slowestRate, target / natural))
    }

    /// Words a minute in `seconds` of speech of `text` (nil for too little to say).
    public static func wordsPerMinute(of text: String, seconds: Double) -> Double? {
        let words = SpokenProse.wordCount(text)
        guard words >= 20, seconds >= 3 else { return nil }
        return Double(words) / seconds * 60
    }

    /// What a voice reads once, at its own rate, to measure its pace: narration and a line of
    /// dialogue, with the punctuation a story has (37 words: a second or two of a voice's time).
    public static let sample = """
        The road ran on beside the river, and the evening light lay gold across the fields. \
        “Are we nearly there?” asked the girl. Her grandfather smiled and pointed at the hill \
        ahead, where the old house stood.
        """
}
