import Foundation
import ObjectStorage
import Persistence
import Platform

/// Long stories' texts (over the inline limit) are content-addressed files under `files/` on
/// this machine, kept in the artifact store too: a server or worker on another machine fetches
/// the text on first use (issue 52). With the data directory as the store, both are one file.
public struct StoryTextFiles: Sendable {
    public let dataDirectory: DataDirectory
    public let artifacts: any ArtifactStore

    public init(dataDirectory: DataDirectory, artifacts: (any ArtifactStore)? = nil) {
        self.dataDirectory = dataDirectory
        self.artifacts = artifacts ?? DirectoryStore(root: dataDirectory.url)
    }

    static func key(_ path: String) -> String { "files/\(path)" }

    /// Writes the text here and keeps it in the store; its path (relative to `files/`) and hash.
    public func write(_ bytes: Data) async throws -> (path: String, sha256: String) {
        let content = ContentStore(dataDirectory: dataDirectory)
        let stored = try content.write(bytes, extension: "txt")
        if !artifacts.holds(content.root.appendingPathComponent(stored.path), as: Self.key(stored.path)) {
            try await artifacts.keep(bytes, as: Self.key(stored.path), contentType: "text/plain; charset=utf-8")
        }
        return stored
    }

    /// Brings the story's text file to this machine when another one wrote it, so the
    /// synchronous readers (`StoryRow.fullText`) find it. A copy that does not match the
    /// story's hash is refused rather than used.
    public func fetch(for story: StoryRow) async throws {
        guard story.text == nil, let path = story.textPath else { return }
        let local = ContentStore(dataDirectory: dataDirectory).root.appendingPathComponent(path)
        if FileManager.default.fileExists(atPath: local.path) { return }
        let bytes: Data
        do {
            bytes = try await artifacts.data(Self.key(path), limit: 256 << 20)
        } catch ArtifactError.notFound {
            throw ServiceError(.notFound, code: "text_missing", "The text of \"\(story.title)\" is missing from the server's store. Import the story again.")
        } catch {
            throw ServiceError(.unavailable, code: "store_unavailable",
                             "The text of \"\(story.title)\" is kept safe, but its store did not answer (\(error)). Try again in a minute.")
        }
        guard ContentStore.sha256Hex(bytes) == story.textSHA256 else {
            throw ServiceError(.unavailable, code: "text_mismatch", "The stored text of \"\(story.title)\" does not match what was imported. Import the story again.")
        }
        _ = try ContentStore(dataDirectory: dataDirectory).write(bytes, extension: "txt")
    }
}
