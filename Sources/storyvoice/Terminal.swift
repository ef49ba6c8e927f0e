import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum Terminal {
    static var isInteractive: Bool { isatty(STDOUT_FILENO) == 1 }
    static var isStandardErrorInteractive: Bool { isatty(STDERR_FILENO) == 1 }

    static var width: Int {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 20 { return Int(size.ws_col) }
        return 80
    }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    }
}

/// A one-line progress bar redrawn in place; silent when stdout is not a terminal.
final class ProgressBar: Sendable {
    private struct State {
        var lastDraw: ContinuousClock.Instant?
        var drawn = false
    }

    private let enabled: Bool
    private let stream: FileHandle
    private let state = Mutex(State())

    init(enabled: Bool = Terminal.isInteractive, stream: FileHandle = .standardOutput) {
        self.enabled = enabled
        self.stream = stream
    }

    /// Redraws at most ten times a second unless `force`.
    func update(fraction: Double, label: String, detail: String, force: Bool = false) {
        guard enabled else { return }
        let now = ContinuousClock.now
        let shouldDraw = state.withLock { state -> Bool in
            if !force, let last = state.lastDraw, now - last < .milliseconds(100) { return false }
            state.lastDraw = now
            state.drawn = true
            return true
        }
        guard shouldDraw else { return }
        let barWidth = max(10, min(30, Terminal.width - detail.count - label.count - 12))
        let filled = Int((Double(barWidth) * min(1, max(0, fraction))).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled)
        var line = "\(label) \(bar) \(Int(fraction * 100))%  \(detail)"
        if line.count > Terminal.width - 1 { line = String(line.prefix(Terminal.width - 1)) }
        stream.write(Data("\r\u{1B}[2K\(line)".utf8))
    }

    func finish() {
        guard enabled, state.withLock({ $0.drawn }) else { return }
        stream.write(Data("\n".utf8))
    }
}

enum Format {
    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "--:--" }
        let total = Int(seconds.rounded())
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
        return h > 0 ? String(format: "%d:%02d:%02d", h, m, s) : String(format: "%d:%02d", m, s)
    }
}
