import Audio
import Crypto
import Foundation
import Narration
import Speech
import SpeechEngines
import StoryModel

/// The server's narration pipeline on this machine's engines: `Narrator` for whole books and the
/// same `SegmentCache` (in the data directory) for line-by-line playback, so a line played in
/// the browser is not synthesized again by an export, and an interrupted export resumes.
public struct LocalNarration: NarrationService {
    public let catalog: VoiceCatalog
    let cache: SegmentCache
    /// Renders single lines exactly as `Narrator` does: the same cache keys (engine versions,
    /// lexicon, short-line alternates), the same short-line checks and post-processing.
    let lines: LineRenderer
    var options: NarrationOptions { lines.options }
    /// Cloud voices per set of user keys, so a user's ElevenLabs list is not fetched per request.
    var cloudCatalogs = CloudCatalogs()
    /// The user's choice between the fastest voices and the best.
    var preference: CastingPreference = .fastest
    /// Each engine's speed in this machine's exports, for estimates (`<data dir>/render-speeds.json`).
    var speeds: RenderSpeedLog?

    /// Finds the installed local engines and opens the cache at `<data dir>/segments`, the local
    /// copy of `shared` when there is one (every server and worker then finds each other's lines).
    public static func make(dataDirectory: URL, shared: (any SharedSegmentStore)? = nil, options: NarrationOptions = NarrationOptions()) async throws -> LocalNarration {
        let catalog = await VoiceCatalog.load(from: Engines.local())
        let cache = try SegmentCache(directory: dataDirectory.appendingPathComponent("segments", isDirectory: true), shared: shared)
        return LocalNarration(catalog: catalog, cache: cache, lines: await LineRenderer.make(catalog: catalog, options: options),
                              speeds: RenderSpeedLog(directory: dataDirectory))
    }

    public func including(cloudKeys: [String: String]) async -> any NarrationService {
        let cloud = await cloudCatalogs.renderer(for: cloudKeys, options: options)
        guard !cloud.catalog.voices.isEmpty else { return self }
        let merged = catalog.merging(cloud.catalog)
        let versions = lines.engineVersions.merging(cloud.engineVersions) { local, _ in local }
        return LocalNarration(catalog: merged, cache: cache, lines: LineRenderer(catalog: merged, options: options, engineVersions: versions),
                              cloudCatalogs: cloudCatalogs, preference: preference, speeds: speeds)
    }

    public func speaking(with lexicon: PronunciationLexicon) -> any NarrationService {
        var options = options
        options.lexicon = lexicon
        return LocalNarration(catalog: catalog, cache: cache, lines: LineRenderer(catalog: catalog, options: options, engineVersions: lines.engineVersions),
                              cloudCatalogs: cloudCatalogs, preference: preference, speeds: speeds)
    }

    public var measuredSpeeds: MeasuredSpeeds { speeds?.current ?? MeasuredSpeeds() }

    public func releaseIdleWorkers(voices: [String]) async {
        var engines: Set<String> = []
        for voice in voices.compactMap({ catalog.voice(id: $0) }) where engines.insert(voice.engine).inserted {
            await catalog.engine(for: voice)?.releaseIdleResources()
        }
    }

    public func preferring(_ preference: CastingPreference) -> any NarrationService {
        var preferring = self
        preferring.preference = preference
        return preferring
    }

    public func voices() async -> [VoiceSummary] {
        catalog.voices.map {
            VoiceSummary(id: $0.id, name: $0.displayName, engine: $0.engine, gender: $0.gender, age: $0.age, accent: $0.accent,
                         quality: $0.quality, costPer1000Characters: $0.costPer1000Characters)
        }
    }

    /// Automatic casting keeps to free voices, neural where it can, the slow ones within the
    /// user's time budget; a paid voice is used only where the user chose it.
    public func cast(_ analysis: StoryAnalysis, overrides: CastOverrides) async -> Cast {
        CastableVoices.cast(
            analysis, voices: CastableVoices.automatic(catalog.voices), preference: preference, narrator: overrides.narrator, characters: overrides.characters)
    }

    public func plan(_ document: StoryDocument, analysis: StoryAnalysis, cast: Cast) -> [PlannedUtterance] {
        options.planner.plan(text: document.text, analysis: analysis, cast: cast).enumerated().map { index, utterance in
            PlannedUtterance(
                index: index, segment: utterance.segment, start: utterance.start, end: utterance.end, kind: utterance.kind,
                speaker: utterance.speaker, voice: utterance.voice, spokenText: utterance.spokenText,
                pauseBefore: utterance.pauseBefore, cached: false)
        }
    }

    public func markingCached(_ lines: [PlannedUtterance]) -> [PlannedUtterance] {
        lines.map { line in
            var marked = line
            marked.cached = key(for: line).flatMap { cache.sampleCount(for: $0) } != nil
            return marked
        }
    }

