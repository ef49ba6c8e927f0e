import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A long-lived child process that answers one JSON line with one JSON line, optionally
/// followed by a binary payload (the header's `"bytes": N`, then N raw bytes: Piper's audio).
/// Its first line must hold `"ready": true`. Piper, Whisper and the local language model all
/// speak this; their scripts' docstrings give each one's fields.
///
/// Blocking I/O runs on the worker's own dispatch queue, never on Swift's cooperative threads
/// (two of them on a two-core machine: a blocked read there would stall everything). A worker
/// serves one request at a time; its owner (a pool or an actor) guarantees that, and starts a
/// new worker when this one throws `Died`.
public final class JSONLinesWorker: @unchecked Sendable {
    /// The process ended, closed its pipes or said something unreadable: start another.
    public struct Died: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// An answer: the JSON header and the payload that followed it (empty without `bytes`).
    public struct Answer: @unchecked Sendable {
        public var header: [String: Any]
        public var payload: [UInt8]
    }

    // Mutable state is touched only on `queue`.
    private let queue: DispatchQueue
    private let process: ChildProcess
    private let input: FileHandle
    /// Kept alive for as long as the worker: its descriptor is read directly.
    private let outputHandle: FileHandle
    private let logPath: String
    private var buffer: [UInt8] = []
    public let processID: Int32
    /// The ready line's fields (Piper's `sample_rate`, say).
    public private(set) var ready: [String: Any] = [:]

    /// Starts `executable arguments` and waits for its ready line (its model is loaded by then).
    public static func start(
        executable: String, arguments: [String], label: String, environment: [String: String] = [:]
    ) async throws -> JSONLinesWorker {
        let queue = DispatchQueue(label: "storyvoice.\(label)-worker")
        return try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result {
                    try JSONLinesWorker(executable, arguments, label: label, environment: environment, queue: queue)
                })
            }
        }
    }

    private init(_ executable: String, _ arguments: [String], label: String, environment: [String: String], queue: DispatchQueue) throws {
        self.queue = queue
        let started = try WorkerProcess.start(executable: executable, arguments: arguments, label: label, environment: environment)
        process = started.process
        processID = started.process.processIdentifier
        input = started.input
        outputHandle = started.output
        logPath = started.logPath
        let first: [String: Any]
        do {
            first = try Self.decode(try readLine())
        } catch {
            Self.end(process, input: input, grace: .seconds(2))
            process.waitUntilExit()
            throw Died(message: "it did not start. \(errorTail())")
        }
        guard first["ready"] as? Bool == true else {
            Self.end(process, input: input, grace: .seconds(2))
            // A worker that knows why it cannot start says so in place of its ready line.
            if let reason = first["error"] as? String { throw Died(message: reason) }
            throw Died(message: "unexpected first line. \(errorTail())")
        }
        ready = first
    }

    deinit {
        Self.end(process, input: input, grace: .seconds(5))
        try? FileManager.default.removeItem(atPath: logPath)
    }

    public var isRunning: Bool { process.isRunning }

    /// Stops the process without waiting for it: its standard input is closed (every worker
    /// exits at the end of its input), then SIGTERM, then SIGKILL if it is still there after
    /// `grace`. SIGTERM alone is not enough: children started from a dispatch thread inherit
    /// that thread's blocked signals, SIGTERM among them.
    public func stop(grace: DispatchTimeInterval = .seconds(5)) {
        queue.async { [process, input] in Self.end(process, input: input, grace: grace) }
    }

    /// Kills the process now, not after the request in flight (`stop` waits its turn on the
    /// worker's queue): the blocked read then ends and `exchange` throws `Died`. For a request
    /// whose caller was cancelled: a long synthesis stops at once instead of running to its end.
    public func interrupt() {
        process.send(signal: SIGKILL)
    }

    private static func end(_ process: ChildProcess, input: FileHandle, grace: DispatchTimeInterval) {
        try? input.close()
        guard process.isRunning else { return }
        process.terminate()
        DispatchQueue.global().asyncAfter(deadline: .now() + grace) {
            process.send(signal: SIGKILL)
        }
    }

    /// Sends `request` as one line and reads the answer.
    public func exchange(_ request: [String: Any]) async throws -> Answer {
        try await exchange(line: try JSONSerialization.data(withJSONObject: request))
    }

    /// Sends `request` as one line with `payload` right after it (the line's `"bytes"` says how
    /// many), and reads the answer: audio handed over in memory, not through a file.
    public func exchange(_ request: [String: Any], payload: [UInt8]) async throws -> Answer {
        var header = request
        header["bytes"] = payload.count
        return try await exchange(line: try JSONSerialization.data(withJSONObject: header), payload: payload)
    }

    /// Sends `request` encoded as one JSON line and reads the answer.
    public func exchange<Request: Encodable>(encoding request: Request) async throws -> Answer {
        try await exchange(line: try JSONEncoder().encode(request))
    }

    private func exchange(line: Data, payload: [UInt8] = []) async throws -> Answer {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result {
                    try self.writeAll(line + Data("\n".utf8) + Data(payload))
                    let header = try Self.decode(try self.readLine())
                    let payload = try self.readBytes(count: max(0, header["bytes"] as? Int ?? 0))
                    return Answer(header: header, payload: payload)
                })
            }
        }
    }

    /// The last lines the worker wrote to standard error (Python's traceback, if it crashed).
    public func errorTail() -> String {
        let text = ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return "It printed nothing." }
        return "It printed: " + (text.count <= 600 ? text : "…" + text.suffix(600))
    }

    // MARK: Pipes

    private func writeAll(_ data: Data) throws {
        let descriptor = input.fileDescriptor
        try data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw Died(message: "writing the request: \(String(cString: strerror(errno))). \(errorTail())")
                }
                offset += written
            }
        }
    }

    /// Reads what the worker has written. A dead worker is noticed by its exit as well as by
    /// the end of its output: if the pipe's write end leaked into another process anyway, the
    /// end of output would never come.
    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var waiting = pollfd(fd: outputHandle.fileDescriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&waiting, 1, 250)
            if ready < 0, errno == EINTR { continue }
            if ready == 0 {
                if !process.isRunning, poll(&waiting, 1, 0) == 0 {
                    throw Died(message: "the worker (pid \(processID)) exited (\(process.exitDescription)). \(errorTail())")
                }
                continue
            }
            let count = chunk.withUnsafeMutableBytes { read(outputHandle.fileDescriptor, $0.baseAddress!, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { throw Died(message: "the worker (pid \(processID)) closed its output. \(errorTail())") }
            buffer.append(contentsOf: chunk[0..<count])
            return
        }
    }

    private func readLine() throws -> [UInt8] {
        var searched = 0
        while true {
            if let newline = buffer[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<newline])
                buffer.removeFirst(newline + 1)
                return line
            }
            searched = buffer.count
            try fill()
        }
    }

    private func readBytes(count: Int) throws -> [UInt8] {
        while buffer.count < count { try fill() }
        let bytes = Array(buffer[..<count])
        buffer.removeFirst(count)
        return bytes
    }

    private static func decode(_ line: [UInt8]) throws -> [String: Any] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else {
            throw Died(message: "unreadable line: \(String(decoding: line.prefix(200), as: UTF8.self))")
        }
        return object
    }
}
