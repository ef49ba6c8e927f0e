/// A character's or a voice's gender as StoryVoice uses it for casting.
public enum Gender: String, Codable, Sendable, CaseIterable, Hashable {
    case female, male, nonbinary, unknown
}

/// A coarse age band: enough to choose pitch and rate, and to match voices.
public enum AgeRange: String, Codable, Sendable, CaseIterable, Hashable {
    case child, teen, adult, elderly, unknown
}
