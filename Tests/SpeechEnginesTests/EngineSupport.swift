import Audio
import Foundation
import ProcessWorkers
import Speech
import SpeechEngines
import StoryModel
import Testing

/// Facts about a synthesized clip, for assertions that do not depend on the exact waveform.
extension PCMAudio {
    /// Root-mean-square level relative to full scale.
    var rms: Double {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot() / 32768
    }
}

/// Which engines this machine has, so engine tests can say why they are skipped.
enum Installed {
    static let locator = ExecutableLocator()
    static let espeak = locator.locate("espeak-ng") != nil
    static let flite = locator.locate("flite") != nil
    static let festival = locator.locate("text2wave") != nil && locator.locate("festival") != nil
    static let piper = PiperEngine(configuration: piperConfiguration(poolSize: 1)).isInstalled

    /// This checkout: `.venv/` and `scripts/piper-worker.py` live at its root.
    static let projectDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func piperConfiguration(poolSize: Int) -> PiperEngine.Configuration {
        PiperEngine.Configuration(projectDirectory: projectDirectory, poolSize: poolSize)
    }
}

/// One Piper engine for the shared engine tests, so the model loads once per test run rather
/// than once per test (the engine is an actor-backed pool, safe to share).
enum SharedPiper {
    static let engine = PiperEngine(configuration: Installed.piperConfiguration(poolSize: 2))
}

/// The engines with one representative voice each.
enum EngineCase: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case espeak, flite, festival, piper

    var testDescription: String { rawValue }

    var isInstalled: Bool {
        switch self {
        case .espeak: Installed.espeak
        case .flite: Installed.flite
        case .festival: Installed.festival
        case .piper: Installed.piper
        }
    }

    var engine: any SpeechSynthesizer {
        switch self {
        case .espeak: EspeakEngine()
        case .flite: FliteEngine()
        case .festival: FestivalEngine()
        case .piper: SharedPiper.engine
        }
    }

    var voiceID: String {
        switch self {
        case .espeak: "espeak-ng:en-us+m3"
        case .flite: "flite:slt"
        case .festival: "festival:cmu_us_slt_arctic_hts"
        case .piper: "piper:en_US-joe-medium"
        }
    }

    func voice() async throws -> Voice? {
        try await engine.voices().first { $0.id == voiceID }
    }
}
