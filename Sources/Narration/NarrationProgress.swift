/// Where a narration is: published after every finished utterance and at each phase change.
public struct NarrationProgress: Sendable, Hashable {
    public enum Phase: String, Sendable, Hashable {
        case synthesizing, assembling, encoding, finished
    }

    public var phase: Phase
    /// Unique utterances rendered or found in the cache so far, of `total`.
    public var completed: Int
    public var total: Int
    /// Seconds of speech rendered so far.
    public var audioSeconds: Double
    public var cacheHits: Int
    public var synthesized: Int

    public var fraction: Double { total > 0 ? Double(completed) / Double(total) : 1 }
}
