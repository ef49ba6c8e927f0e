import ArgumentParser
import Audio
import Foundation
import StoryWorkflows
import Narration
import Speech
import SpeechEngines
import StoryModel
import StoryText

struct Narrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Read a story aloud with a voice per character, to .m4b, .mp3 or .wav.",
        discussion: """
            Writes beside the audio: NAME.cast.json (the voices chosen; edit it and pass it back with \
            --cast), NAME.timing.json (when each line is spoken) and NAME.vtt (captions).
            """)

    @OptionGroup var input: StoryInput

    @Option(name: .shortAndLong, help: "The audio file to write; its extension picks the format (.m4b, .mp3, .wav).")
    var output: String

    @Option(help: "A cast file (as written by a previous run) whose voices override the automatic casting.")
    var cast: String?

    @Option(help: "Syntheses to run at once (default: one per core).")
    var jobs: Int?

    @Flag(help: "Render every line anew instead of reusing earlier renders.")
    var noCache = false

    @Option(help: "Where rendered lines are cached (default: ~/.cache/storyvoice/segments).")
    var cacheDir: String?

    @Flag(help: "Let casting choose cloud voices (OpenAI, ElevenLabs, Gemini) you have keys for; they are billed per character.")
    var cloudVoices = false

    @Option(help: ArgumentHelp(
        "Ask a language model to suggest each character's voice: openai:MODEL, anthropic:MODEL or gemini:MODEL.",
        discussion: "Keys from OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY. Voices from --cast win; a voice the model invents falls back to the automatic casting."))
    var castWithLlm: String?

    @Option(help: "A pronunciation lexicon: 'word = respelling' lines (phonemes for espeak-ng and Piper after '|': 'Framton = FRAM-tun | espeak-ng [[fr'amt@n]]') or a JSON object. Editing it re-renders only the lines it changes.")
    var lexicon: String?

    @Flag(help: "Transcribe every line with the local faster-whisper worker and re-synthesize, once, the lines it hears badly (needs scripts/setup).")
    var verify = false

    @Option(help: "The word error rate above which --verify re-synthesizes a line.")
    var verifyThreshold = 0.5

    func validate() throws {
        guard AudioFormat(fileExtension: URL(fileURLWithPath: output).pathExtension) != nil else {
            throw ValidationError("'\(output)': the output must end in .m4b, .m4a, .mp3, .opus or .wav.")
        }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1.") }
        if verifyThreshold < 0 { throw ValidationError("--verify-threshold must be at least 0.") }
    }

    func run() async throws {
        let outputURL = URL(fileURLWithPath: output).standardizedFileURL
        let directory = outputURL.deletingLastPathComponent()
        guard FileManager.default.fileExists(atPath: directory.path) else {
            throw ValidationError("The folder \(directory.path) does not exist.")
        }
        // A bad lexicon or a missing transcriber is reported before any work (or any file) is done.
        var pronunciation: PronunciationLexicon?
        if let lexicon {
            do {
                pronunciation = try PronunciationLexicon.load(contentsOf: URL(fileURLWithPath: lexicon))
            } catch let error as PronunciationLexicon.FileError {
                throw ValidationError(error.description)
            }
        }
        var transcriber: WhisperTranscriber?
        if verify {
            guard let configuration = WhisperTranscriber.Configuration.locate(), WhisperTranscriber(configuration: configuration).isInstalled else {
                throw ValidationError("--verify needs faster-whisper: \(WhisperTranscriber.installHint)")
            }
            transcriber = WhisperTranscriber(configuration: configuration)
        }
        let document = try input.load()
        let analysis = StoryAnalyzer().analyze(document)
        let catalog = await VoiceCatalog.load(from: Engines.available())
        guard !catalog.voices.isEmpty else { throw NarrationError.noVoices }

        var overrides = try cast.map { try CastFile.read(URL(fileURLWithPath: $0)) }
        // Paid voices are cast only when asked for; a cast file may still name them.
        let castable = CastableVoices.automatic(catalog.voices, includingPaid: cloudVoices)
        if let castWithLlm {
            overrides = try await LLMCasting(spec: castWithLlm).suggest(
                analysis: analysis, title: document.title, voices: castable, overrides: overrides,
                narrator: CastingDirector().cast(analysis, voices: castable).narrator)
        }
        let chosen = CastingDirector().cast(analysis, voices: castable, overrides: overrides)
        if let cost = CloudCost.of(chosen, analysis: analysis, text: document.text, catalog: catalog) {
            print(String(format: "This cast uses cloud voices: about $%.2f at list prices for this story.", cost))
        }
        let castURL = outputURL.deletingPathExtension().appendingPathExtension("cast.json")
        try CastFile.write(chosen, to: castURL)

        let cacheDirectory: URL
        var temporaryCache: URL?
        if noCache {
            cacheDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("storyvoice-nocache-\(UUID().uuidString)")
            temporaryCache = cacheDirectory
        } else {
            cacheDirectory = cacheDir.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? SegmentCache.defaultDirectory()
        }
        defer { if let temporaryCache { try? FileManager.default.removeItem(at: temporaryCache) } }

        var options = NarrationOptions()
        if let jobs { options.jobs = jobs }
        if let pronunciation { options.lexicon = pronunciation }
        if transcriber != nil {
            options.verify = true
            options.verifyThreshold = verifyThreshold
        }
        let speakers = analysis.characters.filter { $0.lines > 0 }.count
        print("\(document.title): \(analysis.chapters.count) chapter(s), \(speakers) speaking character(s); cast written to \(castURL.path)")

        let narrator = Narrator(catalog: catalog, cache: try SegmentCache(directory: cacheDirectory), transcriber: transcriber)
        let bar = ProgressBar()
        let started = ContinuousClock.now
        let result = try await narrator.narrate(document: document, analysis: analysis, cast: chosen, to: outputURL, options: options) { progress in
            let elapsed = (ContinuousClock.now - started).seconds
            switch progress.phase {
            case .synthesizing:
                let speed = elapsed > 0 ? progress.audioSeconds / elapsed : 0
                let remaining = progress.total - progress.completed
                let rate = progress.synthesized > 0 ? elapsed / Double(progress.synthesized) : .nan
                let eta = remaining == 0 ? "0:00" : Format.duration(rate * Double(remaining))
                bar.update(fraction: progress.fraction, label: "Rendering",
                           detail: "\(progress.completed)/\(progress.total) lines · \(Format.duration(progress.audioSeconds)) audio · \(String(format: "%.1f", speed))× real time · ETA \(eta)")
            case .assembling:
                bar.update(fraction: 1, label: "Assembling", detail: "\(Format.duration(progress.audioSeconds)) of audio", force: true)
            case .encoding:
                bar.update(fraction: 1, label: "Encoding", detail: outputURL.lastPathComponent, force: true)
            case .finished:
                bar.finish()
            }
        }
        let elapsed = (ContinuousClock.now - started).seconds
        print("Wrote \(result.output.path) (\(Format.duration(result.durationSeconds)), \(result.chapters.count) chapter(s)) in \(Format.duration(elapsed)): \(result.synthesized) line(s) synthesized, \(result.cacheHits) from cache.")
        print("Timing map: \(result.timingMap.path)")
        print("Captions:   \(result.captions.path)")
        if let report = result.verification {
            let d = report.distribution
            print(String(format: "Verification: %d line(s), WER mean %.2f, median %.2f, p90 %.2f; %.0f%% above %.2f; %d re-synthesized (%d improved), %.1f s of checking",
                         d.count, d.mean, d.median, d.p90, d.shareAbove * 100, report.threshold, report.retried, report.improved, report.seconds))
        }
    }
}

extension Duration {
    var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) / 1e18
    }
}

/// Reads and writes cast files: `{"narrator": {...}, "characters": {"c1": {...}}}`.
enum CastFile {
    static func read(_ url: URL) throws -> Cast {
        do {
            return try JSONDecoder().decode(Cast.self, from: Data(contentsOf: url))
        } catch let error as DecodingError {
            throw ValidationError("\(url.path) is not a valid cast file: \(error.localizedDescription). Start from the NAME.cast.json that narrate writes.")
        }
    }

    static func write(_ cast: Cast, to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(cast).write(to: url, options: .atomic)
    }
}
