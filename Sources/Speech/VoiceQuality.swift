/// Quality tiers for `Voice.quality`: how pleasant a voice is over hours of listening.
/// Casting gives the narrator the highest tier available.
public enum VoiceQuality: Int, Sendable, CaseIterable, Comparable {
    /// Formant synthesis (espeak-ng): clear, fast, robotic.
    case formant = 1
    /// Statistical parametric voices built with CMU Clustergen (flite slt, rms, awb).
    case clustergen = 2
    /// HMM voices rendered by the HTS engine (festival's cmu_us_slt_arctic_hts).
    case hts = 3
    /// Neural voices (Piper; OpenAI's tts-1).
    case neural = 4
    /// Expressive cloud voices made for long listening (OpenAI tts-1-hd and gpt-4o-mini-tts,
    /// ElevenLabs, Gemini TTS). They cost money per character (`Voice.costPer1000Characters`).
    case studio = 5

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
