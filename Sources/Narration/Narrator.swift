import Audio
import Foundation
import Logging
import Speech
import StoryModel

/// Settings of one narration.
public struct NarrationOptions: Sendable {
    /// The book's sample rate; engines' audio is resampled to it.
    public var sampleRate = 22_050
    /// Syntheses running at once (each is its own engine process).
    public var jobs = max(1, ProcessInfo.processInfo.activeProcessorCount)
    public var loudness = LoudnessTarget.audiobook
    public var planner = NarrationPlanner()

    public init() {}
}

/// What a finished narration produced.
public struct NarrationResult: Sendable {
    public var output: URL
    public var timingMap: URL
    public var captions: URL
    public var durationSeconds: Double
    public var utterances: Int
    public var synthesized: Int
    public var cacheHits: Int
    public var timing: [TimedSegment]
    public var chapters: [ChapterMark]
}

/// Story -> audio file: plan, synthesize in parallel through the cache, assemble, encode.
///
/// Memory stays flat whatever the book's length: rendered utterances live in the cache on disk
/// and are streamed one at a time into the output.
public struct Narrator: Sendable {
    /// Bump when the post-processing of cached audio changes, to invalidate old renders.
    static let renderVersion = 1

    public let catalog: VoiceCatalog
    public let cache: SegmentCache
    public let encoder: AudioEncoder
    let logger: Logger

    public init(catalog: VoiceCatalog, cache: SegmentCache, encoder: AudioEncoder = AudioEncoder(), logger: Logger = Logger(label: "storyvoice.narration")) {
        self.catalog = catalog
        self.cache = cache
        self.encoder = encoder
        self.logger = logger
    }

