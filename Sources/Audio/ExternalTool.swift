import Foundation
import ProcessWorkers

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
    package func run(_ arguments: [String]) async throws {
        let result = try await ChildRun.run(try requirePath(), arguments, errorLimit: StderrTail.keptBytes)
        try requireSuccess(result)
    }

    /// Runs the tool with `feed` writing its standard input, which is closed when `feed` returns.
    ///
    /// A tool reading its input from a pipe sees end-of-file when this process ends, however it
    /// ends, so it cannot outlive us as an orphan. When `feed` fails the tool is killed and
    /// `feed`'s error reported; when the tool fails (it stops reading), its own complaint is.
    package func run(_ arguments: [String], feeding feed: (ChildRun.Input) async throws -> Void) async throws {
        let result = try await ChildRun.run(try requirePath(), arguments, input: feed, errorLimit: StderrTail.keptBytes)
        try requireSuccess(result)
    }

    /// Runs the tool with its standard input fed the chunks `next` returns until it returns nil.
    package func run(_ arguments: [String], chunks next: () async throws -> [UInt8]?) async throws {
        try await run(arguments) { input in
            while let chunk = try await next() {
                try await input.write(chunk)
            }
        }
    }

    /// Runs the tool and returns its stdout (at most `limit` bytes) as a string.
    func output(_ arguments: [String], limit: Int = 64 << 20) async throws -> String {
        String(decoding: try await outputBytes(arguments, limit: limit), as: UTF8.self)
    }

    /// Runs the tool and returns its stdout's bytes (at most `limit`).
    func outputBytes(_ arguments: [String], limit: Int) async throws -> [UInt8] {
        let result = try await ChildRun.run(try requirePath(), arguments, output: .collected(limit: limit), errorLimit: StderrTail.keptBytes)
        try requireSuccess(result)
        return result.output
    }

    private func requireSuccess(_ result: ChildRun.Result) throws {
        guard result.status.isSuccess else {
            throw AudioError.toolFailed(tool: name, status: result.status.description, stderr: StderrTail.lines(of: result.errorText))
        }
    }

    static func lookUp(_ name: String) -> String? {
        ExecutableLocator().locate(name)
    }
}

/// The last lines a tool wrote to stderr: the ones that say why it failed.
///
/// Only the end of its standard error is read back (`keptBytes`), so neither a flood of output
/// nor one enormous line can cost memory.
enum StderrTail {
    static let capacity = 12
    static let keptBytes = 8192

    /// The last `capacity` non-empty lines of `text`.
    static func lines(of text: String) -> [String] {
        let lines = text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        return Array(lines.suffix(capacity))
    }
}
