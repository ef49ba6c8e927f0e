import Audio
import Foundation
import Logging
import Speech
import StoryModel
import Synchronization

/// Renders one line exactly as a narration does, so every renderer of lines (whole books, the
/// server's line-by-line playback, previews) produces the same audio under the same cache key.
///
/// A line goes through, in order: the story's pronunciation lexicon (applied to the text the
/// engine is given, never to the story), the short-line check (`ShortLineSynthesizer`: a
/// fumbled "Yes." is retried with a normalized ending, a lead-in pause, then other voices of
/// the same engine and gender), and post-processing to the book's rate and loudness.
///
/// The cache key is a hash of that whole recipe: the text after the lexicon (for the voice's
/// engine), the voice, the delivery (for voices that read it), the engine version, and for a short line the policy and the ordered alternate
/// voices. Engines are deterministic, so the recipe fixes the audio, and a re-run hits the
/// cache. Which step of the recipe actually produced the audio (the cast voice or an alternate,
/// which text, how many attempts, and the transcription check) is kept beside the audio as a
/// `LineRecord` in the cache.
public struct LineRenderer: Sendable {
    public let catalog: VoiceCatalog
    public let options: NarrationOptions
    /// Each engine's version, part of every key.
    public let engineVersions: [String: String]
    /// Each voice's alternates, worked out once: sorting the catalogue per line made listing a
    /// novel's lines cost over a millisecond a line.
    private let alternatesByVoice = AlternatesMemo()

    public init(catalog: VoiceCatalog, options: NarrationOptions, engineVersions: [String: String]) {
        self.catalog = catalog
        self.options = options
        self.engineVersions = engineVersions
    }

    /// A renderer knowing the version of every engine in `catalog`.
    public static func make(catalog: VoiceCatalog, options: NarrationOptions) async -> LineRenderer {
        var versions: [String: String] = [:]
        for voice in catalog.voices where versions[voice.engine] == nil {
            versions[voice.engine] = await catalog.engine(for: voice)?.info().version ?? "unknown"
        }
        return LineRenderer(catalog: catalog, options: options, engineVersions: versions)
    }

    /// Everything needed to render one line, and its cache key.
    public struct Line: Sendable, Hashable {
        public var key: String
        /// The story's words as spoken (what a listener should hear; what verification checks against).
        public var spokenText: String
        /// What the engine is given: `spokenText` with the lexicon applied for `voice.engine`.
        public var engineText: String
        public var voice: Voice
        /// Stand-ins of the same engine and gender, best first, for lines `voice` fumbles.
        public var alternates: [Voice]
        public var settings: SpeechSettings
        public var volume: Double
    }

    /// The line `spokenText` in `assignment`'s voice, or nil when that voice is not installed.
    public func line(spokenText: String, assignment: VoiceAssignment) -> Line? {
        guard let voice = catalog.voice(id: assignment.voice) else { return nil }
        let engineText = options.lexicon.apply(to: spokenText, engine: voice.engine)
        let alternates = alternates(for: voice)
        let key = Narrator.cacheKey(engineText: engineText, voice: voice, assignment: assignment,
                                    engineVersion: engineVersions[voice.engine] ?? "unknown", options: options, alternates: alternates)
        return Line(key: key, spokenText: spokenText, engineText: engineText, voice: voice, alternates: alternates,
                    settings: SpeechSettings(rate: assignment.rate, pitch: assignment.pitch, volume: 1, delivery: assignment.delivery), volume: assignment.volume)
    }

    private func alternates(for voice: Voice) -> [Voice] {
        if let known = alternatesByVoice.voices.withLock({ $0[voice.id] }) { return known }
        let found = Self.alternates(for: voice, in: catalog.voices, limit: options.maximumAlternates)
        alternatesByVoice.voices.withLock { $0[voice.id] = found }
        return found
    }

    /// Other voices of `voice`'s engine of the same gender (a character never changes gender
    /// for one line), ordered by `ShortLineSynthesizer.alternates`, at most `limit`.
    public static func alternates(for voice: Voice, in catalogue: [Voice], limit: Int) -> [Voice] {
        Array(ShortLineSynthesizer.alternates(for: voice, in: catalogue).filter { $0.gender == voice.gender }.prefix(max(0, limit)))
    }

