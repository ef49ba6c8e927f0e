import Crypto
import Foundation
import Speech
import Persistence
import StoryModel

/// The narration pipeline as one user sees it: the server's local voices plus the cloud voices
/// their own stored keys unlock (never the server's keys, so no account spends another's money).
public struct UserNarration: Sendable {
    public let base: any NarrationService
    public let box: SecretBox

    public init(base: any NarrationService, box: SecretBox) {
        self.base = base
        self.box = box
    }

    /// The user's pipeline and a fingerprint of the voices it offers (which keys unlock them),
    /// so a plan cast from it can be reused while neither story nor keys change.
    /// `preference` replaces the user's own choice of voices (an estimate asks for both).
    public func forUser(
        _ userID: UUID, database: AppDatabase, preference: CastingPreference? = nil
    ) async throws -> (narration: any NarrationService, voices: String) {
        // Two small queries per request: this runs for every line the player fetches.
        let settings = SettingsRepository(database: database, box: box)
        let stored = try await settings.keys(for: [.openai, .elevenlabs, .gemini], userID: userID)
        let preference = if let preference { preference } else { try await settings.narrationDefaults(userID: userID).voices }
        let keys = Dictionary(uniqueKeysWithValues: stored.map { ($0.key.rawValue, $0.value) })
        let preferring = base.preferring(preference)
        guard !keys.isEmpty else { return (preferring, "local-\(preference.rawValue)") }
        let digest = SHA256.hash(data: Data(keys.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "\n").utf8))
        return (await preferring.including(cloudKeys: keys), "\(preference.rawValue)-" + digest.map { String(format: "%02x", $0) }.joined())
    }
}

extension NarrationService {
    /// This pipeline for one story: its pronunciation lexicon.
    public func forStory(_ overrides: CastOverrides) -> any NarrationService {
        guard let lexicon = overrides.lexicon, !lexicon.isEmpty else { return self }
        return speaking(with: PronunciationLexicon(entries: lexicon))
    }
}
