import Foundation
import Speech
import SpeechEngines
import StoryModel

/// How long rendering a story's lines not yet in the cache will take on this machine, for one
/// choice of voices: the spoken length of each line over its engine's speed here.
///
/// Speeds are text rendered per second (in seconds of speech at 15 characters a second) per
/// core, measured on this 2-core machine with `storyvoice bench speeds` on The Gambler's lines
/// while other builds ran (docs/voices.md): engines that run one process per line (or a worker
/// per core) use every core, Kokoro's single worker gains about 60 % per extra thread. An
/// estimate, said as one.
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
    /// Measured with the machine otherwise quiet (load average 1–5); other builds running
    /// alongside halve them (docs/voices.md).
    /// Below `slowBelow`, an engine cannot voice a book quickly: a time budget rations it.
    static let realTime: [String: Double] = [
        "espeak-ng": 299, "flite": 40, "festival": 12, PiperEngine.id: 11.8, HibariEngine.id: 59, KokoroEngine.id: 1.03,
    ]
    static let cloudRealTime = 5.0
    /// Engines slower than this on one core (Kokoro, about 1×: real time only with the machine
    /// to itself) are rationed by a time budget and never speak live.
    static let slowBelow = 2.0
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
            byEngine[Self.engine(of: line.voice.voice), default: 0] += 1
            guard !line.cached else { continue }
            audio += Self.speechSeconds(line)
            render += Self.renderSeconds(line, cores: cores)
        }
        audioSeconds = audio
        renderSeconds = render
        linesByEngine = byEngine
    }

    /// Seconds of speech in `line`, reckoned from its text.
    static func speechSeconds(_ line: PlannedUtterance) -> Double {
        Double(line.spokenText.unicodeScalars.count) / Self.charactersPerSecond / max(line.voice.rate, 0.25)
    }

    /// Seconds of wall time rendering `line` takes here.
    public static func renderSeconds(_ line: PlannedUtterance, cores: Int = ProcessInfo.processInfo.activeProcessorCount) -> Double {
        speechSeconds(line) / throughput(of: engine(of: line.voice.voice), cores: cores)
    }

    /// Seconds of speech rendered per second here by `engine` with `cores` cores.
    static func throughput(of engine: String, cores: Int) -> Double {
        let oneCore = realTime[engine] ?? cloudRealTime
        let cores = Double(max(1, cores))
        return oneCore * (singleWorker.contains(engine) ? 1 + 0.6 * (cores - 1) : cores)
    }

    /// Casting under a time budget with these speeds: the engines below `slowBelow` are the ones
    /// a budget rations.
    public static func casting(cores: Int = ProcessInfo.processInfo.activeProcessorCount) -> BudgetedCasting {
        BudgetedCasting(
            speeds: Dictionary(uniqueKeysWithValues: realTime.keys.map { ($0, throughput(of: $0, cores: cores)) }),
            defaultSpeed: throughput(of: "", cores: cores),
            slowEngines: Set(realTime.filter { $0.value < slowBelow }.keys))
    }

    /// "espeak-ng:en-gb+f3" → "espeak-ng".
    static func engine(of voice: String) -> String {
        String(voice.prefix { $0 != ":" })
    }
}
