import Foundation
import Jobs
import ObjectStorage
import Persistence

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
        let folder = dataDirectory.url.appendingPathComponent(folderPath)
        let parts = try await repository.parts(of: payload.journey_id).map(DatabaseJourneyStore.part).filter { $0.status == .ready }
        let relative = folderPath + "/journey.m4b"
        try await context.reportProgress(0, message: "Joining \(parts.count) parts")
        do {
            try await JourneyAudiobook(title: record.title ?? "Journey", parts: parts, folder: folder)
                .write(to: dataDirectory.url.appendingPathComponent(relative)) { fraction in
                    try? await context.reportProgress(fraction * 0.98, message: "Joining \(parts.count) parts")
                }
        } catch let error as NothingToldYet {
            throw PermanentJobFailure(error.description)
        }
        try await artifacts.keep(dataDirectory.url.appendingPathComponent(relative), as: relative, contentType: "audio/mp4")
        try await repository.update(payload.journey_id, ownerID: job.ownerID) { $0.exportPath = relative }
        return #"{"parts":\#(parts.count)}"#
    }
}
