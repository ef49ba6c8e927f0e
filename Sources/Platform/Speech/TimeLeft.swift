import Foundation

/// How long an export still has to go, said while it runs: the estimate made before it started
/// (`RenderEstimate`'s per-line figures), corrected by how fast the work done so far actually
/// went. Lines are counted in the order `Narrator` renders them, so the work done is the
/// estimate of the lines finished; the correction counts fully once a tenth of the work is done.
public struct TimeLeft: Sendable {
    /// Estimated seconds of each line still to render, in the order they are rendered.
    private let prefix: [Double]
    public var estimatedTotal: Double { prefix.last ?? 0 }

    public init(lineSeconds: [Double]) {
        var running = 0.0
        prefix = [0] + lineSeconds.map { running += $0; return running }
    }

    /// Seconds left after `finished` lines in `elapsed` seconds.
    public func seconds(finished: Int, elapsed: Double) -> Double {
        let total = estimatedTotal
        guard total > 0 else { return 0 }
        let done = prefix[min(max(finished, 0), prefix.count - 1)]
        let remaining = total - done
        guard done > 0, elapsed > 0 else { return max(remaining - elapsed, remaining * 0.1) }
        let weight = min(1, done / (0.1 * total))
        return remaining * ((1 - weight) + weight * elapsed / done)
    }

    /// Seconds left after `finished` lines, started at `start`.
    public func seconds(finished: Int, since start: ContinuousClock.Instant) -> Double {
        let (whole, fraction) = (ContinuousClock.now - start).components
        return seconds(finished: finished, elapsed: Double(whole) + Double(fraction) / 1e18)
    }

    /// "about 35 min left", "about 1 h 10 min left", "under a minute left".
    public static func said(_ seconds: Double) -> String {
        guard seconds >= 60 else { return "under a minute left" }
        let minutes = Int((seconds / 60).rounded())
        guard minutes >= 60 else { return "about \(minutes) min left" }
        return "about \(minutes / 60) h" + (minutes % 60 == 0 ? "" : " \(minutes % 60) min") + " left"
    }
}
