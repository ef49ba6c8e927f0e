import CloudSpeech
import Foundation
import LanguageModels
import Speech
import SpeechEngines
import VendorHTTP

/// The speech engines every command uses: the local ones, and the cloud ones the environment
/// has keys for (`OPENAI_API_KEY`, `ELEVENLABS_API_KEY`, `GEMINI_API_KEY`), limited to those
/// named in `STORYVOICE_ENGINES` (comma-separated engine ids, e.g. `espeak-ng,flite`) when set.
public enum Engines {
    public static func available(environment: [String: String] = ProcessInfo.processInfo.environment) -> [any SpeechSynthesizer] {
        chosen(LocalEngines.all() + CloudEngines.configured(environment: environment), environment: environment)
    }

    /// The local engines only (the server adds each user's cloud engines from their own keys).
    public static func local(environment: [String: String] = ProcessInfo.processInfo.environment) -> [any SpeechSynthesizer] {
        chosen(LocalEngines.all(), environment: environment)
    }

    /// Cloud engines for keys from a user's Settings (provider id → key); endpoints from the
    /// `*_BASE_URL` variables, never keys from the environment.
    public static func cloud(keys: [String: String], environment: [String: String] = ProcessInfo.processInfo.environment) -> [any SpeechSynthesizer] {
        let secrets = Dictionary(uniqueKeysWithValues: keys.compactMap { name, key in CloudService(rawValue: name).map { ($0, Secret(key)) } })
        let endpoints = environment.filter { name, _ in name.hasSuffix("_BASE_URL") }
        return chosen(CloudEngines.configured(environment: endpoints, keys: secrets), environment: environment)
    }

    private static func chosen(_ engines: [any SpeechSynthesizer], environment: [String: String]) -> [any SpeechSynthesizer] {
        guard let chosen = environment["STORYVOICE_ENGINES"].map(parse), !chosen.isEmpty else { return engines }
        return engines.filter { chosen.contains($0.engineID) }
    }

    /// Whether an engine is a paid cloud service (used by casting only when asked).
    public static func isCloud(_ engineID: String) -> Bool {
        CloudService(rawValue: engineID) != nil
    }

    /// Whether a voice id (`engine:voice`) is a paid cloud service's.
    public static func isCloud(voice id: String) -> Bool {
        isCloud(RenderEstimate.engine(of: id))
    }

    private static func parse(_ list: String) -> Set<String> {
        Set(list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty })
    }
}
