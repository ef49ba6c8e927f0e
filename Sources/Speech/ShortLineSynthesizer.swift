import Audio

/// Synthesizes a line, and for short lines makes sure the result is plausible
/// (`ShortLinePolicy`): it retries with a normalized ending and a lead-in pause, then with
/// the `alternates` (other voices of the same engine), and pads accepted short lines with a
/// little trailing silence. Longer lines pass straight through.
public struct ShortLineSynthesizer: Sendable {
    public let engine: any SpeechSynthesizer
    public let policy: ShortLinePolicy

    public init(engine: any SpeechSynthesizer, policy: ShortLinePolicy = ShortLinePolicy()) {
        self.engine = engine
        self.policy = policy
    }

    /// What was finally spoken, and how.
    public struct Outcome: Sendable {
        public var audio: PCMAudio
        /// The voice that spoke it: `voice`, or one of the alternates.
        public var voice: Voice
        /// The text given to the engine (the line, or a rewritten ending).
        public var text: String
        /// Syntheses tried, this one included (1 when the first try was fine).
        public var attempts: Int

        public init(audio: PCMAudio, voice: Voice, text: String, attempts: Int) {
            self.audio = audio
            self.voice = voice
            self.text = text
            self.attempts = attempts
        }
    }

    /// Speaks `text`. For a short line every attempt is judged and the first plausible one
    /// wins; when none is, the error says what came out and what to do.
    public func synthesize(_ text: String, voice: Voice, settings: SpeechSettings, alternates: [Voice] = []) async throws -> Outcome {
        guard policy.applies(to: text) else {
            return Outcome(audio: try await engine.synthesize(text, voice: voice, settings: settings), voice: voice, text: text, attempts: 1)
        }
        var attempts = 0
        var lastProblem = ""
        for candidate in [voice] + alternates.filter({ $0.id != voice.id && $0.engine == voice.engine }) {
            for attempt in policy.attempts(for: text) {
                attempts += 1
                do {
                    let audio = try await engine.synthesize(attempt, voice: candidate, settings: settings)
                    let verdict = policy.verdict(for: audio, text: text, rate: settings.rate)
                    if verdict == .plausible {
                        return Outcome(audio: policy.padded(audio), voice: candidate, text: attempt, attempts: attempts)
                    }
                    lastProblem = Self.describe(verdict)
                } catch SpeechError.emptyAudio {
                    lastProblem = "no audio"
                }
            }
        }
        throw SpeechError.engineFailed(
            engine: voice.engine, status: "implausible audio for a short line",
            message: "\"\(text)\" came out as \(lastProblem) after \(attempts) attempts. Rephrase the line, add it to the pronunciation lexicon, or cast another voice.")
    }

    /// Other voices of `voice`'s engine that could stand in for it on a line it fumbles:
    /// same gender first, then same accent, then nearest in pitch (ties by id).
    public static func alternates(for voice: Voice, in catalogue: [Voice]) -> [Voice] {
        catalogue.filter { $0.engine == voice.engine && $0.id != voice.id }.sorted { a, b in
            let (ga, gb) = (a.gender == voice.gender, b.gender == voice.gender)
            if ga != gb { return ga }
            let (aa, ab) = (a.accent == voice.accent, b.accent == voice.accent)
            if aa != ab { return aa }
            let (pa, pb) = (abs(a.pitch - voice.pitch), abs(b.pitch - voice.pitch))
            if pa != pb { return pa < pb }
            return a.id < b.id
        }
    }

    private static func describe(_ verdict: ShortLinePolicy.Verdict) -> String {
        switch verdict {
        case .plausible: "plausible audio"
        case .silent: "silence"
        case .tooShort(let seconds, let minimum): "\(format(seconds)) s of speech (at least \(format(minimum)) s expected)"
        case .tooLong(let seconds, let maximum): "\(format(seconds)) s of speech (at most \(format(maximum)) s expected)"
        }
    }

    private static func format(_ value: Double) -> String {
        String((value * 100).rounded() / 100)
    }
}
