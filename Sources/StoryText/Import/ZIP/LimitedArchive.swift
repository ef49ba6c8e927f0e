import Foundation
import ZIPFoundation

/// A ZIP archive (an EPUB, a story bundle) read under the import limits. Declared sizes are checked for the whole
/// archive before anything is extracted, and real output is counted while extracting, because a
/// crafted archive can declare small sizes and still inflate to gigabytes.
struct LimitedArchive {
    let name: String
    private let archive: Archive
    private let limits: ImportLimits
    private let entries: [String: Entry]
    private let entriesByLowercasedPath: [String: Entry]
    private var extractedBytes = 0
    /// The error for an entry that cannot be extracted (bad CRC, truncated, unknown method).
    private let damaged: @Sendable (_ path: String) -> ImportError

    /// Entries smaller than this are not held to the ratio limit: they cannot exhaust memory, and
    /// small repetitive files (CSS, blank XHTML) legitimately compress very well.
    static let ratioCheckThreshold = 256 * 1024

    init(
        archive: Archive, name: String, limits: ImportLimits,
        damaged: @escaping @Sendable (_ path: String) -> ImportError
    ) throws {
        self.archive = archive
        self.damaged = damaged
        self.name = name
        self.limits = limits
        var entries: [String: Entry] = [:]
        var lowercased: [String: Entry] = [:]
        var declaredTotal = 0
        for entry in archive where entry.type == .file {
            let declared = Self.clamped(entry.uncompressedSize)
            declaredTotal = declaredTotal.addingReportingOverflow(declared).overflow ? Int.max : declaredTotal + declared
            if declaredTotal > limits.maxUncompressedBytes {
                throw ImportError.zipBomb(name: name, evidence: .totalSize(bytes: declaredTotal, limit: limits.maxUncompressedBytes))
            }
            if let ratio = Self.exceededRatio(output: declared, compressed: Self.clamped(entry.compressedSize), limit: limits.maxCompressionRatio) {
                throw ImportError.zipBomb(name: name, evidence: .compressionRatio(entry: entry.path, ratio: ratio, limit: limits.maxCompressionRatio))
            }
            if entries[entry.path] == nil { entries[entry.path] = entry }
            if lowercased[entry.path.lowercased()] == nil { lowercased[entry.path.lowercased()] = entry }
        }
        self.entries = entries
        self.entriesByLowercasedPath = lowercased
    }

    func contains(_ path: String) -> Bool { entry(path) != nil }

    /// The entry's bytes, or nil if the archive has no such file.
    mutating func read(_ path: String) throws -> Data? {
        guard let entry = entry(path) else { return nil }
        let declared = Self.clamped(entry.uncompressedSize)
        let compressed = Self.clamped(entry.compressedSize)
        let limits = self.limits, name = self.name
        var output = Data()
        var written = 0
        var total = extractedBytes
        do {
            _ = try archive.extract(entry, bufferSize: 32 * 1024) { chunk in
                written += chunk.count
                total += chunk.count
                if written > declared {
                    throw ImportError.zipBomb(name: name, evidence: .sizeMismatch(entry: entry.path, declared: declared))
                }
                if total > limits.maxUncompressedBytes {
                    throw ImportError.zipBomb(name: name, evidence: .totalSize(bytes: total, limit: limits.maxUncompressedBytes))
                }
                if entry.isCompressed, let ratio = Self.exceededRatio(output: written, compressed: compressed, limit: limits.maxCompressionRatio) {
                    throw ImportError.zipBomb(name: name, evidence: .compressionRatio(entry: entry.path, ratio: ratio, limit: limits.maxCompressionRatio))
                }
                output.append(chunk)
            }
        } catch let error as ImportError {
            throw error
        } catch {
            // CRC mismatch, truncated data, unknown compression: the archive is damaged.
            throw damaged(entry.path)
        }
        extractedBytes = total
        return output
    }

    private func entry(_ path: String) -> Entry? {
        entries[path] ?? entriesByLowercasedPath[path.lowercased()]
    }

    /// The ratio, when `output` bytes from `compressed` bytes is more than `limit` allows.
    private static func exceededRatio(output: Int, compressed: Int, limit: Int) -> Int? {
        guard output >= ratioCheckThreshold else { return nil }
        let ratio = output / max(compressed, 1)
        return ratio > limit ? ratio : nil
    }

    private static func clamped(_ size: UInt64) -> Int {
        size > UInt64(Int.max) ? Int.max : Int(size)
    }
}
