import Analysis
import Foundation
import Jobs
import ObjectStorage
import Persistence
import Platform
import StoryText

/// Adds imported stories to a user's library: small texts inline in the database, large ones
/// as content-addressed files in the data directory.
public struct StoryLibrary: Sendable {
    public var dataDirectory: DataDirectory
    /// Where long texts are kept beside this machine's copy (nil: the data directory alone).
    public var artifacts: (any ArtifactStore)?
    /// Texts longer than this are kept as content-addressed files instead of in the database.
    public var inlineTextLimitBytes: Int
    /// A story file put in every new account's library (`storyvoice serve --welcome-story`).
    public var welcomeStory: URL?
    /// Whether stories can be analysed here (a server without speech engines runs no story jobs).
    public var analyzesStories: Bool

    public init(
        dataDirectory: DataDirectory, artifacts: (any ArtifactStore)? = nil, inlineTextLimitBytes: Int = 256 << 10, welcomeStory: URL? = nil,
        analyzesStories: Bool = true
    ) {
        self.dataDirectory = dataDirectory
        self.artifacts = artifacts
        self.inlineTextLimitBytes = inlineTextLimitBytes
        self.welcomeStory = welcomeStory
        self.analyzesStories = analyzesStories
    }

    public func add(_ document: ImportedText, ownerID: UUID, database: AppDatabase) async throws -> StoryRow {
        let bytes = Data(document.text.utf8)
        var inline: String? = document.text
        var path: String?
        var hash = ContentStore.sha256Hex(bytes)
        if bytes.count > inlineTextLimitBytes {
            let stored = try await StoryTextFiles(dataDirectory: dataDirectory, artifacts: artifacts).write(bytes)
            inline = nil
            path = stored.path
            hash = stored.sha256
        }
        var story = StoryRow(
            id: UUID.random(), ownerID: ownerID, title: document.title, author: document.author, text: inline, textPath: path,
            textSHA256: hash, characterCount: document.text.unicodeScalars.count, importedAt: Date()
        )
        if !document.chapters.isEmpty {
            story.chaptersJSON = String(decoding: try JSONEncoder().encode(document.chapters), as: UTF8.self)
        }
        if let analysis = document.analysis {
            try story.store(analysis: analysis)
            story.analysisState = .analyzed
        }
        if let cast = document.castJSON {
            // Stored only if it is the app's shape: a bundle from elsewhere must not break the story.
            if let overrides = try? JSONDecoder().decode(CastOverrides.self, from: cast) {
                try story.store(overrides: overrides)
            }
        }
        return try await StoryRepository(database: database).create(story)
    }

    /// The story as a bundle: text, analysis and voice choices (`StoryBundle`).
    public func bundle(of story: StoryRow) throws -> StoryBundle {
        let content = try StoryContent(story, dataDirectory: dataDirectory)
        return StoryBundle(
            title: story.title, author: story.author, text: content.document.text, analysis: content.analysis,
            cast: content.overrides == CastOverrides() ? nil : try JSONEncoder().encode(content.overrides))
    }

    /// Marks the story as being analysed and queues its analysis.
    @discardableResult
    public func enqueueAnalysis(
        of story: StoryRow, ownerID: UUID, database: AppDatabase, llm: String? = nil, mode: LabellingMode? = nil
    ) async throws -> JobRow {
        try await StoryRepository(database: database).update(id: story.id, ownerID: ownerID) { $0.analysisState = .analyzing }
        return try await JobQueue(database: database).enqueue(
            kind: StoryJobs.analyze, payload: StoryJobs.Payload(story_id: story.id, llm: llm, mode: mode), ownerID: ownerID)
    }

    /// Puts the server's welcome story (`ServerConfig.welcomeStory`) in a new account's library
    /// and queues its analysis, so a first visit has a story ready to play. Returns nil when
    /// the server has none.
    public func addWelcomeStory(ownerID: UUID, database: AppDatabase) async throws -> StoryRow? {
        guard let file = welcomeStory else { return nil }
        let data = try Data(contentsOf: file)
        let document = try ImportedText.upload(data: data, filename: file.lastPathComponent, title: nil, author: nil)
        let story = try await add(document, ownerID: ownerID, database: database)
        if analyzesStories {
            try await enqueueAnalysis(of: story, ownerID: ownerID, database: database)
        }
        return story
    }
}
