import Foundation
import Narration
import Speech
import StoryModel

/// What the server needs from the narration pipeline, so StoryServer stays free of the speech
/// engines: `storyvoice` supplies the local implementation (`Narrator` + `SegmentCache` in the
/// data directory); tests supply their own.
public protocol NarrationService: Sendable {
    /// Every installed voice.
    func voices() async -> [VoiceSummary]
    /// The cast for `analysis`: `overrides` win for every id they name; the rest is chosen.
    func cast(_ analysis: StoryAnalysis, overrides: CastOverrides) async -> Cast
    /// The utterances the player reads, in order (pure planning, no synthesis; `cached` false).
    func plan(_ document: StoryDocument, analysis: StoryAnalysis, cast: Cast) -> [PlannedUtterance]
    /// `lines` with `cached` set for those already rendered.
    func markingCached(_ lines: [PlannedUtterance]) -> [PlannedUtterance]
    /// One utterance as WAV, rendered through the shared cache (so a later render reuses it).
    func utteranceAudio(_ utterance: PlannedUtterance) async throws -> Data
    /// One utterance as Ogg Opus (about a tenth of the WAV), for listeners off this machine.
    func compressedUtteranceAudio(_ utterance: PlannedUtterance) async throws -> Data
    /// The whole book to `output` (its extension picks the format); resumes from the cache.
    func render(
        _ document: StoryDocument, analysis: StoryAnalysis, cast: Cast, to output: URL,
        progress: @escaping @Sendable (RenderProgress) -> Void
    ) async throws -> RenderOutcome
    /// A short WAV of `text` in `voice`.
    func preview(_ voice: VoiceAssignment, text: String) async throws -> Data
    /// The same pipeline with the cloud voices that a user's own keys unlock (provider id →
    /// key, e.g. `elevenlabs`). Automatic casting keeps to free voices; users pick paid ones.
    func including(cloudKeys: [String: String]) async -> any NarrationService
    /// The same pipeline speaking with a story's pronunciation lexicon (respellings, and
    /// phonemes for the engines that read them). Only lines whose engine text changes get new
    /// cache keys, so only they re-render.
    func speaking(with lexicon: PronunciationLexicon) -> any NarrationService
    /// The same pipeline casting for a user's preference (fastest or best voices).
    func preferring(_ preference: CastingPreference) -> any NarrationService
    /// How fast this machine's engines rendered (and its encoder encoded) the last exports, for
    /// estimates; empty where nothing was measured.
    var measuredSpeeds: MeasuredSpeeds { get }
    /// Frees the idle workers (a model each, hundreds of MB) of the engines that speak `voices`;
    /// the next line in one of them starts a worker again (about 2 s).
    func releaseIdleWorkers(voices: [String]) async
}

extension NarrationService {
    public func including(cloudKeys: [String: String]) async -> any NarrationService { self }
    public func speaking(with lexicon: PronunciationLexicon) -> any NarrationService { self }
    public func preferring(_ preference: CastingPreference) -> any NarrationService { self }
    public var measuredSpeeds: MeasuredSpeeds { MeasuredSpeeds() }
    public func releaseIdleWorkers(voices: [String]) async {}
    public func markingCached(_ lines: [PlannedUtterance]) -> [PlannedUtterance] { lines }
    public func compressedUtteranceAudio(_ utterance: PlannedUtterance) async throws -> Data {
        try await LineCompression.opus(fromWAV: try await utteranceAudio(utterance))
    }
}

/// A voice as the API lists it.
public struct VoiceSummary: Codable, Sendable, Hashable {
    public var id: String
    public var name: String
    public var engine: String
    public var gender: Gender
    public var age: AgeRange
    public var accent: String?
    public var quality: Int
    /// List price in USD per 1,000 characters spoken (0 for local voices).
    public var cost_per_1000_characters: Double

    public init(id: String, name: String, engine: String, gender: Gender, age: AgeRange, accent: String?, quality: Int, costPer1000Characters: Double = 0) {
        self.id = id
        self.name = name
        self.engine = engine
        self.gender = gender
        self.age = age
        self.accent = accent
        self.quality = quality
        self.cost_per_1000_characters = costPer1000Characters
    }
}

/// The voices a user chose by hand, keyed like a `Cast`. Kept apart from the analysis so they
/// survive re-analysis (character ids are stable), and so "Restore default" is just a removal.
public struct CastOverrides: Codable, Sendable, Hashable {
    public var narrator: VoiceAssignment?
    public var characters: [String: VoiceAssignment]
    /// The story's pronunciation lexicon: word → respelling and/or phonemes per engine, applied
    /// to what the engines are given (never to the story). Nil until the user sets one. Stored
    /// and returned as `PronunciationLexicon.Entry` writes itself: a respelling alone is a
    /// string, so lexicons saved before phonemes existed read unchanged.
    public var lexicon: [String: PronunciationLexicon.Entry]?

    public init(
        narrator: VoiceAssignment? = nil, characters: [String: VoiceAssignment] = [:], lexicon: [String: PronunciationLexicon.Entry]? = nil
    ) {
        self.narrator = narrator
        self.characters = characters
        self.lexicon = lexicon
    }
}

/// One utterance of the planned performance: what the player plays and highlights.
public struct PlannedUtterance: Codable, Sendable, Hashable {
    public var index: Int
    /// The analysis segment it belongs to.
    public var segment: Int
    /// Its span of the story's text, `[start, end)` in Unicode scalars.
    public var start: Int
    public var end: Int
    public var kind: SegmentKind
    public var speaker: String?
    public var voice: VoiceAssignment
    /// What the engine says.
    public var spokenText: String
    /// Silence before it, in seconds.
    public var pauseBefore: Double
    /// Whether it is already rendered (playback of it starts at once).
    public var cached: Bool

    public init(index: Int, segment: Int, start: Int, end: Int, kind: SegmentKind, speaker: String?, voice: VoiceAssignment,
                spokenText: String, pauseBefore: Double, cached: Bool) {
        self.index = index
        self.segment = segment
        self.start = start
        self.end = end
        self.kind = kind
        self.speaker = speaker
        self.voice = voice
        self.spokenText = spokenText
        self.pauseBefore = pauseBefore
        self.cached = cached
    }
}

/// Where a render is.
public struct RenderProgress: Sendable, Hashable {
    public var fraction: Double
    public var message: String

    public init(fraction: Double, message: String) {
        self.fraction = fraction
        self.message = message
    }
}

/// What a finished render produced.
public struct RenderOutcome: Codable, Sendable, Hashable {
    public var durationSeconds: Double
    public var synthesized: Int
    public var cacheHits: Int
    /// The timing map (`[TimedSegment]` JSON) written beside the audio.
    public var timingMap: URL

    public init(durationSeconds: Double, synthesized: Int, cacheHits: Int, timingMap: URL) {
        self.durationSeconds = durationSeconds
        self.synthesized = synthesized
        self.cacheHits = cacheHits
        self.timingMap = timingMap
    }
}
