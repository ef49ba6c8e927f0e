import Foundation
import Jobs
import Persistence

extension StoryJobs {
    /// Cancels the owner's job (nil when there is none). A cancelled analysis leaves its story
    /// as it was before: analysed if it had an analysis, otherwise not analysed.
    public static func cancel(jobID: UUID, ownerID: UUID, database: AppDatabase) async throws -> JobRow? {
        guard let job = try await JobQueue(database: database).cancel(id: jobID, ownerID: ownerID) else { return nil }
        guard job.status == .cancelled, job.kind == analyze,
              let payload = try? JSONDecoder().decode(Payload.self, from: Data(job.payload.utf8)) else { return job }
        try await StoryRepository(database: database).modify(id: payload.story_id, ownerID: ownerID) { story in
            if story.analysisState == .analyzing { story.analysisState = story.analysisJSON == nil ? .notAnalyzed : .analyzed }
        }
        return job
    }
}
