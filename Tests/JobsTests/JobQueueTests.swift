import DatabaseTestSupport
import Foundation
import Jobs
import Persistence
import Testing

@Suite("Job queue")
struct JobQueueTests {
    @Test("PostgreSQL backend", .enabled(if: Backend.postgresURL != nil, Backend.skipNote))
    func postgresIsConfigured() {
        #expect(Backend.available.contains(.postgres))
    }

    @Test("enqueue, claim, progress, complete", arguments: Backend.available)
    func lifecycle(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            let owner = try await makeOwner(database)
            let clock = TestClock()
            let queue = JobQueue(database: database.database, now: clock.function)
            let job = try await queue.enqueue(kind: "render", payload: #"{"story":"x"}"#, ownerID: owner)
            #expect(job.status == .queued)

            let claimed = try #require(try await queue.claim(workerID: "w1", leaseDuration: 30))
            #expect(claimed.id == job.id)
            #expect(claimed.attempt == 1)
            #expect(claimed.payload == #"{"story":"x"}"#)
            #expect(claimed.ownerID == owner)
            #expect(try await queue.claim(workerID: "w2", leaseDuration: 30) == nil)

            try await queue.reportProgress(claimed.lease, fraction: 0.5, message: "Segment 5 of 10")
            var record = try #require(try await queue.job(id: claimed.id, ownerID: owner))
            #expect(record.progress == 0.5)
            #expect(record.progressMessage == "Segment 5 of 10")
            #expect(record.status == .running)

            try await queue.complete(claimed.lease, result: #"{"file":"a.m4b"}"#)
            record = try #require(try await queue.job(id: claimed.id, ownerID: owner))
            #expect(record.status == .succeeded)
            #expect(record.progress == 1)
            #expect(record.result == #"{"file":"a.m4b"}"#)
            #expect(record.finishedAt != nil)
            await #expect(throws: JobError.leaseLost) { try await queue.complete(claimed.lease) }
        }
    }

    @Test("claims only the kinds asked for, oldest first", arguments: Backend.available)
    func kindsAndOrder(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            let owner = try await makeOwner(database)
            let clock = TestClock()
            let queue = JobQueue(database: database.database, now: clock.function)
            let first = try await queue.enqueue(kind: "render", ownerID: owner)
            clock.advance(by: 1)
            _ = try await queue.enqueue(kind: "export", ownerID: owner)
            clock.advance(by: 1)
            let third = try await queue.enqueue(kind: "render", ownerID: owner)
            #expect(try await queue.claim(workerID: "w", kinds: ["analyze"], leaseDuration: 30) == nil)
            #expect(try await queue.claim(workerID: "w", kinds: [], leaseDuration: 30) == nil)
            #expect(try await queue.claim(workerID: "w", kinds: ["render"], leaseDuration: 30)?.id == first.id)
            #expect(try await queue.claim(workerID: "w", kinds: ["render"], leaseDuration: 30)?.id == third.id)
            #expect(try await queue.claim(workerID: "w", kinds: ["render"], leaseDuration: 30) == nil)
            #expect(try await queue.claim(workerID: "w", leaseDuration: 30)?.kind == "export")
        }
    }

