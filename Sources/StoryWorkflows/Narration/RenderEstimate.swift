import Foundation
import SpeechEngines
import StoryModel

/// How long rendering a story's lines not yet in the cache will take on this machine, for one
/// choice of voices: the spoken length of each line over its engine's speed here.
///
/// Speeds are the × real time measured on one core of the 2-core reference machine (idle,
/// docs/voices.md); engines that run one process per line (or a worker per core) use every
/// core, Kokoro's single worker gains about 60 % per extra thread. An estimate, said as one.
public struct RenderEstimate: Sendable, Equatable {
    public var preference: CastingPreference
    public var lines: Int
    public var cachedLines: Int
    /// Seconds of speech in the lines still to render.
    public var audioSeconds: Double
    /// Seconds of wall time to render them.
    public var renderSeconds: Double
    /// Engine id → lines it speaks (every line of the story).
    public var linesByEngine: [String: Int]

    /// × real time on one core, by engine; cloud engines (network-bound) use `cloudRealTime`.
    /// Below 1, an engine is slower than real time: `CastableVoices` keeps it for "best".
    static let realTime: [String: Double] = [
        "espeak-ng": 284, "flite": 78, "festival": 22, PiperEngine.id: 4.4, KokoroEngine.id: 0.5,
    ]
    static let cloudRealTime = 5.0
    /// Engines that render with one worker whatever the cores (threads inside it).
    static let singleWorker: Set<String> = [KokoroEngine.id]
    /// Narration runs at about 15 characters of text a second (~175 words a minute).
    static let charactersPerSecond = 15.0

    public init(preference: CastingPreference, lines: [PlannedUtterance], cores: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.preference = preference
        self.lines = lines.count
        cachedLines = lines.filter(\.cached).count
        var audio = 0.0, render = 0.0, byEngine: [String: Int] = [:]
        for line in lines {
            let engine = Self.engine(of: line.voice.voice)
            byEngine[engine, default: 0] += 1
            guard !line.cached else { continue }
            let seconds = Double(line.spokenText.unicodeScalars.count) / Self.charactersPerSecond / max(line.voice.rate, 0.25)
            audio += seconds
            render += seconds / Self.throughput(of: engine, cores: cores)
        }
        audioSeconds = audio
        renderSeconds = render
        linesByEngine = byEngine
    }

    /// Seconds of speech rendered per second here by `engine` with `cores` cores.
    static func throughput(of engine: String, cores: Int) -> Double {
        let oneCore = realTime[engine] ?? cloudRealTime
        let cores = Double(max(1, cores))
        return oneCore * (singleWorker.contains(engine) ? 1 + 0.6 * (cores - 1) : cores)
    }

    /// "espeak-ng:en-gb+f3" → "espeak-ng".
    static func engine(of voice: String) -> String {
        String(voice.prefix { $0 != ":" })
    }
}
