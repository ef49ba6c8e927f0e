import Foundation
import Jobs
import ObjectStorage
import Persistence

/// The chat stories jobs: `chat-export`. Registered beside the story jobs in the server's
/// in-process workers (and in any `storyvoice worker` that should make videos).
public enum ChatJobs {
    public static let export = "chat-export"
    /// A video that failed three times (ffmpeg crashing, a full disk) is failed for good.
    static let exportAttempts = 3

    struct Payload: Codable, Sendable {
        var export_id: UUID
    }

    /// Adds the chat jobs' handlers to `registry`. `ffmpegPath` nil looks ffmpeg up on PATH.
    /// - Parameter artifacts: where finished videos are kept (nil: the data directory).
    public static func register(
        in registry: inout JobHandlerRegistry, dataDirectory: DataDirectory, artifacts: (any ArtifactStore)? = nil, ffmpegPath: String? = nil
    ) {
        // A video is at most ten minutes (the plans' limits): half an hour is far past any export.
        registry.register(export, ChatExportHandler(
            dataDirectory: dataDirectory, artifacts: artifacts ?? DirectoryStore(root: dataDirectory.url), ffmpegPath: ffmpegPath), timeLimit: .seconds(1800))
    }

    /// Where an export's video goes, relative to the data directory.
    static func videoPath(exportID: UUID, ownerID: UUID) -> String {
        "chat-exports/\(ownerID.uuidString.lowercased())/\(exportID.uuidString.lowercased()).mp4"
    }
}
