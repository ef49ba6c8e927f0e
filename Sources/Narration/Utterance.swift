import StoryModel

/// One unit of synthesis: a span of the story spoken by one voice, and the pause before it.
///
/// Narration segments split into paragraphs (and long paragraphs into sentence groups) so that
/// work spreads across cores and the player can highlight what is being read.
public struct Utterance: Sendable, Hashable {
    /// Index of the analysis segment this utterance renders.
    public var segment: Int
    /// The span of the story's text, `[start, end)` in Unicode scalars.
    public var start: Int
    public var end: Int
    /// What the engine is given: the span with quote marks and layout removed.
    public var spokenText: String
    public var kind: SegmentKind
    public var speaker: String?
    public var voice: VoiceAssignment
    /// Silence before this utterance, in seconds.
    public var pauseBefore: Double
    /// Index into the analysis' chapters of the chapter this utterance starts in.
    public var chapter: Int
}

/// How long to pause between pieces: a listener hears structure as silence.
public struct PausePolicy: Sendable, Hashable {
    public var chapter: Double = 1.6
    public var paragraph: Double = 0.7
    /// Between a quote and its tag, or two sentence groups of one paragraph.
    public var withinParagraph: Double = 0.25

    public init() {}
}
