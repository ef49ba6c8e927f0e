import StoryModel

/// A user's default narration rate, pitch and volume, as multipliers of each voice's own.
public struct NarrationDefaults: Codable, Sendable, Hashable {
    public var rate: Double
    public var pitch: Double
    public var volume: Double
    /// Which voices automatic casting prefers: the fastest, or the best (slower than real time).
    public var voices: CastingPreference

    public init(rate: Double = 1.0, pitch: Double = 1.0, volume: Double = 1.0, voices: CastingPreference = .fastest) {
        self.rate = rate
        self.pitch = pitch
        self.volume = volume
        self.voices = voices
    }

    /// Settings saved before `voices` existed read as the fastest.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            rate: try container.decode(Double.self, forKey: .rate), pitch: try container.decode(Double.self, forKey: .pitch),
            volume: try container.decode(Double.self, forKey: .volume),
            voices: try container.decodeIfPresent(CastingPreference.self, forKey: .voices) ?? .fastest)
    }

    public static let standard = NarrationDefaults()

    /// Accepted ranges: wide enough for every engine we drive, narrow enough to stay intelligible.
    public static let rateRange = 0.5...2.0
    public static let pitchRange = 0.5...2.0
    public static let volumeRange = 0.0...2.0

    /// The first value outside its range, named for an error message; nil when all are valid.
    public var invalidField: String? {
        if !(Self.rateRange.contains(rate)) { return "rate must be between 0.5 and 2.0" }
        if !(Self.pitchRange.contains(pitch)) { return "pitch must be between 0.5 and 2.0" }
        if !(Self.volumeRange.contains(volume)) { return "volume must be between 0.0 and 2.0" }
        return nil
    }
}
