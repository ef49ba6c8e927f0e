import Speech
import SpeechEngines
import StoryModel

/// The one rule for which voices automatic casting (and a model's suggestions) may use: free
/// voices, and paid cloud voices only when the user asks for them (`narrate --cloud-voices`).
/// A paid voice a user picks by hand is always theirs to pick. Voices slower than real time
/// (Kokoro) are rationed by the user's time budget (`cast`).
public enum CastableVoices {
    public static func automatic(_ voices: [Voice], includingPaid: Bool = false) -> [Voice] {
        voices.filter { voice in includingPaid || voice.costPer1000Characters == 0 }
    }

    /// The automatic cast for `preference` (neural voices for every role that can have one, the
    /// slow ones for the roles that speak most within the time it allows), keeping the user's
    /// choices (`narrator`, `characters`).
    public static func cast(
        _ analysis: StoryAnalysis, voices: [Voice], preference: CastingPreference,
        narrator: VoiceAssignment? = nil, characters: [String: VoiceAssignment] = [:]
    ) -> Cast {
        RenderEstimate.casting().cast(analysis, voices: voices, preference: preference, narrator: narrator, characters: characters)
    }

    /// Whether an engine's voices render faster than they play here with room to spare (what
    /// live speech needs: twice real time on one core, so other work on the machine does not
    /// make a listener wait), by the speeds measured for estimates; engines not measured (cloud
    /// voices) are taken to.
    public static func rendersInRealTime(engine: String) -> Bool {
        (RenderEstimate.realTime[engine] ?? RenderEstimate.cloudRealTime) >= RenderEstimate.slowBelow
    }

    /// The voice asked for (checked to be installed), or the best one installed that speaks
    /// faster than real time (highest quality, then name): what live speech (voice chat, a
    /// journey) uses when the listener has not chosen.
    public static func live(_ id: String?, narration: any NarrationService) async throws -> VoiceAssignment {
        if let id { return try await VoiceChoice(voice: id).validated(against: narration) }
        guard let best = bestLive(await narration.voices()) else {
            throw ServiceError(.unavailable, code: "no_voices", "No voice is installed: run scripts/setup.")
        }
        return VoiceAssignment(voice: best.id)
    }

    /// The best of `voices` that speaks faster than real time: highest quality, then name.
    public static func bestLive<V: LiveVoice>(_ voices: [V]) -> V? {
        voices.filter { rendersInRealTime(engine: $0.engine) }.max { ($0.quality, $1.id) < ($1.quality, $0.id) }
    }
}

/// What choosing a live voice reads of a voice or a voice summary.
public protocol LiveVoice {
    var id: String { get }
    var engine: String { get }
    var quality: Int { get }
}

extension Voice: LiveVoice {}
extension VoiceSummary: LiveVoice {}
