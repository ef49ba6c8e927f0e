import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A started worker process (Piper, faster-whisper, a local language model): its pipes and its
/// stderr log.
struct WorkerProcess {
    let process: Process
    let input: FileHandle
    /// Keep this handle alive for as long as the worker: its descriptor is read directly.
    let output: FileHandle
    let logPath: String

    /// Starts `executable arguments` (with unbuffered output, for Python workers). Python's complaints go to a
    /// log file (a pipe nobody drains could fill and block the worker); its tail explains a
    /// failed start or a crash. On failure the log is removed and the error rethrown.
    static func start(executable: String, arguments: [String], label: String, environment extra: [String: String] = [:]) throws -> WorkerProcess {
        // A worker that dies makes our next write fail with EPIPE; without this the signal
        // would end StoryVoice instead of letting the caller restart the worker.
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONUNBUFFERED"] = "1"
        environment.merge(extra) { _, new in new }
        process.environment = environment
        let stdin = Pipe(), stdout = Pipe()
        // Close-on-exec on every end: a sibling worker spawned at the same moment by another
        // task must not inherit this worker's pipes (a leaked write end would keep our read
        // from ever seeing the end of a killed worker). The child's own ends are dup2'ed onto
        // its 0 and 1, which clears the flag there.
        for handle in [stdin.fileHandleForReading, stdin.fileHandleForWriting, stdout.fileHandleForReading, stdout.fileHandleForWriting] {
            _ = fcntl(handle.fileDescriptor, F_SETFD, FD_CLOEXEC)
        }
        process.standardInput = stdin
        process.standardOutput = stdout
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("storyvoice-\(label)-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let logHandle = FileHandle(forWritingAtPath: log.path)
        process.standardError = logHandle ?? FileHandle.nullDevice
        // The child has its own descriptor once launched; ours would leak one per worker.
        defer { try? logHandle?.close() }
        do {
            try process.run()
        } catch {
            try? FileManager.default.removeItem(atPath: log.path)
            throw error
        }
        return WorkerProcess(process: process, input: stdin.fileHandleForWriting, output: stdout.fileHandleForReading, logPath: log.path)
    }
}
