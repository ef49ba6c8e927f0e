/// What automatic casting optimises for, a user's choice. Neural voices that render slower than
/// real time on a small machine (Kokoro) make a book sound better and take far longer to hear.
public enum CastingPreference: String, Codable, Sendable, CaseIterable, Hashable {
    /// Voices that render faster than they play: playback keeps up, exports are quick.
    case fastest
    /// Neural voices wherever the cast allows, the most talkative characters first.
    case best
}
