import Foundation

extension JobQueue {
    /// The owner's job as it changes: the current state first, then each change, ending after
    /// the job finishes. Reads the database, so progress reported by a worker in another
    /// process arrives too. Yields nothing and finishes at once if the job is not the owner's.
    public func snapshots(
        id: UUID, ownerID: UUID, pollInterval: Duration = .milliseconds(250)
    ) -> AsyncThrowingStream<JobSnapshot, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                var last: JobSnapshot?
                do {
                    while !Task.isCancelled {
                        guard let record = try await job(id: id, ownerID: ownerID) else { break }
                        let snapshot = JobSnapshot(record)
                        if snapshot != last {
                            continuation.yield(snapshot)
                            last = snapshot
                        }
                        if snapshot.status.isFinished { break }
                        try await Task.sleep(for: pollInterval)
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
