import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One run of a short-lived child process (an engine's synthesis, ffmpeg) to its end: standard
/// input fed chunk by chunk or /dev/null, standard output collected or discarded, standard
/// error kept in an unnamed file whose end explains a failure.
///
/// Built on `ChildProcess`, not swift-subprocess: with every descriptor taken (stalled
/// connections did it to the server), swift-subprocess 1.0.2 trapped (a run's second stream
/// failing to open after its first) or waited forever (its pidfd failing to open, it waits for
/// a SIGCHLD it never watches for). Here each of those is an error thrown to the caller.
///
/// Blocking reads, writes and the wait run on Dispatch threads, never on Swift's cooperative
/// ones (two on a two-core machine). Cancelling the task kills the child and throws
/// `CancellationError`.
public enum ChildRun {
    public enum Output: Sendable {
        case discarded
        /// Collected, at most `limit` bytes: more kills the child and throws `OutputTooLong`.
        case collected(limit: Int)
    }

    public struct Result: Sendable {
        public var status: ChildProcess.Status
        public var output: [UInt8]
        /// The end of what it wrote to standard error (at most the `errorLimit` asked for).
        public var errorText: String
    }

    public struct OutputTooLong: Error, CustomStringConvertible {
        public var limit: Int
        public var description: String { "it wrote more than \(limit) bytes" }
    }

    /// Standard input being fed to a running child.
    public struct Input: Sendable {
        /// The child stopped reading (it ended, or closed its input).
        public struct Closed: Error, CustomStringConvertible {
            public var description: String { "the program stopped reading its input" }
        }

        fileprivate let handle: FileHandle

        /// Writes `bytes` whole, waiting while the child is behind.
        public func write(_ bytes: [UInt8]) async throws {
            let handle = handle
            guard try await Blocking.run({ writeAll(bytes, to: handle) }) else { throw Closed() }
        }
    }

    /// Runs `executable` with `arguments` and /dev/null for standard input.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
        output: Output = .discarded, errorLimit: Int = 64 * 1024
    ) async throws -> Result {
        try await run(executable, arguments, environment, feed: nil, output: output, errorLimit: errorLimit)
    }

    /// Runs `executable` with `arguments`, `feed` writing its standard input, which is closed
    /// when `feed` returns. If `feed` throws, the child is killed and the error rethrown; a
    /// child that stops reading (it failed) throws `Input.Closed` from `write`, and its status
    /// says why.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
        input feed: (Input) async throws -> Void, output: Output = .discarded, errorLimit: Int = 64 * 1024
    ) async throws -> Result {
        try await withoutActuallyEscaping(feed) { feed in
            try await run(executable, arguments, environment, feed: feed, output: output, errorLimit: errorLimit)
        }
    }

    private static func run(
        _ executable: String, _ arguments: [String], _ environment: [String: String],
        feed: ((Input) async throws -> Void)?, output: Output, errorLimit: Int
    ) async throws -> Result {
        // A child that dies makes our next write fail with EPIPE; without this the signal
        // would end StoryVoice instead of this run.
        signal(SIGPIPE, SIG_IGN)
        let null = try ChildProcess.openNull(), errors = try ChildProcess.unnamedFile()
        var inputPipe = try feed.map { _ in try ChildProcess.makePipe() }
        var outputPipe: (read: FileHandle, write: FileHandle)?
        if case .collected = output { outputPipe = try ChildProcess.makePipe() }
        let process = try ChildProcess.spawn(
            executable: executable, arguments: arguments, environment: environment,
            standardInput: inputPipe?.read.fileDescriptor ?? null.fileDescriptor,
            standardOutput: outputPipe?.write.fileDescriptor ?? null.fileDescriptor,
            standardError: errors.fileDescriptor)
        // The child has its own copies; ours of its ends would hide its end of output (and
        // keep a dead child's input open).
        try? inputPipe?.read.close()
        try? outputPipe?.write.close()
        let writer = inputPipe?.write, reader = outputPipe?.read
        inputPipe = nil
        outputPipe = nil

        return try await withTaskCancellationHandler {
            let limit = output.limit
            async let collected: [UInt8]? = {
                guard let reader else { return nil }
                return try await Blocking.run { try readAll(reader, limit: limit, killing: process) }
            }()
            var feedFailure: (any Error)?
            if let writer, let feed {
                do {
                    try await feed(Input(handle: writer))
                } catch {
                    feedFailure = error
                    // A child that stopped reading ends by itself, and its status says why.
                    if !(error is Input.Closed) { process.send(signal: SIGKILL) }
                }
                try? writer.close()
            }
            let bytes: [UInt8]?
            do {
                bytes = try await collected
            } catch {
                try? await Blocking.run { process.waitUntilExit() }
                throw error
            }
            let status = try await Blocking.run { () -> ChildProcess.Status in
                process.waitUntilExit()
                return process.status ?? .exited(-1)
            }
            // A cancelled run's child was killed: say so rather than report the kill as a failure.
            try Task.checkCancellation()
            if let feedFailure, status == .signaled(SIGKILL) || status.isSuccess { throw feedFailure }
            return Result(status: status, output: bytes ?? [], errorText: tail(of: errors, limit: errorLimit))
        } onCancel: {
            process.send(signal: SIGKILL)
        }
    }

    /// Reads to the end of output, killing the child if it writes more than `limit`.
    private static func readAll(_ handle: FileHandle, limit: Int, killing process: ChildProcess) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return bytes }
            guard bytes.count + count <= limit else {
                process.send(signal: SIGKILL)
                throw OutputTooLong(limit: limit)
            }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    /// Writes `chunk` whole; false when the child no longer reads (EPIPE).
    fileprivate static func writeAll(_ chunk: [UInt8], to handle: FileHandle) -> Bool {
        var offset = 0
        while offset < chunk.count {
            let count = chunk.withUnsafeBytes { write(handle.fileDescriptor, $0.baseAddress! + offset, $0.count - offset) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return false }
            offset += count
        }
        return true
    }

    /// The last `limit` bytes of `file`, as text.
    private static func tail(of file: FileHandle, limit: Int) -> String {
        let end = lseek(file.fileDescriptor, 0, SEEK_END)
        guard end > 0 else { return "" }
        let start = max(0, Int(end) - limit)
        var bytes = [UInt8](repeating: 0, count: Int(end) - start)
        let count = bytes.withUnsafeMutableBytes { pread(file.fileDescriptor, $0.baseAddress, $0.count, off_t(start)) }
        return String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self)
    }
}

extension ChildRun.Output {
    fileprivate var limit: Int {
        if case .collected(let limit) = self { return limit }
        return 0
    }
}

/// Blocking work on a Dispatch thread, awaited.
enum Blocking {
    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result(catching: work)) }
        }
    }
}
