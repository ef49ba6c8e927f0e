import Dispatch
import Foundation

/// Runs the `storyvoice` executable that `swift build --build-tests` put beside the tests.
struct CLI {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var executable: URL {
        if let explicit = ProcessInfo.processInfo.environment["STORYVOICE_BIN"] { return URL(fileURLWithPath: explicit) }
        return repositoryRoot.appendingPathComponent(".build/debug/storyvoice")
    }

    /// Runs the binary on a Dispatch thread: waiting for a process must never block the
    /// cooperative pool that every other test in this process shares.
    static func run(_ arguments: [String], cacheDirectory: URL? = nil, environment extra: [String: String] = [:]) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Swift.Result { try runBlocking(arguments, cacheDirectory: cacheDirectory, environment: extra) })
            }
        }
    }

    /// The longest one command may run before it is stopped: a hung command fails its test
    /// (coreutils `timeout` exits 124) instead of stalling the whole run.
    static let timeLimitSeconds = 900

    private static func runBlocking(_ arguments: [String], cacheDirectory: URL?, environment extra: [String: String]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["--kill-after=10", "\(timeLimitSeconds)", executable.path] + arguments
        process.currentDirectoryURL = repositoryRoot
        var environment = ProcessInfo.processInfo.environment
        if let cacheDirectory { environment["STORYVOICE_CACHE_DIR"] = cacheDirectory.path }
        environment.merge(extra) { _, new in new }
        process.environment = environment
        // stderr goes to a file, so a command that logs a lot can never block on a full pipe
        // while we are still reading its stdout.
        let errorLog = FileManager.default.temporaryDirectory.appendingPathComponent("storyvoice-cli-\(UUID().uuidString).stderr")
        _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorLog) }
        let errorHandle = try FileHandle(forWritingTo: errorLog)
        let out = Pipe()
        process.standardOutput = out
        process.standardError = errorHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try errorHandle.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errData = (try? Data(contentsOf: errorLog)) ?? Data()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }

    static func scratchDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("storyvoice-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
