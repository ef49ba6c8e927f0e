import StoryModel

/// Casting by quality under a time budget. Every role gets a neural voice where the catalogue
/// has one of their gender; the slow engines' voices (Kokoro: the best, slower than real time
/// here) go to the roles that speak most, one role at a time from the most talkative, as long as
/// the whole story still renders within the budget; a role that would not fit is passed over for
/// the next. Pure and deterministic, like `CastingDirector`, which it drives.
public struct BudgetedCasting: Sendable {
    /// Engine id → seconds of speech it renders per second on this machine (all cores).
    public var speeds: [String: Double]
    /// For engines not in `speeds` (cloud voices).
    public var defaultSpeed: Double
    /// Engines whose voices are rationed by the budget.
    public var slowEngines: Set<String>
    /// How many of the most talkative roles are tried for a slow voice.
    public var maximumSlowRoles = 12
    /// Spoken text per second at rate 1, for turning text into seconds of speech.
    public static let charactersPerSecond = 15.0

    public init(speeds: [String: Double], defaultSpeed: Double, slowEngines: Set<String>) {
        self.speeds = speeds
        self.defaultSpeed = defaultSpeed
        self.slowEngines = slowEngines
    }

    /// The cast for `preference`: `overrides` (the user's choices) kept as `stableCast` keeps them.
    public func cast(
        _ analysis: StoryAnalysis, voices: [Voice], preference: CastingPreference,
        narrator: VoiceAssignment? = nil, characters: [String: VoiceAssignment] = [:]
    ) -> Cast {
        func cast(slowRoles: Set<String>) -> Cast {
            CastingDirector(keepsGender: true, slowEngines: slowEngines, slowRoles: slowRoles)
                .stableCast(analysis, voices: voices, narrator: narrator, characters: characters)
        }
        let roles = Self.rolesBySpeech(analysis)
        guard let budget = preference.renderBudget(audioSeconds: audioSeconds(analysis)) else {
            return cast(slowRoles: Set(roles))
        }
        var allowed: Set<String> = []
        var best = cast(slowRoles: [])
        // Roles left without a neural voice (every fast one of their gender taken in their
        // chapters) are offered the slow ones first: a few lines cost little, and a formant
        // voice among neural ones stands out most. Then the rest, most spoken first.
        let quality = Dictionary(voices.map { ($0.id, $0.quality) }, uniquingKeysWith: max)
        let needy = roles.filter { role in
            let assignment = role == CastingDirector.narratorRole ? best.narrator : best.characters[role]
            return assignment.map { (quality[$0.voice] ?? 0) < VoiceQuality.neural.rawValue } ?? false
        }
        for role in needy + roles.filter({ !needy.contains($0) }).prefix(maximumSlowRoles) {
            let trial = cast(slowRoles: allowed.union([role]))
            // Only a role that now has a slow voice counts; the rest of the cast may move around it.
            guard trial != best, renderSeconds(trial, analysis) <= budget else { continue }
            allowed.insert(role)
            best = trial
        }
        return best
    }

    /// Seconds of speech in the story at rate 1.
    public func audioSeconds(_ analysis: StoryAnalysis) -> Double {
        Double(analysis.segments.reduce(0) { $0 + $1.length }) / Self.charactersPerSecond
    }

    /// How long rendering every line of `cast` takes here, by each line's engine and rate.
    public func renderSeconds(_ cast: Cast, _ analysis: StoryAnalysis) -> Double {
        analysis.segments.reduce(0.0) { total, segment in
            let assignment = cast.assignment(for: segment.speaker)
            let seconds = Double(segment.length) / Self.charactersPerSecond / max(assignment.rate, 0.25)
            return total + seconds / speed(ofVoice: assignment.voice)
        }
    }

    /// Seconds of speech per second for a voice id (`engine:voice`).
    public func speed(ofVoice id: String) -> Double {
        speeds[String(id.prefix { $0 != ":" })] ?? defaultSpeed
    }

    /// The narrator (`CastingDirector.narratorRole`) and every character, most spoken text first.
    static func rolesBySpeech(_ analysis: StoryAnalysis) -> [String] {
        var length: [String: Int] = [:]
        for segment in analysis.segments {
            length[segment.speaker ?? CastingDirector.narratorRole, default: 0] += segment.length
        }
        let characterIDs = Set(analysis.characters.map(\.id))
        return length.keys.filter { $0 == CastingDirector.narratorRole || characterIDs.contains($0) }
            .sorted { (length[$0]!, $1) > (length[$1]!, $0) }
    }
}
