import DatabaseTestSupport
import Foundation
import Jobs
import Persistence
import Testing

@Suite("Job worker")
struct JobWorkerTests {
    /// Fast polling and heartbeats, but a long lease: the whole suite runs in parallel on few
    /// cores, and a starved test process once went 5 s without a heartbeat, lost its lease and
    /// ran a job a fourth time. Lease expiry is tested with explicit short claims instead.
    static func fastConfiguration(_ id: String) -> JobWorker.Configuration {
        JobWorker.Configuration(
            workerID: id, concurrency: 2, leaseDuration: .seconds(120),
            heartbeatInterval: .milliseconds(100), pollInterval: .milliseconds(20)
        )
    }

    @Test("runs handlers by kind and publishes their progress", arguments: Backend.available)
    func runsHandlers(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            let owner = try await makeOwner(database)
            let queue = JobQueue(database: database.database)
            var registry = JobHandlerRegistry()
            registry.register("count") { job, context in
                struct Input: Decodable { var to: Int }
                let input = try job.decodePayload(as: Input.self)
                for step in 1...input.to {
                    try await context.reportProgress(Double(step) / Double(input.to), message: "step \(step)")
                }
                return "{\"counted\":\(input.to)}"
            }
            let job = try await queue.enqueue(kind: "count", payload: #"{"to":3}"#, ownerID: owner)
            let id = job.id

            let worker = JobWorker(queue: queue, registry: registry, configuration: Self.fastConfiguration("w"))
            let running = Task { await worker.run() }
            let finished = try await eventually { try await queue.job(id: id)?.status.isFinished == true }
            running.cancel()
            await running.value

            #expect(finished)
            let record = try #require(try await queue.job(id: id))
            #expect(record.status == .succeeded)
            #expect(record.result == #"{"counted":3}"#)
            #expect(record.progressMessage == "step 3")
        }
    }

    @Test("a handler's error is retried; bad payloads fail at once", arguments: Backend.available)
    func failures(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            let owner = try await makeOwner(database)
            let queue = JobQueue(database: database.database, retry: JobRetryPolicy(maxAttempts: 3, baseDelay: 0, maxDelay: 0))
            let runs = Counter()
            var registry = JobHandlerRegistry()
            registry.register("flaky") { _, _ in
                let run = runs.next()
                struct Flake: Error {}
                if run < 3 { throw Flake() }
                return nil
            }
            registry.register("strict") { job, _ in
                struct Input: Decodable { var story: UUID }
                _ = try job.decodePayload(as: Input.self)
                return nil
            }
            let flaky = try await queue.enqueue(kind: "flaky", ownerID: owner).id
            let strict = try await queue.enqueue(kind: "strict", payload: #"{"story": 12}"#, ownerID: owner).id
            let worker = JobWorker(queue: queue, registry: registry, configuration: Self.fastConfiguration("w"))
            let running = Task { await worker.run() }
            let done = try await eventually {
                let a = try await queue.job(id: flaky)?.status.isFinished == true
                let b = try await queue.job(id: strict)?.status.isFinished == true
                return a && b
            }
            running.cancel()
            await running.value
            #expect(done)
            let flakyRecord = try #require(try await queue.job(id: flaky))
            #expect(flakyRecord.status == .succeeded)
            #expect(flakyRecord.attempts == 3)
            let strictRecord = try #require(try await queue.job(id: strict))
            #expect(strictRecord.status == .failed)
            #expect(strictRecord.attempts == 1)
            #expect(strictRecord.lastError?.contains("payload") == true)
        }
    }

    @Test("a crashed worker's job is finished by another after the lease expires", arguments: Backend.available)
    func crashRecovery(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            let owner = try await makeOwner(database)
            let queue = JobQueue(database: database.database)
            let id = try await queue.enqueue(kind: "render", ownerID: owner).id
            // A worker claims with a short lease and dies: no heartbeat, no result.
            let dead = try #require(try await queue.claim(workerID: "dead", leaseDuration: 0.3))
            #expect(dead.id == id)

            var registry = JobHandlerRegistry()
            registry.register("render") { job, context in
                try await context.reportProgress(1, message: "resumed on attempt \(job.attempt)")
                return nil
            }
            let worker = JobWorker(queue: queue, registry: registry, configuration: Self.fastConfiguration("rescuer"))
            let running = Task { await worker.run() }
            let finished = try await eventually { try await queue.job(id: id)?.status == .succeeded }
            running.cancel()
            await running.value
            #expect(finished)
            #expect(try await queue.job(id: id)?.progressMessage == "resumed on attempt 2")
        }
    }

    @Test("shutting down releases running jobs without spending an attempt", arguments: Backend.available)
    func gracefulShutdown(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            let owner = try await makeOwner(database)
            let queue = JobQueue(database: database.database)
            let id = try await queue.enqueue(kind: "long", ownerID: owner).id
            var registry = JobHandlerRegistry()
            registry.register("long") { _, context in
                try await context.reportProgress(0.1, message: "started")
                try await Task.sleep(for: .seconds(3600))
                return nil
            }
            let worker = JobWorker(queue: queue, registry: registry, configuration: Self.fastConfiguration("w"))
            let running = Task { await worker.run() }
            let started = try await eventually { try await queue.job(id: id)?.progressMessage == "started" }
            #expect(started)
            running.cancel()
            await running.value

            let record = try #require(try await queue.job(id: id))
            #expect(record.status == .queued)
            #expect(record.attempts == 0)
            #expect(record.leaseOwner == nil)
            #expect(try await queue.claim(workerID: "next", leaseDuration: 30)?.attempt == 1)
        }
    }

    @Test("snapshots follow a job until it finishes", arguments: Backend.available)
    func snapshots(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            let owner = try await makeOwner(database)
            let queue = JobQueue(database: database.database)
            let id = try await queue.enqueue(kind: "k", ownerID: owner).id
            let stream = queue.snapshots(id: id, ownerID: owner, pollInterval: .milliseconds(10))
            let reader = Task { try await stream.reduce(into: [JobSnapshot]()) { $0.append($1) } }

            let claimed = try #require(try await queue.claim(workerID: "w", leaseDuration: 30))
            try await queue.reportProgress(claimed.lease, fraction: 0.5, message: "half")
            try await queue.complete(claimed.lease)
            let seen = try await reader.value

            #expect(seen.first?.status == .queued || seen.first?.status == .running)
            #expect(seen.last?.status == .succeeded)
            #expect(seen.contains { $0.message == "half" })
            #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 != $1 })
        }
    }
}
