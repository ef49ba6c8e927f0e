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

    private static func runBlocking(_ arguments: [String], cacheDirectory: URL?, environment extra: [String: String]) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = repositoryRoot
        var environment = ProcessInfo.processInfo.environment
        if let cacheDirectory { environment["STORYVOICE_CACHE_DIR"] = cacheDirectory.path }
        environment.merge(extra) { _, new in new }
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes before waiting so a chatty process cannot block on a full pipe.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }

    static func scratchDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("storyvoice-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