    @Test("concurrent claimers never take the same job", arguments: Backend.available)
    func concurrentClaimers(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            let owner = try await makeOwner(database)
            let jobCount = 40
            var expected = Set<UUID>()
            for index in 0..<jobCount {
                expected.insert(try await JobQueue(database: database.database).enqueue(kind: "k", payload: "{\"n\":\(index)}", ownerID: owner).id)
            }
            // Each claimer gets its own handle (its own connection on PostgreSQL).
            let claims = try await withThrowingTaskGroup(of: [UUID].self) { group in
                for worker in 0..<4 {
                    group.addTask {
                        let queue = JobQueue(database: database.database)
                        var mine: [UUID] = []
                        while let job = try await queue.claim(workerID: "w\(worker)", leaseDuration: 60) {
                            mine.append(job.id)
                        }
                        return mine
                    }
                }
                return try await group.reduce(into: [[UUID]]()) { $0.append($1) }
            }
            let all = claims.flatMap { $0 }
            #expect(all.count == jobCount)
            #expect(Set(all) == expected)
        }
    }

    @Test("a job whose worker died is re-claimed after its lease expires", arguments: Backend.available)
    func expiredLeaseIsReclaimed(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            let owner = try await makeOwner(database)
            let clock = TestClock()
            let queue = JobQueue(database: database.database, now: clock.function)
            let job = try await queue.enqueue(kind: "render", ownerID: owner)

            let dead = try #require(try await queue.claim(workerID: "dead", leaseDuration: 30))
            clock.advance(by: 29)
            #expect(try await queue.claim(workerID: "alive", leaseDuration: 30) == nil)
            clock.advance(by: 2)
            let alive = try #require(try await queue.claim(workerID: "alive", leaseDuration: 30))
            #expect(alive.id == job.id)
            #expect(alive.attempt == 2)

            // The first worker wakes up: it no longer holds the job.
            await #expect(throws: JobError.leaseLost) { try await queue.heartbeat(dead.lease, leaseDuration: 30) }
            await #expect(throws: JobError.leaseLost) { try await queue.complete(dead.lease) }
            await #expect(throws: JobError.leaseLost) { try await queue.reportProgress(dead.lease, fraction: 1, message: nil) }
            try await queue.complete(alive.lease)
            #expect(try await queue.job(id: job.id)?.status == .succeeded)
        }
    }

    @Test("heartbeats keep the lease", arguments: Backend.available)
    func heartbeatExtendsLease(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            let owner = try await makeOwner(database)
            let clock = TestClock()
            let queue = JobQueue(database: database.database, now: clock.function)
            try await queue.enqueue(kind: "render", ownerID: owner)
            let held = try #require(try await queue.claim(workerID: "a", leaseDuration: 30))
            clock.advance(by: 20)
            try await queue.heartbeat(held.lease, leaseDuration: 30)
            clock.advance(by: 20)
            #expect(try await queue.claim(workerID: "b", leaseDuration: 30) == nil)
            clock.advance(by: 11)
            #expect(try await queue.claim(workerID: "b", leaseDuration: 30)?.id == held.id)
        }
    }

    @Test("failures retry with exponential backoff, then fail for good", arguments: Backend.available)
    func retryWithBackoff(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            let owner = try await makeOwner(database)
            let clock = TestClock()
            let policy = JobRetryPolicy(maxAttempts: 3, baseDelay: 10, maxDelay: 1000)
            let queue = JobQueue(database: database.database, retry: policy, now: clock.function)
            let job = try await queue.enqueue(kind: "render", ownerID: owner)

            let first = try #require(try await queue.claim(workerID: "w", leaseDuration: 60))
            #expect(try await queue.fail(first.lease, error: "engine crashed") == .queued)
            clock.advance(by: 9)
            #expect(try await queue.claim(workerID: "w", leaseDuration: 60) == nil)
            clock.advance(by: 1)
            let second = try #require(try await queue.claim(workerID: "w", leaseDuration: 60))
            #expect(second.attempt == 2)
            #expect(try await queue.fail(second.lease, error: "engine crashed again") == .queued)
            clock.advance(by: 19)
            #expect(try await queue.claim(workerID: "w", leaseDuration: 60) == nil)
            clock.advance(by: 1)
            let third = try #require(try await queue.claim(workerID: "w", leaseDuration: 60))
            #expect(third.attempt == 3)
            #expect(try await queue.fail(third.lease, error: "still broken") == .failed)

            let record = try #require(try await queue.job(id: job.id))
            #expect(record.status == .failed)
            #expect(record.lastError == "still broken")
            clock.advance(by: 10_000)
            #expect(try await queue.claim(workerID: "w", leaseDuration: 60) == nil)
        }
    }

    @Test("a permanent failure is not retried", arguments: Backend.available)
    func permanentFailure(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            let owner = try await makeOwner(database)
            let queue = JobQueue(database: database.database)
            try await queue.enqueue(kind: "render", ownerID: owner)
            let claimed = try #require(try await queue.claim(workerID: "w", leaseDuration: 60))
            #expect(try await queue.fail(claimed.lease, error: "story deleted", retryable: false) == .failed)
        }
    }

    @Test("a job whose worker dies on every attempt ends failed", arguments: Backend.available)
    func workerDiesEveryTime(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            let owner = try await makeOwner(database)
            let clock = TestClock()
            let queue = JobQueue(database: database.database, now: clock.function)
            let job = try await queue.enqueue(kind: "render", ownerID: owner, maxAttempts: 2)
            _ = try #require(try await queue.claim(workerID: "a", leaseDuration: 10))
            clock.advance(by: 11)
            _ = try #require(try await queue.claim(workerID: "b", leaseDuration: 10))
            clock.advance(by: 11)
            #expect(try await queue.claim(workerID: "c", leaseDuration: 10) == nil)
            let record = try #require(try await queue.job(id: job.id))
            #expect(record.status == .failed)
            #expect(record.lastError?.contains("stopped responding") == true)
        }
    }

    @Test("jobs are read only by their owner", arguments: Backend.available)
    func ownerScoped(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            let ada = try await makeOwner(database, email: "ada@x.io")
            let bob = try await makeOwner(database, email: "bob@x.io")
            let queue = JobQueue(database: database.database)
            let job = try await queue.enqueue(kind: "render", ownerID: ada)
            #expect(try await queue.job(id: job.id, ownerID: ada) != nil)
            #expect(try await queue.job(id: job.id, ownerID: bob) == nil)
            #expect(try await queue.jobs(ownerID: bob).isEmpty)
        }
    }

    @Test func backoffDoublesAndCaps() {
        let policy = JobRetryPolicy(maxAttempts: 10, baseDelay: 2, maxDelay: 20)
        #expect((1...6).map { policy.delay(afterAttempt: $0) } == [2, 4, 8, 16, 20, 20])
    }
}
