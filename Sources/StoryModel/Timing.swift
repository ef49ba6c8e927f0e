/// Where one rendered piece of the story sits in the audio: the timing map's entry.
public struct TimedSegment: Codable, Sendable, Hashable {
    /// Index of the analysis segment this piece renders (a long segment may render as several pieces).
    public var segment: Int
    /// The piece's text span, `[start, end)` in Unicode scalars.
    public var start: Int
    public var end: Int
    public var startMs: Int
    public var endMs: Int
    public var kind: SegmentKind
    public var speaker: String?
    public var voice: String

    public init(segment: Int, start: Int, end: Int, startMs: Int, endMs: Int, kind: SegmentKind, speaker: String?, voice: String) {
        self.segment = segment
        self.start = start
        self.end = end
        self.startMs = startMs
        self.endMs = endMs
        self.kind = kind
        self.speaker = speaker
        self.voice = voice
    }
}
