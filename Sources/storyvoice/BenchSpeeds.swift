import ArgumentParser
import Foundation
import Narration
import Platform
import Speech
import StoryModel
import StoryText
import StoryWorkflows

extension Bench {
    /// The figures `RenderEstimate` (and so casting under a time budget) works from, measured:
    /// each local engine renders a story's lines in order, as many at once as narration runs
    /// (one per core, through the engine's own worker pool), until `--seconds` of speech.
    struct Speeds: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Each local engine's speed here on a story's lines (all cores, as narration runs them), beside the speed estimates assume.")

        @OptionGroup var input: StoryInput

        @Option(help: "Seconds of speech to render per engine.")
        var seconds: Double = 120

        @Option(help: "Engines to measure, comma-separated (default: every installed local engine).")
        var engines: String?

        func run() async throws {
            let document = try input.load()
            let analysis = StoryAnalyzer().analyze(document)
            // The lines narration would speak (long paragraphs cut as the planner cuts them), from
            // the story's second tenth on: past any front matter.
            let planned = NarrationPlanner().plan(text: document.text, analysis: analysis, cast: Cast(narrator: VoiceAssignment(voice: ""), characters: [:]))
            let lines = planned.dropFirst(planned.count / 10).map(\.spokenText)
            let catalog = await VoiceCatalog.load(from: Engines.local())
            let wanted = engines.map { Set($0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }) }
            let cores = ProcessInfo.processInfo.activeProcessorCount
            let assumed = RenderEstimate.casting(cores: cores).speeds
            print("cores: \(cores); load average: \((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?")")
            // The estimate reckons speech from text (15 characters a second): the last two columns
            // compare like with like, text rendered per second in those units.
            print("| engine | voice | lines | speech | wall | × real time (all cores) | text speed (÷ 15 chars/s) | estimate assumes |")
            print("|---|---|---|---|---|---|---|---|")
            for info in catalog.engines where info.installed && (wanted?.contains(info.id) ?? true) {
                guard let voice = catalog.voices.first(where: { $0.engine == info.id }), let engine = catalog.engine(for: voice) else { continue }
                // The worker starts (and loads its model) once per export: not part of the speed.
                _ = try await engine.synthesize("Ready.", voice: voice, settings: SpeechSettings())
                var chosen: [String] = [], expected = 0.0
                for line in lines where expected < seconds {
                    chosen.append(line)
                    expected += Double(line.unicodeScalars.count) / BudgetedCasting.charactersPerSecond
                }
                let clock = ContinuousClock()
                let started = clock.now
                let audio = try await withThrowingTaskGroup(of: Double.self) { group in
                    var next = 0, total = 0.0
                    func add() {
                        guard next < chosen.count else { return }
                        let text = chosen[next]
                        next += 1
                        group.addTask { try await engine.synthesize(text, voice: voice, settings: SpeechSettings()).durationSeconds }
                    }
                    for _ in 0..<cores { add() }
                    while let done = try await group.next() {
                        total += done
                        add()
                    }
                    return total
                }
                let wall = (clock.now - started).seconds
                print(String(format: "| %@ | %@ | %d | %.0f s | %.1f s | %.2f | %.2f | %.2f |", info.id, voice.id, chosen.count, audio, wall, audio / wall,
                             expected / wall, assumed[info.id] ?? .nan))
                await engine.releaseIdleResources()
            }
        }
    }
}
