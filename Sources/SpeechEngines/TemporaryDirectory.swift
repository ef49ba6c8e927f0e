import Foundation
import StoryModel

/// A private scratch directory for one engine run, removed when the run ends.
///
/// Engines that only read text from a file or only write audio to one get a fresh directory
/// each, so parallel syntheses never share a path.
struct TemporaryDirectory: Sendable {
    let url: URL

    init(prefix: String) throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("storyvoice-\(prefix)-\(UUID.random().uuidString)", isDirectory: true)
        // Never an existing folder: a name made twice fails instead of sharing one.
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    }

    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    /// Runs `body` with a fresh directory and removes it afterwards, whatever happens.
    static func with<T: Sendable>(prefix: String, _ body: (TemporaryDirectory) async throws -> T) async throws -> T {
        let directory = try TemporaryDirectory(prefix: prefix)
        defer { directory.remove() }
        return try await body(directory)
    }
}
