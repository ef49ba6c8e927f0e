import Foundation
import Jobs
import ObjectStorage
import Persistence
import Platform
import StoryModel

/// Makes the M4B of a journey's parts told so far, a chapter per part, into the journey's
/// folder, and keeps it in `artifacts` before the journey names it.
struct JourneyExportHandler: JobHandler {
    let dataDirectory: DataDirectory
    let artifacts: any ArtifactStore

    func run(_ job: ClaimedJob, context: JobContext) async throws -> String? {
        let payload: JourneyJobs.Payload = try job.decodePayload()
        let repository = JourneyRepository(database: context.queue.database)
        guard let record = try await repository.find(payload.journey_id, ownerID: job.ownerID) else {
            throw PermanentJobFailure("The journey was deleted before its audiobook was made.")
        }
        let folderPath = JourneyJobs.folder(journeyID: payload.journey_id, ownerID: job.ownerID)
        let parts = try await repository.parts(of: payload.journey_id).map(DatabaseJourneyStore.part).filter { $0.status == .ready }
        let relative = folderPath + "/journey.m4b"
        try await context.reportProgress(0, message: "Joining \(parts.count) parts")
        let (folder, scratch) = try await sentences(of: parts, in: folderPath)
        defer { if let scratch { try? FileManager.default.removeItem(at: scratch) } }
        try FileManager.default.createDirectory(
            at: dataDirectory.url.appendingPathComponent(relative).deletingLastPathComponent(), withIntermediateDirectories: true)
        do {
            try await JourneyAudiobook(title: record.title ?? "Journey", parts: parts, folder: folder)
                .write(to: dataDirectory.url.appendingPathComponent(relative)) { fraction in
                    try? await context.reportProgress(fraction * 0.98, message: "Joining \(parts.count) parts")
                }
        } catch let error as NothingToldYet {
            throw PermanentJobFailure(error.description)
        }
        do {
            try await artifacts.keep(dataDirectory.url.appendingPathComponent(relative), as: relative, contentType: "audio/mp4")
        } catch let error as ArtifactError {
            throw StoreUnavailable(error: error, what: "The journey's audiobook")
        }
        try await repository.update(payload.journey_id, ownerID: job.ownerID) { $0.exportPath = relative }
        return #"{"parts":\#(parts.count)}"#
    }

    /// The folder holding the parts' sentences: the journey's own on this disk, else a scratch
    /// folder they are fetched into from the bucket, one at a time (removed afterwards).
    func sentences(of parts: [JourneyPart], in folderPath: String) async throws -> (folder: URL, scratch: URL?) {
        if let local = artifacts.localFile(folderPath) { return (local, nil) }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("storyvoice-journey-\(UUID.random().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        do {
            for sentence in parts.flatMap(\.sentences) {
                try await artifacts.data("\(folderPath)/\(sentence.file)").write(to: scratch.appendingPathComponent(sentence.file))
            }
        } catch {
            try? FileManager.default.removeItem(at: scratch)
            throw error
        }
        return (scratch, scratch)
    }
}
