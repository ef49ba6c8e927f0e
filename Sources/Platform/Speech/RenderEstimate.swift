import Foundation
import Narration
import Speech
import SpeechEngines
import StoryModel

/// How long exporting a story will take on this machine, for one choice of voices: the spoken
/// length of each line not yet in the cache over its engine's speed here, and the whole book's
/// over the encoder's.
///
/// Speeds are text rendered per second (in seconds of speech at 15 characters a second). Where
/// this machine has exported before, they are what it measured then (`MeasuredSpeeds`); else
/// they are assumed per core, as measured on a 2-core machine with `storyvoice bench speeds` on
/// The Gambler's lines while other builds ran (docs/voices.md): engines that run one process per
/// line (or a worker per core) use every core, Kokoro's single worker gains about 60 % per extra
/// thread. Casting under a time budget keeps to the assumed speeds, so a cast does not move with
/// the machine's load. An estimate, said as one.
public struct RenderEstimate: Sendable, Equatable {
    public var preference: CastingPreference
    public var lines: Int
    public var cachedLines: Int
    /// Seconds of speech in the lines still to render.
    public var audioSeconds: Double
    /// Seconds of wall time to render them.
    public var renderSeconds: Double
    /// Seconds of wall time to encode the whole book afterwards.
    public var encodingSeconds: Double
    /// How long the export takes: rendering, then encoding.
    public var totalSeconds: Double { renderSeconds + encodingSeconds }
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
    /// Seconds of speech encoded per second (AAC, parts on every core), assumed until measured.
    static let encodingSpeed = 150.0
    /// Engines slower than this on one core (Kokoro, about 1×: real time only with the machine
    /// to itself) are rationed by a time budget and never speak live.
    static let slowBelow = 2.0
    /// Engines that render with one worker whatever the cores (threads inside it).
    static let singleWorker: Set<String> = [KokoroEngine.id]

    public init(
        preference: CastingPreference, lines: [PlannedUtterance], cores: Int = ProcessInfo.processInfo.activeProcessorCount,
        measured: MeasuredSpeeds = MeasuredSpeeds()
    ) {
        self.preference = preference
        self.lines = lines.count
        cachedLines = lines.filter(\.cached).count
        var audio = 0.0, render = 0.0, book = 0.0, byEngine: [String: Int] = [:]
        for line in lines {
            byEngine[Self.engine(of: line.voice.voice), default: 0] += 1
            book += Self.speechSeconds(line)
            guard !line.cached else { continue }
            audio += Self.speechSeconds(line)
            render += Self.renderSeconds(line, cores: cores, measured: measured)
        }
        audioSeconds = audio
        renderSeconds = render
        encodingSeconds = book / Self.encodingSpeed(measured)
        linesByEngine = byEngine
    }

    /// Seconds of speech encoded per second here.
    public static func encodingSpeed(_ measured: MeasuredSpeeds) -> Double {
        measured[MeasuredSpeeds.encoding] ?? encodingSpeed
    }

    /// Seconds of speech in `line`, reckoned from its text.
    static func speechSeconds(_ line: PlannedUtterance) -> Double {
        MeasuredSpeeds.speechSeconds(line.spokenText, rate: line.voice.rate)
    }

    /// Seconds of wall time rendering `line` takes here.
    public static func renderSeconds(
        _ line: PlannedUtterance, cores: Int = ProcessInfo.processInfo.activeProcessorCount, measured: MeasuredSpeeds = MeasuredSpeeds()
    ) -> Double {
        speechSeconds(line) / throughput(of: engine(of: line.voice.voice), cores: cores, measured: measured)
    }

    /// Seconds of speech rendered per second here by `engine` with `cores` cores: as measured on
    /// this machine, else as assumed.
    static func throughput(of engine: String, cores: Int, measured: MeasuredSpeeds = MeasuredSpeeds()) -> Double {
        if let speed = measured[engine] { return speed }
        let oneCore = realTime[engine] ?? cloudRealTime
        let cores = Double(max(1, cores))
        return oneCore * (singleWorker.contains(engine) ? 1 + 0.6 * (cores - 1) : cores)
    }

    /// Casting under a time budget with the assumed speeds: the engines below `slowBelow` are the
    /// ones a budget rations. With `measured`, for estimating a cast, not making one.
    public static func casting(
        cores: Int = ProcessInfo.processInfo.activeProcessorCount, measured: MeasuredSpeeds = MeasuredSpeeds()
    ) -> BudgetedCasting {
        BudgetedCasting(
            speeds: Dictionary(uniqueKeysWithValues: Set(realTime.keys).union(measured.speeds.keys).subtracting([MeasuredSpeeds.encoding])
                .map { ($0, throughput(of: $0, cores: cores, measured: measured)) }),
            defaultSpeed: throughput(of: "", cores: cores),
            slowEngines: Set(realTime.filter { $0.value < slowBelow }.keys))
    }

    /// "espeak-ng:en-gb+f3" → "espeak-ng".
    static func engine(of voice: String) -> String {
        String(voice.prefix { $0 != ":" })
    }
}
