import Foundation
import Speech
import Synchronization

/// How fast each engine rendered whole books on this machine, as the latest exports found it,
/// and how fast the finished books were encoded. Speeds are seconds of speech (reckoned from
/// the text, `charactersPerSecond`, as estimates reckon it) per second of wall time with every
/// core at work, so an estimate multiplies straight through.
///
/// Estimates use these where they exist. The speeds they assume otherwise were measured once,
/// under another day's load; casting keeps to those (a cast must not move because the machine
/// was busy during the last export).
public struct MeasuredSpeeds: Sendable, Codable, Equatable {
    /// The key under which encoding is measured: seconds of finished audio per second.
    public static let encoding = "encoding"
    /// Speech per character as casting reckons it, so estimates and budgets agree.
    public static let charactersPerSecond = BudgetedCasting.charactersPerSecond
    /// Shorter work is mostly starting engines and says little about their speed.
    public static let minimumSeconds = 20.0

    /// Engine id (or `encoding`) → seconds of speech per second of wall time.
    public var speeds: [String: Double]

    public init(speeds: [String: Double] = [:]) {
        self.speeds = speeds
    }

    public subscript(key: String) -> Double? { speeds[key] }

    /// Adds one measurement: `speech` seconds rendered in `seconds` of wall time. The latest
    /// counts as much as all before it (the geometric mean of the two), because the machine's
    /// load changes and the last export is the best guide to the next. Work shorter than
    /// `minimumSeconds` is ignored.
    public mutating func record(_ key: String, speech: Double, seconds: Double, minimumSeconds: Double = Self.minimumSeconds) {
        guard seconds >= minimumSeconds, seconds > 0, speech > 0, speech.isFinite else { return }
        let measured = speech / seconds
        speeds[key] = speeds[key].map { ($0 * measured).squareRoot() } ?? measured
    }

    /// Seconds of speech in `text` spoken at `rate`, as estimates reckon it.
    public static func speechSeconds(_ text: String, rate: Double) -> Double {
        Double(text.unicodeScalars.count) / charactersPerSecond / max(rate, 0.25)
    }
}

/// `MeasuredSpeeds` kept in a small JSON file beside a machine's cache, read again for each
/// estimate (a job worker sharing the data directory may have measured since) and rewritten
/// after each measurement. A file that cannot be read or written only means estimates fall
/// back to the assumed speeds; it never stops a render.
public final class RenderSpeedLog: Sendable {
    public let file: URL
    /// Work shorter than this is not measured (tests shorten it).
    public let minimumSeconds: Double
    /// Serialises this process's updates (another process's may still interleave: the last
    /// write wins, which loses at most one measurement).
    private let writing = Mutex(())

    public init(file: URL, minimumSeconds: Double = MeasuredSpeeds.minimumSeconds) {
        self.file = file
        self.minimumSeconds = minimumSeconds
    }

    /// `render-speeds.json` in `directory`.
    public convenience init(directory: URL) {
        self.init(file: directory.appendingPathComponent("render-speeds.json"))
    }

    public var current: MeasuredSpeeds {
        (try? Data(contentsOf: file)).flatMap { try? JSONDecoder().decode(MeasuredSpeeds.self, from: $0) } ?? MeasuredSpeeds()
    }

    public func record(_ key: String, speech: Double, seconds: Double) {
        writing.withLock { _ in
            var speeds = current
            let before = speeds
            speeds.record(key, speech: speech, seconds: seconds, minimumSeconds: minimumSeconds)
            guard speeds != before, let data = try? JSONEncoder().encode(speeds) else { return }
            try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? data.write(to: file, options: .atomic)
        }
    }
}
