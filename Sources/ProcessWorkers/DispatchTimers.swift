import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Arms Dispatch's timers once, while descriptors are still free.
///
/// On Linux, libdispatch opens its event loop (an epoll and an eventfd) and one timerfd per
/// clock the first time a timer on that clock is programmed (`Task.sleep`, `asyncAfter`), and
/// traps (SIGILL, no message, no backtrace) when no descriptor is left. A server whose
/// descriptors stalled connections had taken died that way the moment speech first slept.
/// Once opened, they are kept for the life of the process.
public enum DispatchTimers {
    /// Sleeps on every clock Swift and Dispatch schedule on (continuous, suspending, wall) until
    /// each has its timer descriptor. A deadline already past when Dispatch's manager thread
    /// gets to it fires without one (a 1 ms sleep did, on a loaded machine), so the sleeps
    /// lengthen until the descriptors are there. Call it first thing in a process.
    public static func arm() async {
        for milliseconds in [1, 20, 100, 500] {
            await sleepOnEveryClock(milliseconds: milliseconds)
            guard let clocks = timerClocks(ofProcess: getpid()) else { return }  // not Linux: nothing to check
            if dispatchClocks.isSubset(of: clocks) { return }
        }
    }

    /// The kernel clocks of Dispatch's timers: wall (CLOCK_REALTIME), suspending
    /// (CLOCK_MONOTONIC) and continuous (CLOCK_BOOTTIME).
    static let dispatchClocks: Set<Int> = [0, 1, 7]

    /// The clock ids of the timer descriptors `pid` has open, from Linux's /proc/PID/fdinfo;
    /// nil where there is no /proc.
    public static func timerClocks(ofProcess pid: Int32) -> Set<Int>? {
        let files = FileManager.default
        guard let descriptors = try? files.contentsOfDirectory(atPath: "/proc/\(pid)/fd") else { return nil }
        return Set(descriptors.compactMap { descriptor -> Int? in
            guard let target = try? files.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(descriptor)"),
                  target.contains("timerfd"),
                  let info = try? String(contentsOfFile: "/proc/\(pid)/fdinfo/\(descriptor)", encoding: .utf8),
                  let line = info.split(separator: "\n").first(where: { $0.hasPrefix("clockid:") })
            else { return nil }
            return Int(line.dropFirst("clockid:".count).trimmingCharacters(in: .whitespaces))
        })
    }

    private static func sleepOnEveryClock(milliseconds: Int) async {
        try? await Task.sleep(until: .now + .milliseconds(milliseconds), clock: .continuous)
        try? await Task.sleep(until: .now + .milliseconds(milliseconds), clock: .suspending)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().asyncAfter(wallDeadline: .now() + .milliseconds(milliseconds)) { continuation.resume() }
        }
    }
}
