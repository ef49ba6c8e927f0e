import Foundation
import Persistence
import Platform
import StoryModel
import StoryText

/// A story's stored text, analysis, voice choices and render, decoded.
public struct StoryContent: Sendable {
    public var id: UUID
    public var document: StoryDocument
    public var analysis: StoryAnalysis?
    public var overrides: CastOverrides
    public var render: StoryRender?

    public init(_ story: StoryRow, dataDirectory: DataDirectory) throws {
        id = story.id
        document = try story.document(dataDirectory: dataDirectory)
        analysis = try story.analysisJSON.map { try JSONDecoder().decode(StoryAnalysis.self, from: Data($0.utf8)) }
        overrides = try story.castJSON.map { try JSONDecoder().decode(CastOverrides.self, from: Data($0.utf8)) } ?? CastOverrides()
        render = try story.renderJSON.map { try JSONDecoder().decode(StoryRender.self, from: Data($0.utf8)) }
    }
}

/// A finished render: paths are relative to the data directory.
public struct StoryRender: Codable, Sendable, Hashable {
    public var path: String
    public var format: String
    public var timingPath: String
    public var durationSeconds: Double
    public var synthesized: Int
    public var cacheHits: Int
    public var renderedAt: Date
}

extension StoryRow {
    /// The story as the importer read it: text, and the chapters found then (detected from the
    /// text for stories imported before chapters were kept).
    public func document(dataDirectory: DataDirectory) throws -> StoryDocument {
        let text = try fullText(dataDirectory: dataDirectory)
        let chapters = try chaptersJSON.map { try JSONDecoder().decode([Chapter].self, from: Data($0.utf8)) }
            ?? ChapterDetector.chapters(in: text, title: title)
        return StoryDocument(title: title, author: author, text: text, chapters: chapters)
    }

    /// The text, from the row or from the content store for long stories.
    public func fullText(dataDirectory: DataDirectory) throws -> String {
        if let text { return text }
        if let textPath {
            return String(decoding: try ContentStore(dataDirectory: dataDirectory).read(textPath), as: UTF8.self)
        }
        return ""
    }

    public mutating func store(analysis: StoryAnalysis) throws {
        analysisJSON = String(decoding: try JSONEncoder().encode(analysis), as: UTF8.self)
    }

    public mutating func store(overrides: CastOverrides) throws {
        castJSON = String(decoding: try JSONEncoder().encode(overrides), as: UTF8.self)
    }

    public mutating func store(render: StoryRender) throws {
        renderJSON = String(decoding: try JSONEncoder().encode(render), as: UTF8.self)
    }
}

extension DataDirectory {
    /// Where a story's finished audio lives.
    public func rendersDirectory(story: UUID) -> URL {
        url.appendingPathComponent(StoryJobs.rendersKey(story: story), isDirectory: true)
    }
}
