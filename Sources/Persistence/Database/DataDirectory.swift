import Foundation
import StoryModel

/// The directory holding StoryVoice's SQLite database, secret key and content-addressed files.
///
/// `STORYVOICE_DATA_DIR` when set, otherwise `$XDG_DATA_HOME/storyvoice`, otherwise
/// `~/.local/share/storyvoice`.
public struct DataDirectory: Sendable, Hashable {
    public let url: URL

    public init(url: URL) {
        self.url = url
    }

    public static func resolve(environment: [String: String] = ProcessInfo.processInfo.environment) -> DataDirectory {
        if let explicit = environment["STORYVOICE_DATA_DIR"], !explicit.isEmpty {
            return DataDirectory(url: URL(fileURLWithPath: explicit, isDirectory: true))
        }
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            return DataDirectory(url: URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("storyvoice", isDirectory: true))
        }
        let home = environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return DataDirectory(url: home.appendingPathComponent(".local/share/storyvoice", isDirectory: true))
    }

    /// Creates the directory (owner-only) if it does not exist.
    /// Why files cannot be written here, or nil when a test file can be created and removed.
    public func writeProblem() -> String? {
        let probe = url.appendingPathComponent(".write-check-\(UUID.random().uuidString)")
        guard FileManager.default.createFile(atPath: probe.path, contents: Data("ok".utf8)) else {
            return "the data directory \(url.path) cannot be written; make it writable by the server's user"
        }
        try? FileManager.default.removeItem(at: probe)
        return nil
    }

    public func create() throws {
        try FileManager.default.createDirectory(
            at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]
        )
    }

    public var sqliteFile: URL { url.appendingPathComponent("storyvoice.sqlite") }
    public var secretKeyFile: URL { url.appendingPathComponent("secret.key") }
    public var filesDirectory: URL { url.appendingPathComponent("files", isDirectory: true) }
}