    /// What rendering a line produced: post-processed audio and how it came about.
    public struct Rendered: Sendable {
        public var audio: PCMAudio
        public var record: LineRecord
    }

    /// Synthesizes `line` (retrying once when the engine fails outright: engines occasionally
    /// crash) and post-processes it. A short line that stays implausible after every attempt
    /// is kept as the cast voice said it, with a warning, rather than stopping the book.
    public func render(_ line: Line, logger: Logger = Logger(label: "storyvoice.narration")) async throws -> Rendered {
        guard let engine = catalog.engine(for: line.voice) else {
            throw NarrationError.unknownVoice(voice: line.voice.id, role: "a line")
        }
        let synthesizer = ShortLineSynthesizer(engine: engine, policy: options.shortLines)
        var outcome: ShortLineSynthesizer.Outcome
        var plausible = true
        do {
            outcome = try await synthesizer.synthesize(line.engineText, voice: line.voice, settings: line.settings, alternates: line.alternates)
        } catch {
            // A line nobody wants any more (a listener jumped away) is not retried.
            try Task.checkCancellation()
            logger.warning("synthesis failed, retrying once", metadata: ["voice": "\(line.voice.id)", "error": "\(error)"])
            do {
                outcome = try await synthesizer.synthesize(line.engineText, voice: line.voice, settings: line.settings, alternates: line.alternates)
            } catch {
                try Task.checkCancellation()
                guard options.shortLines.applies(to: line.engineText) else {
                    throw NarrationError.synthesisFailed(text: line.spokenText, voice: line.voice.id, underlying: "\(error)")
                }
                logger.warning("short line stays implausible; keeping the cast voice's rendering", metadata: ["text": "\(line.spokenText)", "error": "\(error)"])
                do {
                    let audio = try await engine.synthesize(line.engineText, voice: line.voice, settings: line.settings)
                    outcome = ShortLineSynthesizer.Outcome(audio: options.shortLines.padded(audio), voice: line.voice, text: line.engineText, attempts: 0)
                    plausible = false
                } catch {
                    throw NarrationError.synthesisFailed(text: line.spokenText, voice: line.voice.id, underlying: "\(error)")
                }
            }
        }
        let audio = Narrator.postProcess(outcome.audio, volume: line.volume, sampleRate: options.sampleRate, loudness: options.loudness)
        let record = LineRecord(voice: outcome.voice.id, engine: outcome.voice.engine, text: outcome.text, attempts: outcome.attempts, plausible: plausible)
        return Rendered(audio: audio, record: record)
    }

    /// `line` spoken by its first alternate voice (or, with none, by its own voice with the
    /// ending normalized): the second chance verification gives a line that transcribes badly.
    func rerender(_ line: Line, logger: Logger) async throws -> Rendered {
        var retry = line
        if let first = line.alternates.first {
            retry.voice = first
            retry.alternates = Array(line.alternates.dropFirst())
        } else if let normalized = options.shortLines.attempts(for: line.engineText).dropFirst().first {
            retry.engineText = normalized
        }
        return try await render(retry, logger: logger)
    }
}

/// How a cached line was produced, stored beside its audio.
public struct LineRecord: Codable, Sendable, Hashable {
    /// The voice that finally spoke (the cast voice or an alternate).
    public var voice: String
    public var engine: String
    /// The text the engine was given.
    public var text: String
    /// Syntheses tried (0: the short-line check never passed; the cast voice's audio was kept).
    public var attempts: Int
    public var plausible: Bool
    /// Set once the line was transcribed.
    public var check: Check?

    public struct Check: Codable, Sendable, Hashable {
        public var transcript: String
        public var wordErrorRate: Double
        /// The first rendering's WER (equal to `wordErrorRate` unless a retry replaced it).
        public var firstWordErrorRate: Double?
        /// Whether the line was re-synthesized because the first rendering failed the check.
        public var retried: Bool
    }
}

/// Alternates by voice id, shared by copies of one renderer (a `Mutex` cannot be copied).
private final class AlternatesMemo: Sendable {
    let voices = Mutex<[String: [Voice]]>([:])
}
