import ArgumentParser
import Audio
import Foundation
import Narration
import Platform
import Speech
import SpeechEngines
import StoryModel
import StoryText
import StoryWorkflows

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

    @Option(help: "Encoders to run at once on the finished book, each on a part cut at a pause (AAC and MP3; default: one per core, up to 4).")
    var encoders: Int?

    @Flag(help: "Render every line anew instead of reusing earlier renders.")
    var noCache = false

    @Option(help: "Where rendered lines are cached (default: ~/.cache/storyvoice/segments).")
    var cacheDir: String?

    @Flag(help: "Let casting choose cloud voices (OpenAI, ElevenLabs, Gemini) you have keys for; they are billed per character.")
    var cloudVoices = false

    @Option(help: ArgumentHelp(
        "How long you will wait for the book to render: fastest (at least ten times faster than it plays), hours:N (ready in about N hours) or best (the best voices for every role, however long). Every choice casts neural voices where there are some; the slow best ones (Kokoro) go to the roles that speak most, as far as the time allows.",
        valueName: "fastest|hours:N|best"))
    var voices: CastingPreference = .fastest

    @Flag(help: "Cast the story, print each engine's lines and how long rendering and encoding would take here (at the speeds of this machine's last exports, once it has made one), and stop before rendering.")
    var estimate = false

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
        var request = AudiobookNarration.Request(document: try input.load(), output: URL(fileURLWithPath: output).standardizedFileURL)
        request.castFile = try cast.map { try CastFile.read(URL(fileURLWithPath: $0)) }
        request.includePaidVoices = cloudVoices
        request.preference = voices
        if let jobs { request.options.jobs = jobs }
        if let encoders { request.options.encoders = max(1, encoders) }
        if let lexicon {
            // A bad lexicon or a missing transcriber is reported before any work (or any file) is done.
            do {
                request.options.lexicon = try PronunciationLexicon.load(contentsOf: URL(fileURLWithPath: lexicon))
            } catch let error as PronunciationLexicon.FileError {
                throw UserFacingError(error.description)
            }
        }
        if verify {
            guard let configuration = WhisperTranscriber.Configuration.locate(), WhisperTranscriber(configuration: configuration).isInstalled else {
                throw UserFacingError("--verify needs faster-whisper: \(WhisperTranscriber.installHint)")
            }
            request.transcriber = WhisperTranscriber(configuration: configuration)
            request.options.verify = true
            request.options.verifyThreshold = verifyThreshold
        }
        // Noted even without a cache: they are this machine's speeds, not this book's.
        request.speeds = RenderSpeedLog(directory: SegmentCache.cacheRoot())
        if !noCache { request.cacheDirectory = cacheDir.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? SegmentCache.defaultDirectory() }
        if let castWithLlm {
            let bar = ProgressBar(enabled: Terminal.isStandardErrorInteractive, stream: .standardError)
            request.modelCasting = ModelCasting(spec: castWithLlm, cacheDirectory: ModelOptions.cacheDirectory) { done, total, name in
                bar.update(fraction: Double(done) / Double(max(1, total)), label: "Voice suggestion", detail: name)
            }
        }

        let narration = AudiobookNarration(request)
        let plan = try await narration.prepare()
        if let summary = plan.modelSummary { FileHandle.standardError.write(Data("\(summary)\n".utf8)) }
        if let cost = plan.cloudCost {
            print(String(format: "This cast uses cloud voices: about $%.2f at list prices for this story.", cost))
        }
        print("\(request.document.title): \(plan.analysis.chapters.count) chapter(s), \(plan.speakingCharacters) speaking character(s); cast written to \(plan.castFile.path)")
        if estimate {
            print(Self.estimateSummary(plan, preference: voices, measured: request.speeds?.current ?? MeasuredSpeeds()))
            return
        }
        let bar = ProgressBar()
        let started = ContinuousClock.now
        let output = request.output
        let result = try await narration.render(plan) { progress in
            Self.show(progress, on: bar, since: started, output: output)
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

    /// Lines per engine (characters' and the narrator's), the story's length and the time the
    /// cast's engines and the encoder take here: as measured in this machine's last exports,
    /// else as casting under a time budget assumes.
    static func estimateSummary(_ plan: AudiobookNarration.Plan, preference: CastingPreference, measured: MeasuredSpeeds) -> String {
        let casting = RenderEstimate.casting(measured: measured)
        var lines: [String: (narrator: Int, characters: Int)] = [:]
        for segment in plan.analysis.segments {
            let voice = plan.cast.assignment(for: segment.speaker).voice
            let engine = String(voice.prefix { $0 != ":" })
            if segment.speaker.flatMap({ plan.cast.characters[$0] }) == nil { lines[engine, default: (0, 0)].narrator += 1 } else { lines[engine, default: (0, 0)].characters += 1 }
        }
        let audio = casting.audioSeconds(plan.analysis)
        let render = casting.renderSeconds(plan.cast, plan.analysis) + audio / RenderEstimate.encodingSpeed(measured)
        let source = measured.speeds.isEmpty ? "at the speeds assumed" : "at the speeds measured in earlier exports here"
        var out = "Voices \(preference): \(Format.duration(audio)) of speech, about \(Format.duration(render)) to render and encode here, \(source) (\(String(format: "%.1f", audio / max(render, 0.001)))× real time)"
        for (engine, count) in lines.sorted(by: { $0.key < $1.key }) {
            out += "\n  \(engine): \(count.characters) character line(s), \(count.narrator) narrator line(s)"
        }
        return out
    }

    private static func show(_ progress: NarrationProgress, on bar: ProgressBar, since started: ContinuousClock.Instant, output: URL) {
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
            bar.update(fraction: progress.fraction, label: "Encoding",
                       detail: "\(output.lastPathComponent) · \(progress.completed)/\(progress.total) lines", force: progress.completed == 0)
        case .finished:
            bar.finish()
        }
    }
}

extension Duration {
    var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) / 1e18
    }
}

extension CastingPreference: ExpressibleByArgument {}