    public func utteranceAudio(_ utterance: PlannedUtterance) async throws -> Data {
        guard let line = lines.line(spokenText: utterance.spokenText, assignment: utterance.voice) else {
            throw NarrationError.unknownVoice(voice: utterance.voice.voice, role: utterance.speaker ?? "the narrator")
        }
        if await cache.fetchFromShared(line.key) { return try Data(contentsOf: cache.url(for: line.key)) }
        let rendered = try await lines.render(line)
        try cache.store(rendered.audio, for: line.key)
        try cache.storeRecord(rendered.record, for: line.key)
        // The listener waits for this line; other machines can wait for the store.
        Task { [cache, key = line.key] in await Narrator.publish(key, in: cache) }
        return WAV.encode(rendered.audio)
    }

    /// Kept beside the WAV once made: encoding takes longer than reading either file.
    public func compressedUtteranceAudio(_ utterance: PlannedUtterance) async throws -> Data {
        let key = key(for: utterance)
        if let key, let stored = cache.compressed(for: key) { return stored }
        let opus = try await LineCompression.opus(fromWAV: try await utteranceAudio(utterance))
        guard let key else { return opus }
        try? cache.storeCompressed(opus, for: key)
        return opus
    }

    public func render(
        _ document: StoryDocument, analysis: StoryAnalysis, cast: Cast, to output: URL,
        progress: @escaping @Sendable (RenderProgress) -> Void
    ) async throws -> RenderOutcome {
        let narrator = Narrator(catalog: catalog, cache: cache, speeds: speeds)
        let timeLeft = timeLeft(document, analysis: analysis, cast: cast)
        let started = ContinuousClock.now
        let result = try await narrator.narrate(document: document, analysis: analysis, cast: cast, to: output, options: options) { update in
            switch update.phase {
            case .synthesizing:
                let left = timeLeft.seconds(finished: update.synthesized, since: started)
                progress(RenderProgress(fraction: 0.9 * update.fraction,
                                        message: "Rendering line \(update.completed) of \(update.total) · \(TimeLeft.said(left))"))
            case .assembling:
                progress(RenderProgress(fraction: 0.9, message: "Assembling the book"))
            case .encoding:
                progress(RenderProgress(fraction: 0.9 + 0.1 * update.fraction,
                                        message: "Encoding \(output.pathExtension.uppercased()): line \(update.completed) of \(update.total)"))
            case .finished:
                progress(RenderProgress(fraction: 1, message: "Done"))
            }
        }
        return RenderOutcome(durationSeconds: result.durationSeconds, synthesized: result.synthesized, cacheHits: result.cacheHits,
                             timingMap: result.timingMap)
    }

    /// The time-left clock for rendering `cast`: each line still to render (identical lines in
    /// one voice once, as `Narrator` renders them), in its order (`RenderOrder`), at its engine's speed here.
    private func timeLeft(_ document: StoryDocument, analysis: StoryAnalysis, cast: Cast) -> TimeLeft {
        var seen = Set<String>()
        let lines = markingCached(plan(document, analysis: analysis, cast: cast)).filter { line in
            !line.cached && seen.insert("\(line.voice.voice)|\(line.voice.rate)|\(line.voice.pitch)|\(line.spokenText)").inserted
        }
        let ordered = RenderOrder.byEngine(lines) { catalog.voice(id: $0.voice.voice)?.engine ?? $0.voice.voice }.joined()
        let measured = measuredSpeeds
        return TimeLeft(lineSeconds: ordered.map { RenderEstimate.renderSeconds($0, measured: measured) })
    }

    public func preview(_ assignment: VoiceAssignment, text: String) async throws -> Data {
        guard let line = lines.line(spokenText: text, assignment: assignment) else {
            throw NarrationError.unknownVoice(voice: assignment.voice, role: "the preview")
        }
        return WAV.encode(try await lines.render(line).audio)
    }

    /// The cache key `Narrator` uses for this line, so both find each other's renders.
    private func key(for utterance: PlannedUtterance) -> String? {
        lines.line(spokenText: utterance.spokenText, assignment: utterance.voice)?.key
    }
}

/// Cloud voice catalogues (with their engines' versions) by the keys that unlock them, kept for
/// a while: listing ElevenLabs' voices is a network call, and this runs for every line the
/// player fetches. Keys are held only as a digest here.
actor CloudCatalogs {
    private var entries: [String: (renderer: LineRenderer, loaded: ContinuousClock.Instant)] = [:]
    private let lifetime: Duration = .seconds(600)

    func renderer(for keys: [String: String], options: NarrationOptions) async -> LineRenderer {
        let digest = SHA256.hash(data: Data(keys.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "\n").utf8))
            .map { String(format: "%02x", $0) }.joined()
        if let entry = entries[digest], ContinuousClock.now - entry.loaded < lifetime { return entry.renderer }
        let renderer = await LineRenderer.make(catalog: VoiceCatalog.load(from: Engines.cloud(keys: keys)), options: options)
        entries[digest] = (renderer, .now)
        return renderer
    }
}
