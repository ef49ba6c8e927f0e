import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A narration killed while it encodes takes its encoder with it.
@Suite struct KilledNarrationTests {
    @Test func theEncoderDoesNotOutliveAKilledNarration() async throws {
        let scratch = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        // Hours of audio from one rendered line (identical lines render once), so the encode
        // is long: an orphaned encoder would run on for minutes after the kill.
        let story = scratch.appendingPathComponent("rain.txt")
        let paragraph = "The rain kept falling on the old tin roof of the house by the river, all night long.\n\n"
        try String(repeating: paragraph, count: 6000).write(to: story, atomically: true, encoding: .utf8)
        let output = scratch.appendingPathComponent("rain.m4b")

        let narration = Process()
        narration.executableURL = CLI.executable
        narration.arguments = ["narrate", story.path, "-o", output.path]
        narration.currentDirectoryURL = CLI.repositoryRoot
        var environment = ProcessInfo.processInfo.environment
        environment["STORYVOICE_CACHE_DIR"] = scratch.appendingPathComponent("cache").path
        environment["STORYVOICE_ENGINES"] = "espeak-ng"
        narration.environment = environment
        narration.standardInput = FileHandle.nullDevice
        narration.standardOutput = FileHandle.nullDevice
        narration.standardError = FileHandle.nullDevice
        try narration.run()
        defer { if narration.isRunning { kill(narration.processIdentifier, SIGKILL) } }

        let encoder = try #require(await waitFor(seconds: 600) {
            ProcessTable.children(of: narration.processIdentifier).first { $0.name == "ffmpeg" }?.pid
        }, "the narration never started its encoder")
        #expect(narration.isRunning, "the narration finished before it could be killed mid-encode")
        kill(narration.processIdentifier, SIGKILL)
        narration.waitUntilExit()

        let gone = await waitFor(seconds: 60) { ProcessTable.isAlive(encoder) ? nil : true }
        if gone == nil { kill(encoder, SIGKILL) }
        #expect(gone == true, "ffmpeg (pid \(encoder)) kept running after its narration was killed")
    }

    /// Polls `probe` until it answers, or gives up after `seconds`; never blocks the test pool.
    private func waitFor<T: Sendable>(seconds: Double, _ probe: @escaping @Sendable () -> T?) async -> T? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let value = probe() { return value }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return probe()
    }
}

/// Linux's process table, read from /proc.
enum ProcessTable {
    struct Entry {
        var pid: pid_t
        var name: String
        var parent: pid_t
        var state: Character
    }

    static func children(of parent: pid_t) -> [Entry] {
        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap { pid_t($0) } ?? []
        return pids.compactMap(entry).filter { $0.parent == parent }
    }

    /// Running or sleeping; a zombie has ended and only waits to be reaped.
    static func isAlive(_ pid: pid_t) -> Bool {
        guard let entry = entry(pid) else { return false }
        return entry.state != "Z" && entry.state != "X"
    }

    /// `/proc/PID/stat` is `pid (comm) state ppid ...`; comm may itself hold spaces and parentheses.
    static func entry(_ pid: pid_t) -> Entry? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { return nil }
        let name = String(stat[stat.index(after: open)..<close])
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 1, let state = fields[0].first, let parent = pid_t(fields[1]) else { return nil }
        return Entry(pid: pid, name: name, parent: parent, state: state)
    }
}
