import Audio
import Foundation
import Logging
import Speech
import StoryModel
import Synchronization

/// Settings of one narration.
public struct NarrationOptions: Sendable {
    /// The book's sample rate; engines' audio is resampled to it.
    public var sampleRate = 22_050
    /// Syntheses running at once (each is its own engine process).
    public var jobs = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// Encoders running at once on the finished book (AAC and MP3; each uses one core), each on
    /// a part of it cut at a pause.
    public var encoders = min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))
    public var loudness = LoudnessTarget.audiobook
    public var planner = NarrationPlanner()
    /// The story's pronunciation fixes, applied to the text engines are given (never to the
    /// story or the timing map). Part of every cache key through that text, so editing it
    /// re-renders exactly the lines whose engine text changes.
    public var lexicon = PronunciationLexicon()
    /// How very short lines are checked and retried.
    public var shortLines = ShortLinePolicy()
    /// Other voices of the same engine and gender a fumbled short line may fall back to.
    public var maximumAlternates = 2
    /// Transcribe every line (with the `Narrator`'s transcriber) and re-synthesize, once, with
    /// the alternate voice those whose word error rate is above `verifyThreshold`.
    public var verify = false
    public var verifyThreshold = 0.5

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
    /// The transcription check, when `options.verify` was on.
    public var verification: VerificationReport?
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
    /// Hears rendered lines back for `NarrationOptions.verify` (e.g. the faster-whisper worker).
    public let transcriber: (any SpeechTranscriber)?
    /// Where each engine's speed on this book (and the encoder's) is noted for later estimates.
    public let speeds: RenderSpeedLog?
    let logger: Logger

    public init(
        catalog: VoiceCatalog, cache: SegmentCache, encoder: AudioEncoder = AudioEncoder(),
        transcriber: (any SpeechTranscriber)? = nil, speeds: RenderSpeedLog? = nil, logger: Logger = Logger(label: "storyvoice.narration")
    ) {
        self.catalog = catalog
        self.cache = cache
        self.encoder = encoder
        self.transcriber = transcriber
        self.speeds = speeds
        self.logger = logger
    }

    public func narrate(
        document: StoryDocument, analysis: StoryAnalysis, cast: Cast, to output: URL,
        options: NarrationOptions = NarrationOptions(),
        progress: @escaping @Sendable (NarrationProgress) -> Void = { _ in }
    ) async throws -> NarrationResult {
        let utterances = options.planner.plan(text: document.text, analysis: analysis, cast: cast)
        guard !utterances.isEmpty else { throw NarrationError.nothingToSay }
        // What an earlier run of this output left when it was killed.
        Leftovers.sweep(in: output.deletingLastPathComponent(), olderThan: 0, only: output.lastPathComponent)
        if options.verify && transcriber == nil { throw NarrationError.noTranscriber }
        let jobs = try await renderJobs(for: utterances, analysis: analysis, options: options)
        // Each engine's idle workers (a model each, hundreds of MB) were released as its lines
        // were done, so none sits idle through the encode beside the encoders.
        let rendered = try await render(jobs, options: options, progress: progress)

        progress(NarrationProgress(phase: .assembling, completed: rendered.total, total: rendered.total,
                                   audioSeconds: rendered.audioSeconds, cacheHits: rendered.cacheHits, synthesized: rendered.synthesized))
        let assembly = try layout(utterances: utterances, keys: jobs.keys, analysis: analysis, sampleRate: options.sampleRate)

        let metadata = AudioMetadata(title: document.title, author: document.author, chapters: assembly.chapters)
        let parts = assembly.parts(count: options.encoders, pauses: utterances.map(\.pauseBefore), sampleRate: options.sampleRate)
        let written = Mutex(0)
        let keys = jobs.keys
        // Encoding progress counts lines written into the encoders, every part together.
        let encoding = { @Sendable (lines: Int) in
            progress(NarrationProgress(phase: .encoding, completed: lines, total: utterances.count,
                                       audioSeconds: rendered.audioSeconds, cacheHits: rendered.cacheHits, synthesized: rendered.synthesized))
        }
        encoding(0)
        let encodingStarted = ContinuousClock.now
        try await encoder.encode(sampleRate: options.sampleRate, to: output, metadata: metadata, pieces: parts.count) { piece, sink in
            let part = parts[piece]
            try await write(utterances: utterances, keys: keys, lines: part.lines, closing: piece == parts.count - 1, to: sink, expecting: part.samples) {
                let lines = written.withLock { $0 += 1; return $0 }
                if lines % max(1, utterances.count / 100) == 0 { encoding(lines) }
            }
        }
        noteEncodingSpeed(utterances, output: output, since: encodingStarted)

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
            timing: assembly.timing, chapters: assembly.chapters, verification: rendered.verification)
    }

    /// Notes how fast the book was encoded, for later estimates. A WAV is only copied; the
    /// compressed formats' encoding is what an estimate needs.
    private func noteEncodingSpeed(_ utterances: [Utterance], output: URL, since started: ContinuousClock.Instant) {
        guard let speeds, output.pathExtension.lowercased() != "wav" else { return }
        speeds.record(MeasuredSpeeds.encoding, speech: utterances.reduce(0) { $0 + MeasuredSpeeds.speechSeconds($1.spokenText, rate: $1.voice.rate) },
                      seconds: (ContinuousClock.now - started).seconds)
    }

    // MARK: - Synthesis

    /// One distinct rendering: identical lines in the same voice render once.
    typealias RenderJob = LineRenderer.Line

    struct RenderJobs: Sendable {
        /// The cache key of each utterance, by utterance index.
        var keys: [String]
        /// The distinct jobs, in first-use order.
        var unique: [RenderJob]
        var renderer: LineRenderer
    }

    func renderJobs(for utterances: [Utterance], analysis: StoryAnalysis, options: NarrationOptions) async throws -> RenderJobs {
        guard !catalog.voices.isEmpty else { throw NarrationError.noVoices }
        var versions: [String: String] = [:]
        for utterance in utterances {
            guard let voice = catalog.voice(id: utterance.voice.voice) else {
                let role = utterance.speaker.flatMap { analysis.character(id: $0)?.name } ?? "the narrator"
                throw NarrationError.unknownVoice(voice: utterance.voice.voice, role: role)
            }
            if versions[voice.engine] == nil {
                versions[voice.engine] = await catalog.engine(for: voice)?.info().version ?? "unknown"
            }
        }
        let renderer = LineRenderer(catalog: catalog, options: options, engineVersions: versions)
        var keys: [String] = []
        var unique: [RenderJob] = []
        var seen: Set<String> = []
        keys.reserveCapacity(utterances.count)
        for utterance in utterances {
            let line = renderer.line(spokenText: utterance.spokenText, assignment: utterance.voice)!
            keys.append(line.key)
            if seen.insert(line.key).inserted { unique.append(line) }
        }
        return RenderJobs(keys: keys, unique: unique, renderer: renderer)
    }

    struct RenderSummary {
        var total: Int
        var synthesized = 0
        var cacheHits = 0
        var audioSeconds = 0.0
        var verification: VerificationReport?
    }

    /// Renders every job not yet in the cache, `options.jobs` at a time, one engine after
    /// another (`RenderOrder`). With
    /// `options.verify`, every line (cached ones too, unless already checked) is transcribed.
    func render(_ jobs: RenderJobs, options: NarrationOptions, progress: @Sendable (NarrationProgress) -> Void) async throws -> RenderSummary {
        var summary = RenderSummary(total: jobs.unique.count)
        var pending: [(job: RenderJob, cached: Bool)] = []
        var checks: [Verification.Line] = []
        for job in jobs.unique {
            if await cache.fetchFromShared(job.key), let samples = cache.sampleCount(for: job.key) {
                if options.verify {
                    if let check = cache.record(for: job.key)?.check {
                        checks.append(Verification.Line(engine: job.voice.engine, check: check))
                    } else {
                        pending.append((job, true))
                        continue
                    }
                }
                summary.cacheHits += 1
                summary.audioSeconds += Double(samples) / Double(options.sampleRate)
            } else {
                pending.append((job, false))
            }
        }
        func report() {
            progress(NarrationProgress(phase: .synthesizing, completed: summary.cacheHits + summary.synthesized, total: summary.total,
                                       audioSeconds: summary.audioSeconds, cacheHits: summary.cacheHits, synthesized: summary.synthesized))
        }
        report()
        let cache = self.cache, logger = self.logger, renderer = jobs.renderer
        let verifier = options.verify ? transcriber.map { Verification(transcriber: $0, threshold: options.verifyThreshold) } : nil
        var checkSeconds = 0.0
        for lines in RenderOrder.byEngine(pending, engine: { $0.job.voice.engine }) {
            let started = ContinuousClock.now
            try await withThrowingTaskGroup(of: Verification.Finished.self) { group in
                var next = 0
                func startNext() {
                    guard next < lines.count else { return }
                    let (job, cached) = lines[next]
                    next += 1
                    group.addTask {
                        try await Self.renderOne(job, cached: cached, renderer: renderer, cache: cache, verifier: verifier, logger: logger)
                    }
                }
                for _ in 0..<max(1, options.jobs) { startNext() }
                while let finished = try await group.next() {
                    if finished.synthesized { summary.synthesized += 1 } else { summary.cacheHits += 1 }
                    summary.audioSeconds += Double(finished.samples) / Double(options.sampleRate)
                    if let check = finished.line { checks.append(check) }
                    checkSeconds += finished.checkSeconds
                    report()
                    startNext()
                }
            }
            // This engine's workers are done with the book: their memory goes before the next
            // engine's workers start (they start again on the next line anyone asks of them).
            guard let voice = lines.first?.job.voice else { continue }
            // Checking by transcription would count as the engine's time.
            if !options.verify {
                speeds?.record(voice.engine, speech: lines.reduce(0) { $0 + MeasuredSpeeds.speechSeconds($1.job.spokenText, rate: $1.job.settings.rate) },
                               seconds: (ContinuousClock.now - started).seconds)
            }
            await catalog.engine(for: voice)?.releaseIdleResources()
        }
        if options.verify { summary.verification = VerificationReport(checks, threshold: options.verifyThreshold, seconds: checkSeconds) }
        return summary
    }

    /// Renders one job through `renderer` (or, for a `cached` one, loads it) and, with a
    /// verifier, checks it by transcription, re-synthesizing it once if it fails. Stores the
    /// audio and its `LineRecord`.
    static func renderOne(
        _ job: RenderJob, cached: Bool, renderer: LineRenderer, cache: SegmentCache, verifier: Verification?, logger: Logger
    ) async throws -> Verification.Finished {
        // A cancelled render starts no more lines (engines that run a process per line would
        // otherwise go on through the whole book).
        try Task.checkCancellation()
        var rendered: LineRenderer.Rendered
        if cached {
            let record = cache.record(for: job.key)
                ?? LineRecord(voice: job.voice.id, engine: job.voice.engine, text: job.engineText, attempts: 1, plausible: true)
            rendered = LineRenderer.Rendered(audio: try cache.load(job.key), record: record)
        } else {
            rendered = try await renderer.render(job, logger: logger)
        }
        var finished = Verification.Finished(samples: rendered.audio.samples.count, synthesized: !cached)
        if let verifier {
            let started = ContinuousClock.now
            let (checked, replaced) = try await verifier.check(rendered, job: job, renderer: renderer, logger: logger)
            finished.checkSeconds = (ContinuousClock.now - started).seconds
            finished.line = Verification.Line(engine: job.voice.engine, check: checked.record.check!)
            if replaced || cached {
                // A cached line gains its check; a replaced one its new audio.
                if replaced {
                    try cache.store(checked.audio, for: job.key)
                    await publish(job.key, in: cache, logger: logger)
                }
                try cache.storeRecord(checked.record, for: job.key)
                finished.samples = checked.audio.samples.count
                return finished
            }
            rendered = checked
        }
        try cache.store(rendered.audio, for: job.key)
        try cache.storeRecord(rendered.record, for: job.key)
        await publish(job.key, in: cache, logger: logger)
        return finished
    }

    /// Puts a new line into the shared store; one that cannot be reached leaves the line on this
    /// machine only (the render goes on: other machines render it again if they need it).
    public static func publish(_ key: String, in cache: SegmentCache, logger: Logger = Logger(label: "storyvoice.narration")) async {
        do {
            try await cache.publish(key)
        } catch {
            logger.warning("a rendered line was not put in the shared store", metadata: ["key": "\(key)", "error": "\(error)"])
        }
    }

    /// The cache key of one line: everything that changes its audio, and nothing else.
    /// Every renderer of lines (whole books, the server's line-by-line playback) uses this,
    /// so each finds the others' renders (`LineRenderer.line(spokenText:assignment:)` computes it).
    ///
    /// `text` is the spoken text; what counts is the text `voice`'s engine is given, after
    /// `options.lexicon` (its respellings, or its phonemes for that engine). A line short
    /// enough for `options.shortLines` to check also keys on the policy and the ordered
    /// `alternates` it may fall back to, so the key names the whole deterministic recipe that
    /// produced the audio.
    public static func cacheKey(
        text: String, voice: Voice, assignment: VoiceAssignment, engineVersion: String, options: NarrationOptions,
        alternates: [Voice] = []
    ) -> String {
        cacheKey(engineText: options.lexicon.apply(to: text, engine: voice.engine), voice: voice, assignment: assignment,
                 engineVersion: engineVersion, options: options, alternates: alternates)
    }

    /// The key of a line whose engine text (after the lexicon) is already known.
    static func cacheKey(
        engineText: String, voice: Voice, assignment: VoiceAssignment, engineVersion: String, options: NarrationOptions,
        alternates: [Voice]
    ) -> String {
        var recipe = engineText
        if options.shortLines.applies(to: engineText) {
            let policy = options.shortLines
            recipe += "\u{1F}short-line \(policy.maximumLetters) \(policy.minimumSecondsPerSyllable) \(policy.maximumSecondsPerSyllable) "
                + "\(policy.slackSeconds) \(policy.speechThreshold) \(policy.tailPaddingSeconds) alternates \(alternates.map(\.id).joined(separator: ","))"
        }
        // A direction changes what an engine that reads one says: keyed for those voices only,
        // so an edited personality re-renders its lines there and nowhere else.
        if voice.readsDelivery, let delivery = assignment.delivery { recipe += "\u{1F}delivery \(delivery)" }
        return SegmentCache.key(
            text: recipe, voice: voice.id, engine: voice.engine, engineVersion: engineVersion,
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
        var timing: [TimedSegment]
        var chapters: [ChapterMark]
        var totalSamples: Int
        /// Where each line's pause begins, in samples.
        var lineStarts: [Int]

        /// A part of the book for one encoder: its lines and how many samples they make.
        struct Part {
            var lines: Range<Int>
            var samples: Int
        }

        /// The book cut into up to `count` parts of about equal length, each cut at the longest
        /// pause near its ideal place (where a join's codec delay is inaudible). Books under two
        /// minutes stay whole.
        func parts(count: Int, pauses: [Double], sampleRate: Int) -> [Part] {
            let lines = lineStarts.count
            guard count > 1, lines > count, totalSamples > 120 * sampleRate else {
                return [Part(lines: 0..<lines, samples: totalSamples)]
            }
            var cuts: [Int] = []
            for k in 1..<count {
                let target = totalSamples * k / count, slack = totalSamples / (4 * count)
                let near = (1..<lines).filter { abs(lineStarts[$0] - target) <= slack && $0 > (cuts.last ?? 0) }
                if let cut = near.max(by: { a, b in
                    pauses[a] != pauses[b] ? pauses[a] < pauses[b] : abs(lineStarts[a] - target) > abs(lineStarts[b] - target)
                }) { cuts.append(cut) }
            }
            let bounds = [0] + cuts + [lines]
            return zip(bounds, bounds.dropFirst()).map { start, end in
                Part(lines: start..<end, samples: (end < lines ? lineStarts[end] : totalSamples) - lineStarts[start])
            }
        }
    }

    /// Where each line and chapter falls in the book, from the cached lines' lengths, before a
    /// sample is written: the chapters must be known when the encoder starts.
    func layout(utterances: [Utterance], keys: [String], analysis: StoryAnalysis, sampleRate: Int) throws -> Assembly {
        var timing: [TimedSegment] = []
        timing.reserveCapacity(utterances.count)
        var chapterStarts: [Int: Int] = [:]
        var position = 0
        var lineStarts: [Int] = []
        lineStarts.reserveCapacity(utterances.count)
        func ms(_ samples: Int) -> Int { Int((Double(samples) * 1000 / Double(sampleRate)).rounded()) }
        for (index, utterance) in utterances.enumerated() {
            if chapterStarts[utterance.chapter] == nil { chapterStarts[utterance.chapter] = position }
            lineStarts.append(position)
            position += PCMSink.samples(seconds: utterance.pauseBefore, sampleRate: sampleRate)
            guard let length = cache.sampleCount(for: keys[index]) else { throw NarrationError.segmentMissing(index: utterance.segment) }
            timing.append(TimedSegment(
                segment: utterance.segment, start: utterance.start, end: utterance.end,
                startMs: ms(position), endMs: ms(position + length), kind: utterance.kind,
                speaker: utterance.speaker, voice: utterance.voice.voice))
            position += length
        }
        let total = position + PCMSink.samples(seconds: Self.closingSilence, sampleRate: sampleRate)
        let started = chapterStarts.keys.sorted()
        let chapters: [ChapterMark] = started.enumerated().map { index, chapter in
            let end = index + 1 < started.count ? chapterStarts[started[index + 1]]! : total
            let title = chapter < analysis.chapters.count ? analysis.chapters[chapter].title : "Chapter \(index + 1)"
            return ChapterMark(title: title, startMs: ms(chapterStarts[chapter]!), endMs: ms(end))
        }
        return Assembly(timing: timing, chapters: chapters, totalSamples: total, lineStarts: lineStarts)
    }

    /// Streams the cached `lines`, with their pauses (and the book's closing silence when
    /// `closing`), into `sink`, exactly as `layout` placed them.
    func write(
        utterances: [Utterance], keys: [String], lines: Range<Int>, closing: Bool, to sink: PCMSink, expecting total: Int,
        wrote: () -> Void = {}
    ) async throws {
        // A format encoded in one stream hands every part the same sink, one after the other.
        let before = sink.samplesWritten
        for index in lines {
            try Task.checkCancellation()
            try await sink.appendSilence(seconds: utterances[index].pauseBefore)
            try await sink.append(cache.load(keys[index]).samples)
            wrote()
        }
        if closing { try await sink.appendSilence(seconds: Self.closingSilence) }
        // A cached line replaced between layout and write would shift every later timing.
        guard sink.samplesWritten - before == total else { throw NarrationError.segmentMissing(index: utterances[max(lines.lowerBound, lines.upperBound - 1)].segment) }
    }

    /// Silence after the last line, so players do not clip its end.
    static let closingSilence = 0.8
}
