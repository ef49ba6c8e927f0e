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
}
