import Foundation
import Jobs
import Journeys
import ObjectStorage
import Persistence
import Platform

/// The journeys' jobs: `journey-tell` writes and voices parts ahead of the listener until the
/// buffer is full (a moved playhead starts another); `journey-export` makes the audiobook.
public enum JourneyJobs {
    public static let tell = "journey-tell"
    public static let export = "journey-export"
    /// A teller that dies with the server is claimed again when its lease runs out; after this
    /// many deaths in a row the journey is failed for good.
    static let tellAttempts = 5
    static let exportAttempts = 3

    struct Payload: Codable, Sendable {
        var journey_id: UUID
    }

    /// Adds the journeys' handlers to `registry`.
    public static func register(
        in registry: inout JobHandlerRegistry, dataDirectory: DataDirectory, artifacts: (any ArtifactStore)? = nil,
        narration: any NarrationService, models: ModelAccess, buffer: BufferPolicy = BufferPolicy(), openings: PreparedOpenings? = nil
    ) {
        // A listener waits on the teller: it has workers of its own.
        let artifacts = artifacts ?? DirectoryStore(root: dataDirectory.url)
        registry.register(tell, JourneyTellHandler(
            dataDirectory: dataDirectory, artifacts: artifacts, narration: narration, models: models, buffer: buffer, openings: openings), lane: .live)
        registry.register(export, JourneyExportHandler(dataDirectory: dataDirectory, artifacts: artifacts), timeLimit: .seconds(1800))
    }

    /// A journey's folder, relative to the data directory: its key prefix in the artifact store.
    static func folder(journeyID: UUID, ownerID: UUID) -> String {
        "journeys/\(ownerID.uuidString.lowercased())/\(journeyID.uuidString.lowercased())"
    }

    /// Queues a teller for the journey when the buffer policy wants parts made and no teller is
    /// queued or running. The job and the claim are one transaction: a worker never sees a
    /// teller the journey does not name, and two requests cannot both start one.
    @discardableResult
    static func startTellerIfNeeded(_ journeyID: UUID, ownerID: UUID, database: AppDatabase, buffer: BufferPolicy) async throws -> Bool {
        let repository = JourneyRepository(database: database)
        guard let record = try await repository.find(journeyID, ownerID: ownerID), record.status == "telling" else { return false }
        let ready = Set(try await repository.parts(of: journeyID).filter { $0.status == JourneyPart.Status.ready.rawValue }.map(\.number))
        guard !buffer.partsToGenerate(playhead: record.playheadPart, ready: ready, inProgress: [], total: record.parts).isEmpty else { return false }
        if let current = record.tellJobID, let job = try await JobQueue(database: database).job(id: current, ownerID: ownerID),
           !job.status.isFinished {
            return false
        }
        do {
            try await database.transaction { database in
                let job = try await JobQueue(database: database).enqueue(
                    kind: tell, payload: Payload(journey_id: journeyID), ownerID: ownerID, maxAttempts: tellAttempts)
                // Another request claimed the journey first: rolling back drops this job.
                guard try await JourneyRepository(database: database).claimTeller(journeyID, ownerID: ownerID, jobID: job.id, replacing: record.tellJobID) else {
                    throw TellerClaimedElsewhere()
                }
            }
            return true
        } catch is TellerClaimedElsewhere {
            return false
        }
    }

    private struct TellerClaimedElsewhere: Error {}
}