    public func narrate(
        document: StoryDocument, analysis: StoryAnalysis, cast: Cast, to output: URL,
        options: NarrationOptions = NarrationOptions(),
        progress: @Sendable (NarrationProgress) -> Void = { _ in }
    ) async throws -> NarrationResult {
        let utterances = options.planner.plan(text: document.text, analysis: analysis, cast: cast)
        guard !utterances.isEmpty else { throw NarrationError.nothingToSay }
        let jobs = try await renderJobs(for: utterances, analysis: analysis, options: options)
        let rendered = try await render(jobs, options: options, progress: progress)

        progress(NarrationProgress(phase: .assembling, completed: rendered.total, total: rendered.total,
                                   audioSeconds: rendered.audioSeconds, cacheHits: rendered.cacheHits, synthesized: rendered.synthesized))
        let assembly = try assemble(utterances: utterances, keys: jobs.keys, analysis: analysis, next: output, sampleRate: options.sampleRate)
        defer { try? FileManager.default.removeItem(at: assembly.wav) }

        progress(NarrationProgress(phase: .encoding, completed: rendered.total, total: rendered.total,
                                   audioSeconds: rendered.audioSeconds, cacheHits: rendered.cacheHits, synthesized: rendered.synthesized))
        let metadata = AudioMetadata(title: document.title, author: document.author, chapters: assembly.chapters)
        if AudioFormat(fileExtension: output.pathExtension) == .wav {
            _ = try? FileManager.default.removeItem(at: output)
            try FileManager.default.moveItem(at: assembly.wav, to: output)
        } else {
            try await encoder.encode(wav: assembly.wav, to: output, metadata: metadata)
        }

        let base = output.deletingPathExtension()
        let timingURL = base.appendingPathExtension("timing.json")
        let captionsURL = base.appendingPathExtension("vtt")
        try TimingMapFile.write(assembly.timing, to: timingURL)
        let names = Dictionary(analysis.characters.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        try WebVTT.render(assembly.timing, text: document.text, speakerNames: names).write(to: captionsURL, atomically: true, encoding: .utf8)

        progress(NarrationProgress(phase: .finished, completed: rendered.total, total: rendered.total,
                                   audioSeconds: rendered.audioSeconds, cacheHits: rendered.cacheHits, synthesized: rendered.synthesized))
        return NarrationResult(
            output: output, timingMap: timingURL, captions: captionsURL,
            durationSeconds: Double(assembly.totalSamples) / Double(options.sampleRate),
            utterances: utterances.count, synthesized: rendered.synthesized, cacheHits: rendered.cacheHits,
            timing: assembly.timing, chapters: assembly.chapters)
    }

    // MARK: - Synthesis

    /// One distinct rendering: identical lines in the same voice render once.
    struct RenderJob: Sendable {
        var key: String
        var text: String
        var voice: Voice
        var settings: SpeechSettings
        var volume: Double
    }

    struct RenderJobs: Sendable {
        /// The cache key of each utterance, by utterance index.
        var keys: [String]
        /// The distinct jobs, in first-use order.
        var unique: [RenderJob]
    }

    func renderJobs(for utterances: [Utterance], analysis: StoryAnalysis, options: NarrationOptions) async throws -> RenderJobs {
        guard !catalog.voices.isEmpty else { throw NarrationError.noVoices }
        var versions: [String: String] = [:]
        var keys: [String] = []
        var unique: [RenderJob] = []
        var seen: Set<String> = []
        keys.reserveCapacity(utterances.count)
        for utterance in utterances {
            guard let voice = catalog.voice(id: utterance.voice.voice) else {
                let role = utterance.speaker.flatMap { analysis.character(id: $0)?.name } ?? "the narrator"
                throw NarrationError.unknownVoice(voice: utterance.voice.voice, role: role)
            }
            if versions[voice.engine] == nil {
                versions[voice.engine] = await catalog.engine(for: voice)?.info().version ?? "unknown"
            }
            let settings = SpeechSettings(rate: utterance.voice.rate, pitch: utterance.voice.pitch, volume: 1)
            let key = Self.cacheKey(text: utterance.spokenText, voice: voice, assignment: utterance.voice,
                                    engineVersion: versions[voice.engine]!, options: options)
            keys.append(key)
            if seen.insert(key).inserted {
                unique.append(RenderJob(key: key, text: utterance.spokenText, voice: voice, settings: settings, volume: utterance.voice.volume))
            }
        }
        return RenderJobs(keys: keys, unique: unique)
    }

    struct RenderSummary {
        var total: Int
        var synthesized = 0
        var cacheHits = 0
        var audioSeconds = 0.0
    }

    /// Renders every job not yet in the cache, `options.jobs` at a time.
    func render(_ jobs: RenderJobs, options: NarrationOptions, progress: @Sendable (NarrationProgress) -> Void) async throws -> RenderSummary {
        var summary = RenderSummary(total: jobs.unique.count)
        var pending: [RenderJob] = []
        for job in jobs.unique {
            if let samples = cache.sampleCount(for: job.key) {
                summary.cacheHits += 1
                summary.audioSeconds += Double(samples) / Double(options.sampleRate)
            } else {
                pending.append(job)
            }
        }
        func report() {
            progress(NarrationProgress(phase: .synthesizing, completed: summary.cacheHits + summary.synthesized, total: summary.total,
                                       audioSeconds: summary.audioSeconds, cacheHits: summary.cacheHits, synthesized: summary.synthesized))
        }
        report()
        let cache = self.cache, catalog = self.catalog, logger = self.logger
        let sampleRate = options.sampleRate, loudness = options.loudness
        try await withThrowingTaskGroup(of: Int.self) { group in
            var next = 0
            func startNext() {
                guard next < pending.count else { return }
                let job = pending[next]
                next += 1
                group.addTask {
                    try await Self.renderOne(job, catalog: catalog, cache: cache, sampleRate: sampleRate, loudness: loudness, logger: logger)
                }
            }
            for _ in 0..<max(1, options.jobs) { startNext() }
            while let samples = try await group.next() {
                summary.synthesized += 1
                summary.audioSeconds += Double(samples) / Double(sampleRate)
                report()
                startNext()
            }
        }
        return summary
    }

    /// Synthesizes one job (retrying once: engines occasionally crash), post-processes it to the
    /// book's rate and loudness, and stores it. Returns its length in samples.
    static func renderOne(_ job: RenderJob, catalog: VoiceCatalog, cache: SegmentCache, sampleRate: Int, loudness: LoudnessTarget, logger: Logger) async throws -> Int {
        guard let engine = catalog.engine(for: job.voice) else {
            throw NarrationError.unknownVoice(voice: job.voice.id, role: "a line")
        }
        var audio: PCMAudio
        do {
            audio = try await engine.synthesize(job.text, voice: job.voice, settings: job.settings)
        } catch {
            logger.warning("synthesis failed, retrying once", metadata: ["voice": "\(job.voice.id)", "error": "\(error)"])
            do {
                audio = try await engine.synthesize(job.text, voice: job.voice, settings: job.settings)
            } catch {
                throw NarrationError.synthesisFailed(text: job.text, voice: job.voice.id, underlying: "\(error)")
            }
        }
        audio = postProcess(audio, volume: job.volume, sampleRate: sampleRate, loudness: loudness)
        try cache.store(audio, for: job.key)
        return audio.samples.count
    }

    /// The cache key of one line: everything that changes its audio, and nothing else.
    /// Every renderer of lines (whole books, the server's line-by-line playback) uses this,
    /// so each finds the others' renders.
    public static func cacheKey(text: String, voice: Voice, assignment: VoiceAssignment, engineVersion: String, options: NarrationOptions) -> String {
        SegmentCache.key(
            text: text, voice: voice.id, engine: voice.engine, engineVersion: engineVersion,
            settings: ["rate": assignment.rate, "pitch": assignment.pitch, "volume": assignment.volume,
                       "sampleRate": Double(options.sampleRate), "rms": options.loudness.rmsDBFS, "peak": options.loudness.peakDBFS],
            renderVersion: renderVersion)
    }

    /// What every synthesized line goes through before it is cached: the book's sample rate,
    /// then a level per line (engines differ by 10 dB or more, and a book must not jump in
    /// loudness), then the role's volume.
    public static func postProcess(_ audio: PCMAudio, volume: Double, sampleRate: Int, loudness: LoudnessTarget) -> PCMAudio {
        var audio = Resampler.resample(audio, to: sampleRate)
        audio = Loudness.normalize(audio, target: loudness)
        if volume != 1 { audio = Loudness.apply(gain: volume, to: audio) }
        return audio
    }

    // MARK: - Assembly

    struct Assembly {
        var wav: URL
        var timing: [TimedSegment]
        var chapters: [ChapterMark]
        var totalSamples: Int
    }

    /// Streams the cached utterances, with their pauses, into one WAV beside `output`.
    func assemble(utterances: [Utterance], keys: [String], analysis: StoryAnalysis, next output: URL, sampleRate: Int) throws -> Assembly {
        let wav = output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).\(UUID().uuidString).wav")
        let writer = try WAVFileWriter(url: wav, sampleRate: sampleRate)
        var timing: [TimedSegment] = []
        timing.reserveCapacity(utterances.count)
        var chapterStarts: [Int: Int] = [:]
        func ms(_ samples: Int) -> Int { Int((Double(samples) * 1000 / Double(sampleRate)).rounded()) }
        do {
            for (index, utterance) in utterances.enumerated() {
                if chapterStarts[utterance.chapter] == nil { chapterStarts[utterance.chapter] = writer.samplesWritten }
                try writer.appendSilence(seconds: utterance.pauseBefore)
                let start = writer.samplesWritten
                try writer.append(cache.load(keys[index]).samples)
                timing.append(TimedSegment(
                    segment: utterance.segment, start: utterance.start, end: utterance.end,
                    startMs: ms(start), endMs: ms(writer.samplesWritten), kind: utterance.kind,
                    speaker: utterance.speaker, voice: utterance.voice.voice))
            }
            try writer.appendSilence(seconds: 0.8)
            try writer.finish()
        } catch {
            try? FileManager.default.removeItem(at: wav)
            throw error
        }
        let total = writer.samplesWritten
        let started = chapterStarts.keys.sorted()
        let chapters: [ChapterMark] = started.enumerated().map { position, chapter in
            let end = position + 1 < started.count ? chapterStarts[started[position + 1]]! : total
            let title = chapter < analysis.chapters.count ? analysis.chapters[chapter].title : "Chapter \(position + 1)"
            return ChapterMark(title: title, startMs: ms(chapterStarts[chapter]!), endMs: ms(end))
        }
        return Assembly(wav: wav, timing: timing, chapters: chapters, totalSamples: total)
    }
}
