/// The OpenAI Realtime voices a call can speak with, described as the mobile app's voice
/// table describes them (gender, accent, personality), so custom scenarios can filter by them.
public enum RealtimeVoice: String, CaseIterable, Codable, Sendable {
    case alloy, ash, ballad, coral, echo, sage, shimmer, verse

    public enum Gender: String, CaseIterable, Codable, Sendable { case male, female }
    public enum Accent: String, CaseIterable, Codable, Sendable { case american, british }
    public enum Personality: String, CaseIterable, Codable, Sendable {
        case warmEngaging = "warm_engaging"
        case energeticUpbeat = "energetic_upbeat"
        case gentleSupportive = "gentle_supportive"
        case professionalNeutral = "professional_neutral"
    }

    public var displayName: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    public var gender: Gender {
        switch self {
        case .alloy, .coral, .sage, .shimmer: .female
        case .ash, .ballad, .echo, .verse: .male
        }
    }

    public var accent: Accent { self == .ballad ? .british : .american }

    public var personality: Personality {
        switch self {
        case .alloy, .verse: .warmEngaging
        case .ash, .shimmer: .energeticUpbeat
        case .coral, .sage: .gentleSupportive
        case .ballad, .echo: .professionalNeutral
        }
    }

    public var description: String {
        switch self {
        case .alloy: "Warm and engaging female voice"
        case .ash: "Energetic and upbeat male voice"
        case .ballad: "Professional British male voice"
        case .coral: "Gentle and supportive female voice"
        case .echo: "Clear and professional male voice"
        case .sage: "Calm and wise female voice"
        case .shimmer: "Excited and enthusiastic female voice"
        case .verse: "Warm and engaging male voice"
        }
    }

    /// The voices matching every filter given (nil: any).
    public static func matching(gender: Gender? = nil, accent: Accent? = nil, personality: Personality? = nil) -> [RealtimeVoice] {
        allCases.filter { voice in
            (gender.map { voice.gender == $0 } ?? true)
                && (accent.map { voice.accent == $0 } ?? true)
                && (personality.map { voice.personality == $0 } ?? true)
        }
    }
}
