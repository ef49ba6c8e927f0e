import Speech

/// The one rule for which voices automatic casting (and a model's suggestions) may use: free
/// voices, and paid cloud voices only when the user asks for them (`narrate --cloud-voices`).
/// A paid voice a user picks by hand is always theirs to pick.
public enum CastableVoices {
    public static func automatic(_ voices: [Voice], includingPaid: Bool = false) -> [Voice] {
        includingPaid ? voices : voices.filter { $0.costPer1000Characters == 0 }
    }
}
