import Crypto
import Foundation

/// Files named by the SHA-256 of their contents under the data directory's `files/`:
/// writing the same bytes twice stores them once, and a path never changes meaning.
public struct ContentStore: Sendable {
    public let root: URL

    public init(root: URL) {
        self.root = root
    }

    public init(dataDirectory: DataDirectory) {
        self.init(root: dataDirectory.filesDirectory)
    }

    public static func sha256Hex(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    /// Writes `data` if not already present; returns its path relative to `root` and its hash.
    public func write(_ data: Data, extension ext: String) throws -> (path: String, sha256: String) {
        let hash = Self.sha256Hex(data)
        let relative = "\(hash.prefix(2))/\(hash).\(ext)"
        let url = root.appendingPathComponent(relative)
        if !FileManager.default.fileExists(atPath: url.path) {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url, options: .atomic)
        }
        return (relative, hash)
    }

    public func read(_ relativePath: String) throws -> Data {
        try Data(contentsOf: root.appendingPathComponent(relativePath))
    }
}
