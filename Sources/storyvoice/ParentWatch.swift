import Foundation

/// `STORYVOICE_EXIT_WITH_STDIN=1`: the process exits when its standard input reaches its end.
/// Whoever started it (a test, a supervisor) keeps a pipe open to it, so it cannot outlive that
/// parent however the parent ends (a crashed or killed test process left servers rendering).
enum ParentWatch {
    static func startIfAsked(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard environment["STORYVOICE_EXIT_WITH_STDIN"] == "1" else { return }
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(STDIN_FILENO, &buffer, buffer.count)
                if count > 0 || (count < 0 && errno == EINTR) { continue }
                break
            }
            exit(0)
        }
        thread.name = "storyvoice.parent-watch"
        thread.start()
    }
}
