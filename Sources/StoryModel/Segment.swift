/// What a span of the story is, for performance.
public enum SegmentKind: String, Codable, Sendable, Hashable {
    case narration, dialogue
}

/// A labelled span `[start, end)` of the story's text, in Unicode scalars.
///
/// Segments of an analysis tile the text in order without overlap; the text itself is never
/// copied or rewritten, only labelled.
public struct Segment: Codable, Sendable, Hashable {
    public var start: Int
    public var end: Int
    public var kind: SegmentKind
    /// The speaking character's id; nil for narration.
    public var speaker: String?
    /// For dialogue: how likely `speaker` is right, in [0, 1].
    public var confidence: Double?

    public init(start: Int, end: Int, kind: SegmentKind, speaker: String? = nil, confidence: Double? = nil) {
        self.start = start
        self.end = end
        self.kind = kind
        self.speaker = speaker
        self.confidence = confidence
    }

    public var length: Int { end - start }

    private enum CodingKeys: String, CodingKey { case start, end, kind, speaker, confidence }

    // Written by hand so narration carries an explicit `"speaker": null`, as the JSON shape promises.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(start, forKey: .start)
        try container.encode(end, forKey: .end)
        try container.encode(kind, forKey: .kind)
        try container.encode(speaker, forKey: .speaker)
        try container.encodeIfPresent(confidence, forKey: .confidence)
    }
}
