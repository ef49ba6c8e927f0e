import Foundation
import StoryModel
import ZIPFoundation

/// A story exported with everything needed to pick it up again elsewhere: its text, its
/// analysis (with any corrections) and the voice choices, as a ZIP (`<title>.storyvoice.zip`):
///
/// - `storyvoice.json`: `{"format": "storyvoice-story", "version": 1, "title", "author"}`
/// - `text.txt`: the story text, UTF-8, exactly as imported (analysis offsets refer to it)
/// - `analysis.json`: the `StoryAnalysis`, when the story was analysed
/// - `cast.json`: the voice choices, when any were made (opaque here: the app's own shape)
public struct StoryBundle: Sendable, Hashable {
    public static let fileSuffix = ".storyvoice.zip"
    static let format = "storyvoice-story"
    static let version = 1

    public var title: String
    public var author: String?
    public var text: String
    public var analysis: StoryAnalysis?
    public var cast: Data?

    public init(title: String, author: String?, text: String, analysis: StoryAnalysis?, cast: Data?) {
        self.title = title
        self.author = author
        self.text = text
        self.analysis = analysis
        self.cast = cast
    }

    struct Manifest: Codable {
        var format: String
        var version: Int
        var title: String
        var author: String?
    }

    /// The bundle as ZIP bytes.
    public func archive() throws -> Data {
        let archive = try Archive(accessMode: .create, pathEncoding: nil)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try add("storyvoice.json", try encoder.encode(Manifest(format: Self.format, version: Self.version, title: title, author: author)), to: archive)
        try add("text.txt", Data(text.utf8), to: archive)
        if let analysis { try add("analysis.json", try encoder.encode(analysis), to: archive) }
        if let cast { try add("cast.json", cast, to: archive) }
        guard let data = archive.data else { throw CocoaError(.fileWriteUnknown) }
        return data
    }

    private func add(_ path: String, _ data: Data, to archive: Archive) throws {
        try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
            data.subdata(in: Int(position)..<Int(position) + size)
        }
    }

    /// True when `data` is a ZIP holding a bundle manifest (rather than, say, an EPUB).
    public static func isBundle(_ data: Data) -> Bool {
        guard data.starts(with: [0x50, 0x4B]), let archive = ZipReading.archive(data) else { return false }
        return archive["storyvoice.json"] != nil
    }

    /// Reads a bundle under the import limits (the same zip-bomb guards as EPUB). The analysis
    /// must tile the text it came with, or it is refused rather than mislabelling the story.
    public static func read(_ data: Data, name: String, limits: ImportLimits = ImportLimits()) throws -> StoryBundle {
        func broken(_ reason: String) -> ImportError { .brokenBundle(name: name, reason: reason) }
        guard let archive = ZipReading.archive(data) else { throw broken("it is not a ZIP archive") }
        var zip = try LimitedArchive(archive: archive, name: name, limits: limits) { path in
            .brokenBundle(name: name, reason: "\(path) is damaged")
        }
        guard let manifestData = try zip.read("storyvoice.json"),
              let manifest = try? JSONDecoder().decode(Manifest.self, from: manifestData), manifest.format == format else {
            throw broken("storyvoice.json is missing or is not a story manifest")
        }
        guard manifest.version <= version else {
            throw broken("it was written by a newer StoryVoice (bundle version \(manifest.version))")
        }
        guard let textData = try zip.read("text.txt") else { throw broken("text.txt is missing") }
        guard textData.count <= limits.maxTextBytes else {
            throw ImportError.tooLarge(name: name, bytes: textData.count, limit: limits.maxTextBytes)
        }
        guard let text = String(data: textData, encoding: .utf8) else { throw broken("text.txt is not UTF-8") }
        guard text.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) else { throw ImportError.emptyFile(name: name) }

        var analysis: StoryAnalysis?
        if let analysisData = try zip.read("analysis.json") {
            guard let decoded = try? JSONDecoder().decode(StoryAnalysis.self, from: analysisData) else {
                throw broken("analysis.json is not a StoryVoice analysis")
            }
            guard decoded.tiles(scalarCount: text.unicodeScalars.count) else {
                throw broken("analysis.json does not match text.txt")
            }
            analysis = decoded
        }
        let cast = try zip.read("cast.json")
        let title = manifest.title.trimmingCharacters(in: .whitespacesAndNewlines)
        return StoryBundle(title: title.isEmpty ? StoryMetadata.title(fromFilename: name) : title,
                           author: manifest.author, text: text, analysis: analysis, cast: cast)
    }
}

extension StoryAnalysis {
    /// True when the segments cover `0..<scalarCount` in order without gaps or overlaps.
    func tiles(scalarCount: Int) -> Bool {
        var position = 0
        for segment in segments {
            guard segment.start == position, segment.end > segment.start else { return false }
            position = segment.end
        }
        return position == scalarCount
    }
}
