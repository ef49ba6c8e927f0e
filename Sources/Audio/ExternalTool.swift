import Foundation
import ProcessWorkers
import Subprocess

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An ffmpeg-family executable: where it is, and how to run it keeping only what matters of its output.
package struct ExternalTool: Sendable {
    let name: String
    /// An explicit path, or nil to look `name` up on PATH when run.
    let explicitPath: String?

    package init(name: String, path: String? = nil) {
        self.name = name
        self.explicitPath = path
    }

    /// The executable's absolute path, or nil when it is not installed.
    package func resolvedPath() -> String? {
        if let explicitPath {
            return FileManager.default.isExecutableFile(atPath: explicitPath) ? explicitPath : nil
        }
        return Self.lookUp(name)
    }

    package func requirePath() throws(AudioError) -> String {
        guard let path = resolvedPath() else {
            throw AudioError.toolNotFound(tool: name, searched: explicitPath.map { "looked at \($0)" } ?? "looked on PATH")
        }
        return path
    }

    /// Runs the tool to completion, discarding stdout and keeping the last lines of stderr for errors.
    ///
    /// stderr is streamed rather than collected so a tool that prints an error per packet can
    /// neither exhaust memory nor overflow a collection limit.
    package func run(_ arguments: [String]) async throws {
        let path = try requirePath()
        let result = try await Subprocess.run(
            .path(.init(path)),
            arguments: Arguments(arguments),
            input: .none,
            output: .discarded,
            error: .sequence
        ) { execution in
            var tail = StderrTail()
            for try await buffer in execution.standardError {
                buffer.withUnsafeBytes { tail.append($0) }
            }
            return tail.lines
        }
        // Cancelling the task kills the tool; say so rather than report the kill as a failure.
        try Task.checkCancellation()
        guard result.terminationStatus.isSuccess else {
            throw AudioError.toolFailed(tool: name, status: Self.describe(result.terminationStatus), stderr: result.closureResult)
        }
    }

    /// Runs the tool with `feed` writing its standard input, which is closed when `feed` returns.
    ///
    /// A tool reading its input from a pipe sees end-of-file when this process ends, however it
    /// ends, so it cannot outlive us as an orphan. When `feed` fails the tool is killed and
    /// `feed`'s error reported; when the tool fails (a write then finds the pipe closed), the
    /// tool's own complaint is.
    package func run(_ arguments: [String], feeding feed: (StandardInputWriter) async throws -> Void) async throws {
        let path = try requirePath()
        // A tool that dies makes our next write fail with EPIPE; without this the signal would
        // end StoryVoice instead of reporting the tool's failure.
        signal(SIGPIPE, SIG_IGN)
        let result = try await Subprocess.run(
            .path(.init(path)),
            arguments: Arguments(arguments),
            input: .inputWriter,
            output: .discarded,
            error: .sequence
        ) { execution in
            let errors = execution.standardError
            async let stderr: [String] = {
                var tail = StderrTail()
                for try await buffer in errors {
                    buffer.withUnsafeBytes { tail.append($0) }
                }
                return tail.lines
            }()
            var failure: (any Error)?
            do {
                try await feed(execution.standardInputWriter)
            } catch {
                failure = error
                try? execution.send(signal: .kill)
            }
            try? await execution.standardInputWriter.finish()
            return (stderr: try await stderr, failure: failure)
        }
        try Task.checkCancellation()
        let (stderr, failure) = result.closureResult
        if let failure, result.terminationStatus == .signaled(Signal.kill.rawValue) { throw failure }
        guard result.terminationStatus.isSuccess else {
            throw AudioError.toolFailed(tool: name, status: Self.describe(result.terminationStatus), stderr: stderr)
        }
        if let failure { throw failure }
    }

    /// Runs the tool with its standard input fed the chunks `next` returns until it returns nil.
    package func run(_ arguments: [String], chunks next: () async throws -> [UInt8]?) async throws {
        try await run(arguments) { writer in
            while let chunk = try await next() {
                _ = try await writer.write(chunk)
            }
        }
    }

    /// Runs the tool and returns its stdout (at most `limit` bytes) as a string.
    func output(_ arguments: [String], limit: Int = 64 << 20) async throws -> String {
        String(decoding: try await outputBytes(arguments, limit: limit), as: UTF8.self)
    }

    /// Runs the tool and returns its stdout's bytes (at most `limit`).
    func outputBytes(_ arguments: [String], limit: Int) async throws -> [UInt8] {
        let path = try requirePath()
        let result = try await Subprocess.run(
            .path(.init(path)),
            arguments: Arguments(arguments),
            input: .none,
            output: .bytes(limit: limit),
            error: .string(limit: 1 << 20)
        )
        guard result.terminationStatus.isSuccess else {
            let lines = result.standardError.split(whereSeparator: \.isNewline).map(String.init)
            throw AudioError.toolFailed(tool: name, status: Self.describe(result.terminationStatus), stderr: Array(lines.suffix(StderrTail.capacity)))
        }
        return result.standardOutput
    }

    static func describe(_ status: TerminationStatus) -> String {
        switch status {
        case .exited(let code): "exit status \(code)"
        case .signaled(let signal): "killed by signal \(signal)"
        }
    }

    static func lookUp(_ name: String) -> String? {
        ExecutableLocator().locate(name)
    }
}

/// The last lines a tool wrote to stderr: the ones that say why it failed.
///
/// Keeps a bounded window of raw bytes rather than splitting lines as they arrive, so neither a
/// flood of output nor one enormous line can cost memory or fail the read.
struct StderrTail {
    static let capacity = 12
    private static let keptBytes = 8192
    private var bytes: [UInt8] = []

    mutating func append(_ chunk: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: chunk)
        if bytes.count > 2 * Self.keptBytes { bytes.removeFirst(bytes.count - Self.keptBytes) }
    }

    var lines: [String] {
        let text = String(decoding: bytes.suffix(Self.keptBytes), as: UTF8.self)
        let lines = text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        return Array(lines.suffix(Self.capacity))
    }
}
