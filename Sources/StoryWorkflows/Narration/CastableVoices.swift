import Speech
import SpeechEngines
import StoryModel

/// The one rule for which voices automatic casting (and a model's suggestions) may use: free
/// voices, and paid cloud voices only when the user asks for them (`narrate --cloud-voices`).
/// A paid voice a user picks by hand is always theirs to pick. Voices slower than real time
/// (Kokoro, about half real time on one core) are cast only when the user prefers the best.
public enum CastableVoices {
    public static func automatic(_ voices: [Voice], includingPaid: Bool = false, preference: CastingPreference = .fastest) -> [Voice] {
        voices.filter { voice in
            (includingPaid || voice.costPer1000Characters == 0) && (preference == .best || rendersInRealTime(engine: voice.engine))
        }
    }

    /// Whether an engine's voices render faster than they play here (what live speech needs),
    /// by the speeds measured for estimates; engines not measured (cloud voices) are taken to.
    public static func rendersInRealTime(engine: String) -> Bool {
        (RenderEstimate.realTime[engine] ?? RenderEstimate.cloudRealTime) >= 1
    }

    /// The voice asked for (checked to be installed), or the best one installed that speaks
    /// faster than real time (highest quality, then name): what live speech (voice chat, a
    /// journey) uses when the listener has not chosen.
    public static func live(_ id: String?, narration: any NarrationService) async throws -> VoiceAssignment {
        if let id { return try await VoiceChoice(voice: id).validated(against: narration) }
        guard let best = bestLive(await narration.voices()) else {
            throw StoryError(.unavailable, code: "no_voices", "No voice is installed: run scripts/setup.")
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
