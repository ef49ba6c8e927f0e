import Foundation

/// Files a killed narration leaves behind: the assembled book's WAV (`.NAME.EXT.<uuid>.wav`),
/// the encoder's unfinished output (`.NAME.<uuid>.partial.EXT`), a segment half written to the
/// cache (`.<key>.<uuid>.tmp`) and ffmpeg's chapter file in the temporary directory
/// (`storyvoice-<uuid>.ffmetadata`). A finished run removes its own; these are the ones a
/// `kill -9` or a power cut left, up to a gigabyte for a novel. Swept when work starts again.
public enum Leftovers {
    /// Removes leftovers in `directory` (not below it) last written more than `age` seconds
    /// ago; `only` limits the sweep to one output's (`NAME.EXT`). Returns the bytes freed.
    @discardableResult
    public static func sweep(in directory: URL, olderThan age: TimeInterval, only output: String? = nil) -> Int64 {
        let keys: [URLResourceKey] = [.contentModificationDateKey, .fileSizeKey, .isRegularFileKey]
        guard let entries = try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys) else { return 0 }
        var freed: Int64 = 0
        for entry in entries where isLeftover(entry.lastPathComponent, of: output) {
            guard let values = try? entry.resourceValues(forKeys: Set(keys)), values.isRegularFile == true,
                  Date().timeIntervalSince(values.contentModificationDate ?? .distantPast) >= age else { continue }
            if (try? FileManager.default.removeItem(at: entry)) != nil { freed += Int64(values.fileSize ?? 0) }
        }
        return freed
    }

    /// Sweeps a data directory's renders (each story's folder), the segment cache's folders
    /// and the temporary directory, for files older than `age`: what a server or worker does
    /// as it starts, when another process sharing the directory may be mid-render (its files
    /// are being written, so they are younger than `age`).
    @discardableResult
    public static func sweep(dataDirectory: URL, olderThan age: TimeInterval = 600) -> Int64 {
        var freed = sweep(in: FileManager.default.temporaryDirectory, olderThan: age)
        for parent in ["renders", "segments"] {
            let folder = dataDirectory.appendingPathComponent(parent, isDirectory: true)
            for child in (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [] {
                freed += sweep(in: child, olderThan: age)
            }
        }
        return freed
    }

    static func isLeftover(_ name: String, of output: String?) -> Bool {
        guard let uuid = name.firstMatch(of: /[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}/) else { return false }
        if name.hasPrefix("storyvoice-"), name.hasSuffix(".ffmetadata") { return output == nil }
        guard name.hasPrefix(".") else { return false }
        let stem = String(name[name.index(after: name.startIndex)..<uuid.range.lowerBound])
        let tail = name[uuid.range.upperBound...]
        let kind = tail == ".wav" || tail == ".tmp" || tail.hasPrefix(".partial.")
        guard kind else { return false }
        guard let output else { return true }
        let base = (output as NSString).deletingPathExtension
        return stem == "\(output)." || stem == "\(base)."
    }
}
