import Foundation
import Speech
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One long-lived `scripts/piper-worker.py` process with the voice model loaded, spoken to
/// over its standard input and output (protocol in the script's docstring).
///
/// Its I/O is blocking and runs on its own dispatch queue, never on Swift's cooperative
/// threads (two of them on a two-core machine: a blocked read there would stall everything).
/// A worker serves one request at a time; `PiperWorkerPool` guarantees that.
final class PiperWorker: @unchecked Sendable {
    // Mutable state is touched only on `queue`.
    private let queue: DispatchQueue
    private let process: Process
    private let input: FileHandle
    private let output: Int32
    private var buffer: [UInt8] = []
    let processID: Int32
    private(set) var sampleRate = 0

    struct Launch: Sendable {
        var python: String
        var script: String
        var voicePackage: String
        var threads: Int
    }

    /// Starts the worker and waits for its ready line (the model is loaded by then).
    static func start(_ launch: Launch) async throws -> PiperWorker {
        let queue = DispatchQueue(label: "storyvoice.piper-worker")
        return try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try PiperWorker(launch, queue: queue) })
            }
        }
    }

    private init(_ launch: Launch, queue: DispatchQueue) throws {
        self.queue = queue
        let started: PythonWorkerProcess
        do {
            started = try PythonWorkerProcess.start(
                executable: launch.python,
                arguments: [launch.script, "--voice-package", launch.voicePackage, "--threads", String(launch.threads)], label: "piper")
        } catch {
            throw SpeechError.engineFailed(engine: PiperEngine.id, status: "could not start the Piper worker", message: "\(error)")
        }
        let process = started.process
        let log = URL(fileURLWithPath: started.logPath)
        self.logPath = started.logPath
        self.process = process
        self.processID = process.processIdentifier
        self.input = started.input
        self.outputHandle = started.output
        self.output = started.output.fileDescriptor
        let ready: [String: Any]
        do {
            ready = try Self.decodeHeader(try readLine())
        } catch {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            let tail = errorTail()
            try? FileManager.default.removeItem(atPath: log.path)
            throw SpeechError.engineFailed(
                engine: PiperEngine.id, status: "the Piper worker did not start",
                message: "\(tail) Rerun scripts/setup to reinstall Piper into .venv.")
        }
        guard ready["ready"] as? Bool == true, let rate = ready["sample_rate"] as? Int else {
            throw SpeechError.engineFailed(engine: PiperEngine.id, status: "the worker did not start", message: "unexpected first line")
        }
        self.sampleRate = rate
    }

    private let outputHandle: FileHandle

    private let logPath: String

    deinit {
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(atPath: logPath)
    }

    /// The last lines the worker wrote to standard error (Python's traceback, if it crashed).
    func errorTail() -> String {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return "It printed nothing." }
        return "It printed: " + (trimmed.count <= 600 ? trimmed : "…" + trimmed.suffix(600))
    }

    /// Whether the process is still alive.
    var isRunning: Bool { process.isRunning }

    /// Synthesizes one request; returns mono 16-bit samples at `sampleRate`. A dead worker
    /// throws `PiperWorker.Failure.died`; a request the worker rejected throws `engineFailed`.
    func synthesize(_ request: PiperRequest) async throws -> [Int16] {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try self.exchange(request) })
            }
        }
    }

    /// Stops the process (SIGTERM) without waiting for it.
    func stop() {
        queue.async { [process] in
            if process.isRunning { process.terminate() }
        }
    }

    enum Failure: Error {
        /// The process ended or closed its pipes: restart it.
        case died(String)
    }

    private func exchange(_ request: PiperRequest) throws -> [Int16] {
        var line = try JSONEncoder().encode(request)
        line.append(UInt8(ascii: "\n"))
        try writeAll(line)
        let header = try Self.decodeHeader(try readLine())
        let count = header["bytes"] as? Int ?? 0
        let body = try readBytes(count: count)
        if let error = header["error"] as? String {
            throw SpeechError.engineFailed(engine: PiperEngine.id, status: "synthesis failed", message: error)
        }
        guard header["id"] as? Int == request.id else {
            throw Failure.died("answer to request \(header["id"] ?? "nil") while waiting for \(request.id)")
        }
        return body.withUnsafeBytes { raw in
            (0..<(count / 2)).map { Int16(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 2, as: Int16.self)) }
        }
    }

    private func writeAll(_ data: Data) throws {
        let descriptor = input.fileDescriptor
        try data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw Failure.died("writing the request: \(String(cString: strerror(errno)))")
                }
                offset += written
            }
        }
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress!, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { throw Failure.died("the worker (pid \(processID)) closed its output. \(errorTail())") }
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

    private static func decodeHeader(_ line: [UInt8]) throws -> [String: Any] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else {
            throw Failure.died("unreadable header: \(String(decoding: line.prefix(200), as: UTF8.self))")
        }
        return object
    }
}

/// One synthesis request as the worker reads it.
struct PiperRequest: Codable, Sendable {
    var id: Int
    var text: String
    var length_scale: Double?
    var noise_scale: Double?
    var noise_w: Double?
    var speaker: Int?
}
