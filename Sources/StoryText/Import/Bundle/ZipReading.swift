import Foundation
import StoryModel
import ZIPFoundation

/// Opens ZIP bytes (an EPUB, a story bundle) for reading.
///
/// Not through ZIPFoundation's in-memory archive: its reader computes a negative length when a
/// damaged entry points past the end of the data and traps, so one crafted upload stopped the
/// server (found by `ImporterFuzzTests`). The bytes go to a temporary file instead, read through
/// the C library's `FILE`, which answers a read past the end with no bytes; the file is
/// unlinked as soon as it is open, so nothing is left behind whatever happens next.
enum ZipReading {
    static func archive(_ data: Data) -> Archive? {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("storyvoice-zip-\(UUID.random().uuidString).zip")
        guard FileManager.default.createFile(atPath: file.path, contents: data, attributes: [.posixPermissions: 0o600]) else { return nil }
        defer { try? FileManager.default.removeItem(at: file) }
        return try? Archive(url: file, accessMode: .read, pathEncoding: nil)
    }
}
