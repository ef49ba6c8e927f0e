import Foundation
import StoryModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file written under a hidden partial name beside its destination and renamed into place
/// only when complete: a failure or cancellation leaves nothing half-written, and a reader
/// never sees a file being written.
package enum PartialFile {
    /// Checks `output`'s folder, lets `write` fill a partial file there (`.NAME.<uuid>.partial.EXT`),
    /// and renames it into place on success; on failure or cancellation the partial file is removed.
    package static func write<Result>(_ output: URL, _ write: (_ partial: URL) async throws -> Result) async throws -> Result {
        let directory = output.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw AudioError.outputDirectoryMissing(directory)
        }
        let partial = sibling(of: output, kind: "partial", extension: output.pathExtension)
        do {
            let result = try await write(partial)
            try Task.checkCancellation()
            // rename(2) replaces an existing file atomically; FileManager.moveItem refuses to.
            guard rename(partial.path, output.path) == 0 else {
                throw AudioError.io(output, String(cString: strerror(errno)))
            }
            return result
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
    }

    /// A hidden scratch file beside `output` (`.NAME.<uuid>.KIND.EXT`), named so that a sweep of
    /// what a killed run left finds it by `output`'s name.
    package static func sibling(of output: URL, kind: String, extension pathExtension: String) -> URL {
        output.deletingLastPathComponent()
            .appendingPathComponent(".\(output.deletingPathExtension().lastPathComponent).\(UUID.random().uuidString).\(kind).\(pathExtension)")
    }
}
