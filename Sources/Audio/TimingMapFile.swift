import Foundation
import StoryModel

/// The timing map written beside the audio (`book.timing.json`): where each rendered piece of
/// the text sits in time, for highlighting the spoken line and for captions.
///
/// The file is `{"format": "storyvoice-timing", "version": 1, "entries": [...]}` with entries
/// sorted by start time; a bare array of entries is read too.
public enum TimingMapFile {
    public static let formatName = "storyvoice-timing"
    public static let version = 1

    public static func write(_ entries: [TimedSegment], to url: URL) throws {
        let sorted = entries.enumerated().sorted { ($0.element.startMs, $0.offset) < ($1.element.startMs, $1.offset) }.map(\.element)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            let data = try encoder.encode(Document(format: formatName, version: version, entries: sorted))
            try data.write(to: url, options: .atomic)
        } catch {
            throw AudioError.io(url, error.localizedDescription)
        }
    }

    public static func read(_ url: URL) throws -> [TimedSegment] {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw FileManager.default.fileExists(atPath: url.path) ? AudioError.io(url, error.localizedDescription) : AudioError.inputMissing(url)
        }
        let decoder = JSONDecoder()
        let isBareArray = data.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "[")
        do {
            if isBareArray { return try decoder.decode([TimedSegment].self, from: data) }
            let document = try decoder.decode(Document.self, from: data)
            guard document.format == formatName, document.version <= version else {
                throw AudioError.unreadable(url, "it is a '\(document.format)' file, version \(document.version); this StoryVoice reads '\(formatName)' up to version \(version)")
            }
            return document.entries
        } catch let error as AudioError {
            throw error
        } catch {
            throw AudioError.unreadable(url, "it is not a StoryVoice timing map (\(error))")
        }
    }

    private struct Document: Codable {
        var format: String
        var version: Int
        var entries: [TimedSegment]
    }
}
