import Foundation

extension JobQueue {
    /// The owner's job as it changes: the current state first, then each change, ending after
    /// the job finishes. Reads the database, so progress reported by a worker in another
    /// process arrives too. Yields nothing and finishes at once if the job is not the owner's.
    /// Finishes early after `maxDuration`, so a listener to a stalled job does not hold a
    /// connection forever (browsers' EventSource reconnects by itself).
    public func snapshots(
        id: UUID, ownerID: UUID, pollInterval: Duration = .milliseconds(250), maxDuration: Duration = .seconds(300)
    ) -> AsyncThrowingStream<JobSnapshot, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                var last: JobSnapshot?
                let deadline = ContinuousClock.now.advanced(by: maxDuration)
                do {
                    while !Task.isCancelled, ContinuousClock.now < deadline {
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
