import ArgumentParser
import Foundation
import Narration
import Platform
import Speech
import SpeechEngines
import StoryModel
import StoryText
import StoryWorkflows
#if canImport(Glibc)
import Glibc
#endif

/// Benchmarks print figures and ratios against a reference measured in the same run; they
/// never pass or fail on time.
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure narration speed and memory.",
        subcommands: [Overhead.self, Novel.self, Lines.self, Segments.self, Speeds.self])

    struct Overhead: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Narrate (cache off) vs. calling the engines directly in a loop, on the same lines.")

        @OptionGroup var input: StoryInput

        func run() async throws {
            let document = try input.load()
            let analysis = StoryAnalyzer().analyze(document)
            let catalog = await VoiceCatalog.load(from: Engines.available())
            let cast = CastableVoices.cast(analysis, voices: CastableVoices.automatic(catalog.voices), preference: .fastest)
            let utterances = NarrationPlanner().plan(text: document.text, analysis: analysis, cast: cast)

            // Reference: every line synthesized by its engine, one after another, nothing else.
            let clock = ContinuousClock()
            let direct = try await clock.measure {
                for utterance in utterances {
                    guard let voice = catalog.voice(id: utterance.voice.voice), let engine = catalog.engine(for: voice) else { continue }
                    _ = try await engine.synthesize(utterance.spokenText, voice: voice, settings: SpeechSettings(rate: utterance.voice.rate, pitch: utterance.voice.pitch))
                }
            }
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("storyvoice-bench-\(UUID.random().uuidString)")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: scratch) }
            let narrator = Narrator(catalog: catalog, cache: try SegmentCache(directory: scratch.appendingPathComponent("cache")))
            var result: NarrationResult?
            let narrated = try await clock.measure {
                result = try await narrator.narrate(document: document, analysis: analysis, cast: cast, to: scratch.appendingPathComponent("bench.wav"))
            }
            let audio = result?.durationSeconds ?? 0
            print("lines: \(utterances.count), audio: \(Format.duration(audio)), cores: \(ProcessInfo.processInfo.activeProcessorCount)")
            print(String(format: "direct engine loop (1 at a time): %.2f s  (%.1f× real time)", direct.seconds, audio / direct.seconds))
            print(String(format: "narrate, cache off (all cores):  %.2f s  (%.1f× real time)", narrated.seconds, audio / narrated.seconds))
            print(String(format: "ratio narrate / direct: %.2f (goal ≤ 1.10)", narrated.seconds / direct.seconds))
        }
    }

    struct Novel: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Narrate a whole novel with espeak-ng voices (cache off): wall time, × real time, peak memory.")

        @OptionGroup var input: StoryInput

        @Option(help: "Output format to encode to.")
        var format = "m4b"

        func run() async throws {
            let clock = ContinuousClock()
            let started = clock.now
            let document = try input.load()
            let analysis = StoryAnalyzer().analyze(document)
            let analyzed = clock.now - started
            let catalog = await VoiceCatalog.load(from: [EspeakEngine()])
            let cast = CastableVoices.cast(analysis, voices: CastableVoices.automatic(catalog.voices), preference: .fastest)
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("storyvoice-bench-\(UUID.random().uuidString)")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: scratch) }
            let narrator = Narrator(catalog: catalog, cache: try SegmentCache(directory: scratch.appendingPathComponent("cache")))
            let bar = ProgressBar()
            let result = try await narrator.narrate(document: document, analysis: analysis, cast: cast, to: scratch.appendingPathComponent("novel.\(format)")) { progress in
                bar.update(fraction: progress.fraction, label: progress.phase.rawValue, detail: "\(progress.completed)/\(progress.total)")
            }
            bar.finish()
            let wall = (clock.now - started).seconds
            print("text: \(document.text.unicodeScalars.count) characters, \(result.utterances) lines, analysis \(String(format: "%.2f", analyzed.seconds)) s")
            print("audio: \(Format.duration(result.durationSeconds)); wall: \(Format.duration(wall)); \(String(format: "%.1f", result.durationSeconds / wall))× real time")
            print("peak resident memory of storyvoice: \(Self.peakResidentMB()) MB (goal < 300 MB)")
        }

        static func peakResidentMB() -> Int {
            var usage = rusage()
            getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
            return Int(usage.ru_maxrss / 1024)  // kilobytes on Linux
        }
    }
}
