import FluentKit
import Foundation
import Speech
import StoryPersistence

/// The narration pipeline as one user sees it: the server's local voices plus the cloud voices
/// their own stored keys unlock (never the server's keys, so no account spends another's money).
struct UserNarration: Sendable {
    let base: any NarrationService
    let box: SecretBox

    func forUser(_ userID: UUID, database: any Database) async throws -> any NarrationService {
        // One query per request: this runs for every line the player fetches.
        let stored = try await SettingsRepository(database: database, box: box)
            .keys(for: [.openai, .elevenlabs, .gemini], userID: userID)
        let keys = Dictionary(uniqueKeysWithValues: stored.map { ($0.key.rawValue, $0.value) })
        return keys.isEmpty ? base : await base.including(cloudKeys: keys)
    }
}

extension ServerConfig {
    /// The user's narration pipeline, or nil when the server has no speech engines.
    func narration(for userID: UUID, database: any Database) async throws -> (any NarrationService)? {
        guard let narration else { return nil }
        return try await UserNarration(base: narration, box: models.box).forUser(userID, database: database)
    }
}

extension NarrationService {
    /// This pipeline for one story: its owner's voices and its pronunciation lexicon.
    func forStory(_ overrides: CastOverrides) -> any NarrationService {
        guard let lexicon = overrides.lexicon, !lexicon.isEmpty else { return self }
        return speaking(with: PronunciationLexicon(entries: lexicon))
    }
}
