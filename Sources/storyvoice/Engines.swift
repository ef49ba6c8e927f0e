import Foundation
import Speech
import SpeechEngines

/// The speech engines every command uses: the local ones, limited to those named in
/// `STORYVOICE_ENGINES` (comma-separated engine ids, e.g. `espeak-ng,flite`) when it is set.
enum Engines {
    static func available(environment: [String: String] = ProcessInfo.processInfo.environment) -> [any SpeechSynthesizer] {
        let engines = LocalEngines.all()
        guard let chosen = environment["STORYVOICE_ENGINES"].map(parse), !chosen.isEmpty else { return engines }
        return engines.filter { chosen.contains($0.engineID) }
    }

    private static func parse(_ list: String) -> Set<String> {
        Set(list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty })
    }
}
