import Foundation

/// A private scratch directory for one engine run, removed when the run ends.
///
/// Engines that only read text from a file or only write audio to one get a fresh directory
/// each, so parallel syntheses never share a path.
struct TemporaryDirectory: Sendable {
    let url: URL

    init(prefix: String) throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("storyvoice-\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
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
