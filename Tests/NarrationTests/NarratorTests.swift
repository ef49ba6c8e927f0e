import Audio
import Foundation
import Speech
import SpeechEngines
import StoryModel
import Synchronization
import Testing
@testable import Narration

/// End-to-end narration with the real local engines, a real cache on disk and real ffmpeg.
@Suite struct NarratorTests {
    let scratch: URL

    init() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    func narrator(cache name: String = "cache") async throws -> Narrator {
        let catalog = await VoiceCatalog.load(from: LocalEngines.all())
        return Narrator(catalog: catalog, cache: try SegmentCache(directory: scratch.appendingPathComponent(name)))
    }

    var document: StoryDocument { StoryDocument(title: "A Test Story", author: "Tester", text: NarrationPlannerTests.text) }

    /// A model-holding engine's workers would sit idle through the encode: they are stopped
    /// once every line is rendered.
    @Test func speechWorkersAreStoppedBeforeTheEncode() async throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let piper = PiperEngine(configuration: PiperEngine.Configuration(projectDirectory: directory, poolSize: 1))
        try #require(piper.isInstalled, "Piper is not installed; run scripts/setup")
        let catalog = await VoiceCatalog.load(from: LocalEngines.all().filter { $0.engineID != PiperEngine.id } + [piper])
        let narrator = Narrator(catalog: catalog, cache: try SegmentCache(directory: scratch.appendingPathComponent("piper-cache")))
        let cast = Cast(narrator: VoiceAssignment(voice: "piper:en_US-joe-medium"), characters: NarrationPlannerTests.cast.characters)
        _ = try await narrator.narrate(document: document, analysis: NarrationPlannerTests.analysis(), cast: cast,
                                       to: scratch.appendingPathComponent("piper.wav"))
        let workers = await piper.workerProcessIDs()
        #expect(workers.idle.isEmpty && workers.busy.isEmpty, "\(workers)")
    }

    /// Issue 47: in book order the engines took turns line by line and every engine's workers
    /// stayed alive together (2.2 GB for one export). One engine's lines after another, each
    /// engine's idle workers released before the next engine speaks.
    @Test func linesAreRenderedOneEngineAfterAnotherEachReleasedBeforeTheNext() async throws {
        let log = EngineLog()
        let catalog = await VoiceCatalog.load(from: LocalEngines.all().map { RecordingEngine(inner: $0, log: log) })
        let narrator = Narrator(catalog: catalog, cache: try SegmentCache(directory: scratch.appendingPathComponent("order-cache")))
        var options = NarrationOptions()
        options.jobs = 1
        // Book order: flite, flite, espeak-ng ("Who are you?"), then flite to the end.
        _ = try await narrator.narrate(document: document, analysis: NarrationPlannerTests.analysis(), cast: NarrationPlannerTests.cast,
                                       to: scratch.appendingPathComponent("order.wav"), options: options)
        let events = log.events.withLock { $0 }
        #expect(Array(events.prefix(10)) == Array(repeating: "say flite", count: 7) + ["release flite", "say espeak-ng", "release espeak-ng"],
                "\(events)")
    }

    /// Issue 47: estimates assumed speeds measured on another day (34 % long on a quiet
    /// machine). An export notes each engine's speed on its lines, and the encoder's, in a file
    /// that the next estimate reads.
    @Test func anExportNotesEachEnginesSpeedAndTheEncodersForLaterEstimates() async throws {
        let file = scratch.appendingPathComponent("speeds/render-speeds.json")
        let catalog = await VoiceCatalog.load(from: LocalEngines.all())
        let narrator = Narrator(catalog: catalog, cache: try SegmentCache(directory: scratch.appendingPathComponent("speed-cache")),
                                speeds: RenderSpeedLog(file: file, minimumSeconds: 0))
        _ = try await narrator.narrate(document: document, analysis: NarrationPlannerTests.analysis(), cast: NarrationPlannerTests.cast,
                                       to: scratch.appendingPathComponent("speeds.m4b"))
        let noted = RenderSpeedLog(file: file).current
        #expect(Set(noted.speeds.keys) == ["flite", "espeak-ng", MeasuredSpeeds.encoding], "\(noted)")
        #expect(noted.speeds.values.allSatisfy { $0 > 0 && $0.isFinite }, "\(noted)")
        // A second export from the cache renders nothing, so it measures no engine.
        _ = try await narrator.narrate(document: document, analysis: NarrationPlannerTests.analysis(), cast: NarrationPlannerTests.cast,
                                       to: scratch.appendingPathComponent("again.wav"))
        #expect(RenderSpeedLog(file: file).current["flite"] == noted["flite"])
        // A WAV is not encoded, so it says nothing of the encoder.
        #expect(RenderSpeedLog(file: file).current[MeasuredSpeeds.encoding] == noted[MeasuredSpeeds.encoding])
    }

    @Test func wavHasSoundForEverySegmentAndTimingMatchesTheAudio() async throws {
        let narrator = try await narrator()
        let output = scratch.appendingPathComponent("story.wav")
        let result = try await narrator.narrate(document: document, analysis: NarrationPlannerTests.analysis(), cast: NarrationPlannerTests.cast, to: output)

        let audio = try WAV.decode(Data(contentsOf: output))
        #expect(result.timing.count == 8)
        #expect(abs(audio.durationSeconds - result.durationSeconds) < 0.01)
        var previousEnd = 0
        for entry in result.timing {
            #expect(entry.startMs >= previousEnd && entry.endMs > entry.startMs)
            previousEnd = entry.endMs
            let from = entry.startMs * audio.sampleRate / 1000, to = min(audio.samples.count, entry.endMs * audio.sampleRate / 1000)
            let slice = Array(audio.samples[from..<to])
            #expect(Loudness.rmsDBFS(slice) > -40, "segment at \(entry.startMs) ms is silent")
        }
        #expect(try TimingMapFile.read(result.timingMap) == result.timing)
        let captions = try String(contentsOf: result.captions, encoding: .utf8)
        #expect(captions.hasPrefix("WEBVTT"))
        #expect(captions.contains("Who are you?"))
    }

    @Test func m4bHasChaptersThatFfprobeReadsAndADurationThatMatchesTheTimingMap() async throws {
        let narrator = try await narrator()
        let output = scratch.appendingPathComponent("story.m4b")
        let result = try await narrator.narrate(document: document, analysis: NarrationPlannerTests.analysis(), cast: NarrationPlannerTests.cast, to: output)
        let probe = try await AudioProber.probe(output)
        #expect(probe.chapters.map(\.title) == ["Chapter I", "Chapter II"])
        #expect(abs(probe.durationSeconds - result.durationSeconds) < 0.25)
        let lastLineEnd = Double(result.timing.last!.endMs) / 1000
        #expect(probe.durationSeconds >= lastLineEnd && probe.durationSeconds - lastLineEnd < 1.5)
        #expect(probe.chapters[1].startMs <= result.timing[6].startMs)
        #expect(probe.chapters[1].startMs > result.timing[5].endMs - 1)
    }

    @Test func aSecondRunReusesEverythingAndAVoiceChangeRerendersOnlyThatCharacter() async throws {
        let narrator = try await narrator()
        let analysis = NarrationPlannerTests.analysis()
        let first = try await narrator.narrate(document: document, analysis: analysis, cast: NarrationPlannerTests.cast, to: scratch.appendingPathComponent("a.wav"))
        #expect(first.synthesized == 8 && first.cacheHits == 0)

        let again = try await narrator.narrate(document: document, analysis: analysis, cast: NarrationPlannerTests.cast, to: scratch.appendingPathComponent("b.wav"))
        #expect(again.synthesized == 0 && again.cacheHits == 8)

        var recast = NarrationPlannerTests.cast
        recast.characters["c2"] = VoiceAssignment(voice: "flite:awb")
        let changed = try await narrator.narrate(document: document, analysis: analysis, cast: recast, to: scratch.appendingPathComponent("c.wav"))
        #expect(changed.synthesized == 1)  // the man's one line
        #expect(changed.cacheHits == 7)
    }

    @Test func anInterruptedRenderResumesWithOnlyTheMissingLines() async throws {
        let narrator = try await narrator()
        let analysis = NarrationPlannerTests.analysis()
        _ = try await narrator.narrate(document: document, analysis: analysis, cast: NarrationPlannerTests.cast, to: scratch.appendingPathComponent("a.wav"))
        // Lose three rendered lines, as a crash mid-render would.
        let files = try FileManager.default.subpathsOfDirectory(atPath: narrator.cache.directory.path).filter { $0.hasSuffix(".wav") }.sorted()
        for file in files.prefix(3) { try FileManager.default.removeItem(at: narrator.cache.directory.appendingPathComponent(file)) }
        let resumed = try await narrator.narrate(document: document, analysis: analysis, cast: NarrationPlannerTests.cast, to: scratch.appendingPathComponent("b.wav"))
        #expect(resumed.synthesized == 3 && resumed.cacheHits == 5)
    }

    @Test func anUninstalledVoiceIsReportedBeforeAnyWorkAndNothingIsWritten() async throws {
        let narrator = try await narrator()
        var cast = NarrationPlannerTests.cast
        cast.characters["c1"] = VoiceAssignment(voice: "nosuch:voice")
        let output = scratch.appendingPathComponent("never.m4b")
        await #expect(throws: NarrationError.self) {
            _ = try await narrator.narrate(document: document, analysis: NarrationPlannerTests.analysis(), cast: cast, to: output)
        }
        #expect(!FileManager.default.fileExists(atPath: output.path))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0 != "cache" }
        #expect(leftovers.isEmpty)
    }
}

/// What a narration asked of its engines, in order.
final class EngineLog: Sendable {
    let events = Mutex<[String]>([])
    func append(_ event: String) { events.withLock { $0.append(event) } }
}

/// A real engine whose syntheses and releases are written to a log.
struct RecordingEngine: SpeechSynthesizer {
    let inner: any SpeechSynthesizer
    let log: EngineLog
    var engineID: String { inner.engineID }
    func info() async -> EngineInfo { await inner.info() }
    func voices() async throws -> [Voice] { try await inner.voices() }
    func synthesize(_ text: String, voice: Voice, settings: SpeechSettings) async throws -> PCMAudio {
        log.append("say \(engineID)")
        return try await inner.synthesize(text, voice: voice, settings: settings)
    }
    func releaseIdleResources() async {
        log.append("release \(engineID)")
        await inner.releaseIdleResources()
    }
}
