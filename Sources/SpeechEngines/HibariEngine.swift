import Audio
import Foundation
import ProcessWorkers
import Speech
import StoryModel

/// hibari, a small local neural voice (an int8 ONNX model distilled from Kokoro-82M's American
/// `af_heart`, with its own grapheme-to-phoneme rules), installed into the project's `.venv/` by
/// `scripts/setup` from `requirements-hibari.txt`. About 15 times faster than Piper here and
/// about 280 MB per worker, so it can voice whole books.
///
/// Its model predicts a spectral envelope and an F0 curve per frame and hibari's own vocoder
/// makes the waveform, so `scripts/hibari-worker.py` moves pitch by scaling F0 (the formants
/// stay) and timbre by stretching the envelope along frequency: the catalogue's voices are the
/// one voice moved within the range measured to stay intelligible and to keep its pitch
/// contour (docs/voices.md). They share one speaker family, so casting keeps them 3 semitones
/// apart when they meet. There is no male voice: moving this one down past about −5 semitones
/// doubled its measured pitch range (the envelope still holds the original harmonics).
public final class HibariEngine: SpeechSynthesizer, PooledWorkerEngine {
    public static let id = "hibari"
    public nonisolated let engineID = HibariEngine.id
    public static let installHint = "Install it with scripts/setup (it installs hibari-tts into .venv/; needs python3)."
    /// The voice inside the wheel; hibari's other voices download at run time and are not used.
    static let modelVoice = "heart"

    /// Where the workers and their Python live, and how many are kept alive.
    public typealias Configuration = PooledWorkerConfiguration<HibariEngine>
    public static let workerScriptPath = "scripts/hibari-worker.py"
    /// Each worker: ≈ 190 MB loaded, ≈ 280 MB at work.
    public static let bytesPerWorker: UInt64 = 320 << 20

    /// A voice made from the model: its own, or moved in pitch, formants and tempo.
    struct Variant: Sendable {
        var name: String
        var display: String
        var semitones: Double
        var formant: Double
        var tempo: Double
        var age: AgeRange
        /// Measured median F0 against the 180 Hz female reference, in semitones.
        var pitch: Double
        var style: [String]
    }

    /// Measured with `bench/hibari-voices.py` (docs/voices.md): each passes Whisper WER ≤ 0.10 on
    /// both benchmark paragraphs, and neighbours are at least 3 semitones apart.
    static let variants: [Variant] = [
        Variant(name: "heart", display: "Hibari Heart", semitones: 0, formant: 1, tempo: 1, age: .adult, pitch: 1.2,
                style: ["warm", "clear"]),
        Variant(name: "heart-low", display: "Hibari Heart (low)", semitones: -5, formant: 0.9, tempo: 0.95, age: .adult, pitch: -3.4,
                style: ["low", "calm"]),
        Variant(name: "heart-bright", display: "Hibari Heart (bright)", semitones: 3.5, formant: 1.06, tempo: 1.04, age: .adult, pitch: 4.8,
                style: ["bright", "lively"]),
        Variant(name: "heart-young", display: "Hibari Heart (young)", semitones: 7.5, formant: 1.05, tempo: 1.04, age: .teen, pitch: 8.0,
                style: ["light", "young"]),
    ]
    /// Pitch moves beyond these (variant and casting together) leave the range measured to sound
    /// right; each voice tells casting how much of it is left (`Voice.pitchShifts`).
    static let semitoneLimits = -6.0...9.0

    public let configuration: Configuration?
    private let pool: SpeechWorkerPool?

    /// `configuration` nil (no project found) makes the engine report itself not installed.
    public init(configuration: Configuration? = Configuration.locate(), idleLifetime: Duration = .seconds(120)) {
        self.configuration = configuration
        self.pool = configuration.map { configuration in
            let cores = ProcessInfo.processInfo.activeProcessorCount
            return SpeechWorkerPool(
                launch: SpeechWorker.Launch(
                    engine: Self.id, name: "hibari", python: configuration.python, script: configuration.workerScript,
                    arguments: ["--threads", String(max(1, cores / configuration.poolSize))]),
                size: configuration.poolSize, idleLifetime: idleLifetime)
        }
    }

    public var isInstalled: Bool { installedVersion() != nil }

    public func info() async -> EngineInfo {
        let version = installedVersion()
        return EngineInfo(
            id: engineID, name: "hibari (neural, Kokoro heart distilled)", version: version.map { "\($0) \(Self.modelVoice)" },
            installed: version != nil, installHint: Self.installHint)
    }

    public func voices() async throws -> [Voice] {
        isInstalled ? Self.catalogue : []
    }

    public static var catalogue: [Voice] {
        variants.map { variant in
            Voice(
                id: "\(id):\(variant.name)", engine: id, engineVoice: variant.name, displayName: variant.display, gender: .female,
                age: variant.age, accent: "en-US", pitch: variant.pitch, quality: VoiceQuality.neural.rawValue, style: variant.style,
                speaker: "hibari:\(modelVoice)",
                pitchShifts: (semitoneLimits.lowerBound - variant.semitones)...(semitoneLimits.upperBound - variant.semitones))
        }
    }

    public func synthesize(_ text: String, voice: Voice, settings: SpeechSettings) async throws -> PCMAudio {
        guard let pool, isInstalled else {
            throw SpeechError.engineNotInstalled(engine: engineID, hint: Self.installHint)
        }
        guard voice.engine == engineID, let variant = Self.variants.first(where: { $0.name == voice.engineVoice }) else {
            throw SpeechError.unknownVoice(voice.id)
        }
        // Pitch is the model's own F0 moved, so no resampling (pitch factor 1) and the tempo stays.
        let semitones = (settings.pitch + variant.semitones).clamped(to: Self.semitoneLimits)
        let speed = (settings.rate * variant.tempo).clamped(to: 0.5...2)
        let request = HibariRequest(id: 0, text: text, speed: speed, pitch: semitones, formant: variant.formant, seed: 0)
        return try await pool.speech(request, text: text, pitchFactor: 1, volume: settings.volume)
    }

    /// Process ids of the pool's workers (idle, busy): for diagnostics and tests.
    public func workerProcessIDs() async -> (idle: [Int32], busy: [Int32]) {
        await pool?.processIDs() ?? ([], [])
    }

    /// Stops idle workers; they start again on the next synthesis.
    public func shutdown() async {
        await pool?.shutdown()
    }

    public func releaseIdleResources() async {
        await shutdown()
    }

    /// hibari-tts's version when `.venv` holds it with its bundled voice, else nil.
    private func installedVersion() -> String? {
        guard let configuration,
              FileManager.default.isExecutableFile(atPath: configuration.python),
              FileManager.default.fileExists(atPath: configuration.workerScript)
        else { return nil }
        for sitePackages in SitePackages.directories(python: configuration.python) {
            let model = sitePackages.appendingPathComponent("hibari/assets/hibari.onnx").path
            guard FileManager.default.fileExists(atPath: model), let version = SitePackages.version(of: "hibari_tts", in: sitePackages) else { continue }
            return version
        }
        return nil
    }
}
