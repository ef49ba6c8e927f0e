import Foundation
import ObjectStorage
import Persistence
import StoryModel

/// What every product's use cases know of the signed-in user and the server they run on: the
/// database, the data directory and file store, the user's language models and voices. Each
/// product's use cases (`Stories`, `VoiceChats`, `JourneyLibrary`, …) are built on one.
public struct UserContext: Sendable {
    public var database: AppDatabase
    public var dataDirectory: DataDirectory
    /// The server's narration pipeline (local voices); nil on a server without speech engines.
    public var narration: (any NarrationService)?
    public var models: ModelAccess
    /// Where finished files and long texts are kept (nil: the data directory).
    public var artifacts: (any ArtifactStore)?
    public var ownerID: UUID

    public init(
        database: AppDatabase, dataDirectory: DataDirectory, narration: (any NarrationService)?, models: ModelAccess,
        artifacts: (any ArtifactStore)? = nil, ownerID: UUID
    ) {
        self.database = database
        self.dataDirectory = dataDirectory
        self.narration = narration
        self.models = models
        self.artifacts = artifacts
        self.ownerID = ownerID
    }

    /// The user's narration pipeline: local voices plus those their own keys unlock, casting
    /// for their choice of voices (or for `preference`, when given).
    public func userNarration(preference: CastingPreference? = nil) async throws -> (narration: any NarrationService, voices: String) {
        guard let narration else {
            throw ServiceError(.unavailable, code: "narration_unavailable",
                               "This server has no speech engines configured; start it with 'storyvoice serve'.")
        }
        return try await UserNarration(base: narration, box: models.box).forUser(ownerID, database: database, preference: preference)
    }
}
