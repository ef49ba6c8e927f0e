import Audio
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
}

/// The engines with one representative voice each.
enum EngineCase: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case espeak, flite, festival

    var testDescription: String { rawValue }

    var isInstalled: Bool {
        switch self {
        case .espeak: Installed.espeak
        case .flite: Installed.flite
        case .festival: Installed.festival
        }
    }

    var engine: any SpeechSynthesizer {
        switch self {
        case .espeak: EspeakEngine()
        case .flite: FliteEngine()
        case .festival: FestivalEngine()
        }
    }

    var voiceID: String {
        switch self {
        case .espeak: "espeak-ng:en-us+m3"
        case .flite: "flite:slt"
        case .festival: "festival:cmu_us_slt_arctic_hts"
        }
    }

    func voice() async throws -> Voice? {
        try await engine.voices().first { $0.id == voiceID }
    }
}
