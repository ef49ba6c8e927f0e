import FluentKit
import Foundation
import Jobs
import StoryPersistence

/// Adds imported stories to a user's library: small texts inline in the database, large ones
/// as content-addressed files in the data directory.
struct StoryLibrary: Sendable {
    let config: ServerConfig

    func add(_ document: ImportedText, ownerID: UUID, database: any Database) async throws -> StoryRecord {
        let bytes = Data(document.text.utf8)
        var inline: String? = document.text
        var path: String?
        var hash = ContentStore.sha256Hex(bytes)
        if bytes.count > config.inlineTextLimitBytes {
            let stored = try ContentStore(dataDirectory: config.dataDirectory).write(bytes, extension: "txt")
            inline = nil
            path = stored.path
            hash = stored.sha256
        }
        let story = StoryRecord(
            ownerID: ownerID, title: document.title, author: document.author, text: inline, textPath: path,
            textSHA256: hash, characterCount: document.text.unicodeScalars.count, importedAt: Date()
        )
        try await StoryRepository(database: database).create(story)
        return story
    }

    /// Marks the story as being analysed and queues its analysis.
    @discardableResult
    func enqueueAnalysis(of story: StoryRecord, ownerID: UUID, database: any Database) async throws -> JobRecord {
        story.analysisState = .analyzing
        try await StoryRepository(database: database).save(story)
        return try await JobQueue(database: database).enqueue(
            kind: StoryJobs.analyze, payload: StoryJobs.Payload(story_id: try story.requireID()), ownerID: ownerID)
    }

    /// Puts the server's welcome story (`ServerConfig.welcomeStory`) in a new account's library
    /// and queues its analysis, so a first visit has a story ready to play. Returns nil when
    /// the server has none.
    func addWelcomeStory(ownerID: UUID, database: any Database) async throws -> StoryRecord? {
        guard let file = config.welcomeStory else { return nil }
        let data = try Data(contentsOf: file)
        let document = try ImportedText.upload(data: data, filename: file.lastPathComponent, title: nil, author: nil)
        let story = try await add(document, ownerID: ownerID, database: database)
        if config.narration != nil {
            try await enqueueAnalysis(of: story, ownerID: ownerID, database: database)
        }
        return story
    }
}
