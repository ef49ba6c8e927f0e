import Foundation
import StoryModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A started worker process (Piper, faster-whisper, a local language model): its pipes and its
/// stderr log.
struct WorkerProcess {
    let process: ChildProcess
    let input: FileHandle
    /// Keep this handle alive for as long as the worker: its descriptor is read directly.
    let output: FileHandle
    let logPath: String

    /// Starts `executable arguments` (with unbuffered output, for Python workers). Python's complaints go to a
    /// log file (a pipe nobody drains could fill and block the worker); its tail explains a
    /// failed start or a crash. On failure (no descriptor left, say) the log is removed and
    /// the error thrown.
    static func start(executable: String, arguments: [String], label: String, environment extra: [String: String] = [:]) throws -> WorkerProcess {
        // A worker that dies makes our next write fail with EPIPE; without this the signal
        // would end StoryVoice instead of letting the caller restart the worker.
        signal(SIGPIPE, SIG_IGN)
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONUNBUFFERED"] = "1"
        environment.merge(extra) { _, new in new }
        let log = FileManager.default.temporaryDirectory.appendingPathComponent(WorkerLogs.name(label: label))
        do {
            let stdin = try ChildProcess.makePipe(), stdout = try ChildProcess.makePipe()
            let logDescriptor = open(log.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard logDescriptor >= 0 else {
                throw ChildProcess.Failure(description: "could not create \(log.path): \(String(cString: strerror(errno)))")
            }
            // The child has its own copies once started; ours of its ends would leak one per
            // worker and keep a dead worker's output pipe open.
            defer { close(logDescriptor) }
            let process = try ChildProcess.spawn(
                executable: executable, arguments: arguments, environment: environment,
                standardInput: stdin.read.fileDescriptor, standardOutput: stdout.write.fileDescriptor, standardError: logDescriptor)
            return WorkerProcess(process: process, input: stdin.write, output: stdout.read, logPath: log.path)
        } catch {
            try? FileManager.default.removeItem(atPath: log.path)
            throw error
        }
    }
}

/// Workers' standard error logs, in the temporary directory. A worker's owner removes its log
/// when the worker goes; a StoryVoice killed with SIGKILL (or a power cut) never does, so each
/// log is named after the process that started it (`storyvoice-piper-pid4242-<uuid>.log`) and
/// a server or worker that starts sweeps the logs of processes that are gone.
public enum WorkerLogs {
    static func name(label: String, owner: Int32 = getpid()) -> String {
        "storyvoice-\(label)-pid\(owner)-\(UUID.random().uuidString).log"
    }

    /// Whose log `name` is: `.process(pid)`, `.unnamed` for a log from before logs were named
    /// after their owner, nil for a file that is no worker's log.
    enum Owner: Equatable {
        case process(Int32)
        case unnamed
    }

    static func owner(ofLog name: String) -> Owner? {
        guard name.hasPrefix("storyvoice-"), name.hasSuffix(".log") else { return nil }
        let stem = name.dropFirst("storyvoice-".count).dropLast(".log".count)
        guard stem.count > 37, UUID(uuidString: String(stem.suffix(36))) != nil, stem.dropLast(36).hasSuffix("-") else { return nil }
        let rest = stem.dropLast(37)
        if let range = rest.range(of: "-pid", options: .backwards), let pid = Int32(rest[range.upperBound...]), pid > 0 {
            return .process(pid)
        }
        return rest.isEmpty ? nil : .unnamed
    }

    /// Removes the logs in `directory` whose process is gone, and unnamed ones last written more
    /// than `unnamedAge` seconds ago (their owner cannot be asked; a day is past any crash
    /// worth reading about). Returns the bytes freed.
    @discardableResult
    public static func sweep(in directory: URL = FileManager.default.temporaryDirectory, unnamedAge: TimeInterval = 86_400) -> Int64 {
        let keys: [URLResourceKey] = [.contentModificationDateKey, .fileSizeKey, .isRegularFileKey]
        guard let entries = try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys) else { return 0 }
        var freed: Int64 = 0
        for entry in entries {
            guard let owner = owner(ofLog: entry.lastPathComponent),
                  let values = try? entry.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else { continue }
            switch owner {
            case .process(let pid):
                guard !isRunning(pid) else { continue }
            case .unnamed:
                guard Date().timeIntervalSince(values.contentModificationDate ?? .distantPast) >= unnamedAge else { continue }
            }
            if (try? FileManager.default.removeItem(at: entry)) != nil { freed += Int64(values.fileSize ?? 0) }
        }
        return freed
    }

    /// Whether a process `pid` exists (one we may not signal exists too).
    static func isRunning(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }
}
