import CloudSpeech
import Foundation
import Speech
import SpeechEngines

/// The speech engines every command uses: the local ones, and the cloud ones the environment
/// has keys for (`OPENAI_API_KEY`, `ELEVENLABS_API_KEY`, `GEMINI_API_KEY`), limited to those
/// named in `STORYVOICE_ENGINES` (comma-separated engine ids, e.g. `espeak-ng,flite`) when set.
enum Engines {
    static func available(environment: [String: String] = ProcessInfo.processInfo.environment) -> [any SpeechSynthesizer] {
        let engines = LocalEngines.all() + CloudEngines.configured(environment: environment)
        guard let chosen = environment["STORYVOICE_ENGINES"].map(parse), !chosen.isEmpty else { return engines }
        return engines.filter { chosen.contains($0.engineID) }
    }

    /// Whether an engine is a paid cloud service (used by casting only when asked).
    static func isCloud(_ engineID: String) -> Bool {
        CloudService(rawValue: engineID) != nil
    }

    private static func parse(_ list: String) -> Set<String> {
        Set(list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty })
    }
}
