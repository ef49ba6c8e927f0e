import Foundation
import Speech
import SpeechEngines
import StoryModel
import StoryText
import Testing
@testable import Narration

/// Not a test: the figures for the note. With STORYVOICE_MEASURE_WER=1 it narrates
/// examples/the-open-window.txt once per local engine (every role cast from that engine's
/// voices), then again with verification on the warm cache, and prints the WER distribution
/// and the time verification adds. Nothing here passes or fails on time.
@Suite struct VerificationMeasurement {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["STORYVOICE_MEASURE_WER"] == "1"))
    func werPerEngineOnTheSampleStory() async throws {
        let project = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let document = try StoryImporter.load(contentsOf: project.appendingPathComponent("examples/the-open-window.txt"))
        let analysis = StoryAnalyzer().analyze(document)
        let transcriber = WhisperTranscriber(configuration: .init(projectDirectory: project))
        try #require(transcriber.isInstalled, "run scripts/setup: faster-whisper is not in .venv")
        let catalog = await VoiceCatalog.load(from: LocalEngines.all(piper: PiperEngine.Configuration(projectDirectory: project)))
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("wer-measure-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let only = ProcessInfo.processInfo.environment["STORYVOICE_MEASURE_ENGINES"]?.split(separator: ",").map(String.init)
        for engine in ["espeak-ng", "flite", "festival", "piper"] where only?.contains(engine) ?? true {
            let voices = catalog.voices.filter { $0.engine == engine }
            guard !voices.isEmpty else { print("WER \(engine): not installed"); continue }
            let cast = CastingDirector().cast(analysis, voices: voices)
            let narrator = Narrator(catalog: catalog, cache: try SegmentCache(directory: scratch.appendingPathComponent(engine)), transcriber: transcriber)
            var options = NarrationOptions()
            let clock = ContinuousClock()
            let started = clock.now
            let plain = try await narrator.narrate(document: document, analysis: analysis, cast: cast, to: scratch.appendingPathComponent("\(engine).wav"), options: options)
            let renderSeconds = (clock.now - started).seconds
            options.verify = true
            let checkStarted = clock.now
            let verified = try await narrator.narrate(document: document, analysis: analysis, cast: cast, to: scratch.appendingPathComponent("\(engine)-v.wav"), options: options)
            let checkSeconds = (clock.now - checkStarted).seconds
            let report = try #require(verified.verification)
            func line(_ d: WERDistribution) -> String {
                String(format: "n=%d mean=%.3f median=%.3f p90=%.3f max=%.2f above(%.2f)=%.1f%%", d.count, d.mean, d.median, d.p90, d.max, d.threshold, d.shareAbove * 100)
            }
            print("WER \(engine) voices=\(Set(cast.characters.values.map(\.voice) + [cast.narrator.voice]).count) audio=\(String(format: "%.1f", plain.durationSeconds))s")
            print("WER \(engine) first:  \(line(report.firstDistribution))")
            print("WER \(engine) final:  \(line(report.distribution)) retried=\(report.retried) improved=\(report.improved)")
            print(String(format: "WER %@ time: render %.1fs (%d lines), verify pass %.1fs wall (%.1fs summed checking) = +%.0f%%",
                         engine, renderSeconds, plain.synthesized, checkSeconds, report.seconds, checkSeconds / renderSeconds * 100))
            let worst = try FileManager.default.subpathsOfDirectory(atPath: narrator.cache.directory.path).filter { $0.hasSuffix(".json") }
                .compactMap { narrator.cache.record(for: URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent) }
                .filter { ($0.check?.firstWordErrorRate ?? 0) > options.verifyThreshold }
                .sorted { ($0.check?.firstWordErrorRate ?? 0) > ($1.check?.firstWordErrorRate ?? 0) }
            for record in worst.prefix(5) {
                print("WER \(engine) worst: \(String(format: "%.2f→%.2f", record.check!.firstWordErrorRate ?? 0, record.check!.wordErrorRate)) \(record.voice) \"\(record.text.prefix(50))\" heard \"\(record.check!.transcript.prefix(50))\"")
            }
        }
        await transcriber.shutdown()
    }
}
