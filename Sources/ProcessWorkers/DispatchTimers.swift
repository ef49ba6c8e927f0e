import Dispatch

/// Arms Dispatch's timers once, while descriptors are still free.
///
/// On Linux, libdispatch opens its event loop (an epoll and an eventfd) and one timerfd per
/// clock the first time a timer on that clock is used (`Task.sleep`, `asyncAfter`), and traps
/// (SIGILL, no message, no backtrace) when no descriptor is left. A server whose descriptors
/// stalled connections had taken died that way the moment speech first slept. Once opened,
/// they are kept for the life of the process.
public enum DispatchTimers {
    /// Sleeps briefly on every clock Swift and Dispatch schedule on: continuous, suspending and
    /// the wall clock. Call it first thing in a long-running process.
    public static func arm() async {
        try? await Task.sleep(until: .now + .milliseconds(1), clock: .continuous)
        try? await Task.sleep(until: .now + .milliseconds(1), clock: .suspending)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().asyncAfter(wallDeadline: .now() + .milliseconds(1)) { continuation.resume() }
        }
    }
}
