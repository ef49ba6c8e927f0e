import Audio
import ChatStories
import ChatVideo
import Foundation
import Jobs
import ObjectStorage
import Persistence

/// Makes an export's video from the conversation it kept, reporting progress on the job (so
/// the page follows it live) and on the export. A failure leaves the conversation as it was
/// and says on the export what went wrong; a crashed or stopped run is redone from the start
/// by the next claim (the exporter writes a hidden partial file and renames it when done).
/// The finished video is kept in `artifacts` (the data directory, or a bucket every server
/// reads) before the export says it succeeded.
struct ChatExportHandler: JobHandler {
    let dataDirectory: DataDirectory
    let artifacts: any ArtifactStore
    let ffmpegPath: String?

    func run(_ job: ClaimedJob, context: JobContext) async throws -> String? {
        let payload: ChatJobs.Payload = try job.decodePayload()
        let repository = ChatExportRepository(database: context.queue.database)
        guard let record = try await repository.find(payload.export_id, ownerID: job.ownerID) else {
            throw PermanentJobFailure("The export was deleted with its conversation before its video was made.")
        }
        let id = payload.export_id
        do {
            let (conversation, settings) = try Self.inputs(record)
            let relative = ChatJobs.videoPath(exportID: id, ownerID: job.ownerID)
            let output = dataDirectory.url.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)
            Self.removeLeftovers(of: output)
            try await repository.update(id, ownerID: job.ownerID) { $0.status = "running"; $0.progress = 0 }
            try await context.reportProgress(0, message: "Drawing the first frames")
            let summary = try await ChatVideoExporter(ffmpegPath: ffmpegPath).export(conversation, settings: settings, to: output) { progress in
                let fraction = progress.fraction * 0.99
                try? await context.reportProgress(fraction, message: "Frame \(progress.frame) of \(progress.frameCount)")
                _ = try? await repository.update(id, ownerID: job.ownerID) { $0.progress = fraction }
            }
            try await context.reportProgress(0.995, message: "Keeping the video")
            try await artifacts.keep(output, as: relative, contentType: "video/mp4")
            let kept = try await repository.update(id, ownerID: job.ownerID) { record in
                record.status = ChatExportView.Status.succeeded.rawValue
                record.progress = 1
                record.filePath = relative
                record.durationMS = summary.durationMS
                record.errorMessage = nil
                record.finishedAt = Date()
            }
            // Deleted with its conversation while the video was made: nobody can reach it.
            if !kept { try? await artifacts.delete(relative) }
            return #"{"export_id":"\#(id.uuidString.lowercased())","duration_ms":\#(summary.durationMS),"frames":\#(summary.frameCount)}"#
        } catch is CancellationError {
            // The worker is stopping: the job goes back to the queue and the export follows it.
            throw CancellationError()
        } catch {
            let failure = ChatExportFailure(error)
            let final = failure.isPermanent || job.attempt >= job.maxAttempts
            _ = try? await repository.update(id, ownerID: job.ownerID) { record in
                record.errorMessage = failure.message
                record.status = final ? ChatExportView.Status.failed.rawValue : ChatExportView.Status.queued.rawValue
                if final { record.finishedAt = Date() }
            }
            if failure.isPermanent { throw PermanentJobFailure(failure.message) }
            throw failure
        }
    }

    static func inputs(_ record: ChatExportRow) throws -> (ChatConversation, ChatExportSettings) {
        let conversation = try ChatConversation.decodeFile(Data(record.conversationJSON.utf8))
        let settings = try JSONDecoder().decode(ChatExportSettings.self, from: Data(record.settingsJSON.utf8))
        return (conversation, settings)
    }

    /// What an earlier run of this export left when its process died (`.NAME.<uuid>.partial.mp4`,
    /// `.NAME.<uuid>.sounds.wav`): only this job writes files named for its export.
    static func removeLeftovers(of output: URL) {
        let prefix = "." + output.deletingPathExtension().lastPathComponent + "."
        let directory = output.deletingLastPathComponent()
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] where name.hasPrefix(prefix) {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }
}

/// Why a video could not be made, for the user; whether trying again could help.
struct ChatExportFailure: Error, CustomStringConvertible {
    var message: String
    var isPermanent: Bool

    init(_ error: any Error) {
        switch error {
        case let error as ChatStoryError:
            message = error.description
            isPermanent = true
        case AudioError.toolNotFound:
            message = "The server cannot make videos: its video encoder (ffmpeg) is missing. Your conversation is unchanged; export it again once the server's administrator has installed ffmpeg."
            isPermanent = true
        case AudioError.toolFailed(_, let status, let stderr):
            let reason = stderr.last.map { ": \($0)" } ?? ""
            message = "The video encoder stopped (\(status))\(reason). Your conversation is unchanged; export it again."
            isPermanent = false
        case let error as PermanentJobFailure:
            message = error.message
            isPermanent = true
        case ArtifactError.unavailable:
            message = "The video was made, but the server's file store did not answer, so it could not be kept. It is tried again by itself in a moment; your conversation is unchanged."
            isPermanent = false
        default:
            message = "The video could not be made (\(error)). Your conversation is unchanged; export it again."
            isPermanent = false
        }
    }

    var description: String { message }
}
