import DatabaseTestSupport
import Foundation
import Jobs
import Persistence
import Testing

@Suite("Job cancellation and fairness")
struct JobCancellationTests {
    @Test("a cancelled queued job never runs; another user cannot cancel it", arguments: Backend.available)
    func cancelQueued(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            let owner = try await makeOwner(database)
            let stranger = try await makeOwner(database, email: "stranger@example.com")
            let queue = JobQueue(database: database.database)
            let id = try await queue.enqueue(kind: "work", ownerID: owner).id

            #expect(try await queue.cancel(id: id, ownerID: stranger) == nil)
            #expect(try await queue.job(id: id)?.status == .queued)
            #expect(try await queue.cancel(id: id, ownerID: owner)?.status == .cancelled)
            #expect(try await queue.claim(workerID: "w", leaseDuration: 30) == nil)
        }
    }

    @Test("a running job's handler is stopped once its owner cancels it", arguments: Backend.available)
    func cancelRunning(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            let owner = try await makeOwner(database)
            let queue = JobQueue(database: database.database)
            let id = try await queue.enqueue(kind: "long", ownerID: owner).id
            let stopped = Counter()
            var registry = JobHandlerRegistry()
            registry.register("long") { _, context in
                try await context.reportProgress(0.1, message: "started")
                do {
                    try await Task.sleep(for: .seconds(3600))
                } catch {
                    _ = stopped.next()
                    throw error
                }
                return nil
            }
            let configuration = JobWorker.Configuration(
                workerID: "w", leaseDuration: .seconds(120), heartbeatInterval: .seconds(60), pollInterval: .milliseconds(20),
                cancelCheckInterval: .milliseconds(50))
            let worker = JobWorker(queue: queue, registry: registry, configuration: configuration)
            let running = Task { await worker.run() }
            #expect(try await eventually { try await queue.job(id: id)?.progressMessage == "started" })

            #expect(try await queue.cancel(id: id, ownerID: owner)?.status == .cancelled)
            // Well before the next heartbeat (60 s): the cancellation check stops the handler.
            #expect(try await eventually { stopped.current == 1 })
            running.cancel()
            await running.value
            let record = try #require(try await queue.job(id: id))
            #expect(record.status == .cancelled)
            #expect(record.finishedAt != nil)
            // Finished jobs stay finished.
            #expect(try await queue.cancel(id: id, ownerID: owner)?.status == .cancelled)
        }
    }

    @Test("one user's ten long exports do not hold up another's analysis: it runs in its own lane at once", arguments: Backend.available)
    func lanes(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            let ada = try await makeOwner(database)
            let bob = try await makeOwner(database, email: "bob@example.com")
            let queue = JobQueue(database: database.database)
            let exportsRunning = Counter(), analysed = Counter()
            var registry = JobHandlerRegistry()
            registry.register("export") { _, _ in
                _ = exportsRunning.next()
                try await Task.sleep(for: .seconds(3600))
                return nil
            }
            registry.register("analyze", lane: .quick) { _, _ in
                _ = analysed.next()
                return nil
            }
            for _ in 0..<10 { try await queue.enqueue(kind: "export", ownerID: ada) }
            let analysis = try await queue.enqueue(kind: "analyze", ownerID: bob).id
            let configuration = JobWorker.Configuration(
                workerID: "w", leaseDuration: .seconds(120), heartbeatInterval: .seconds(60), pollInterval: .milliseconds(20))
            let workers = JobWorker.lanes(queue: queue, registry: registry, configuration: configuration, concurrency: [.long: 1, .quick: 1])
            #expect(workers.count == 2)
            let running = Task { await withTaskGroup(of: Void.self) { group in for worker in workers { group.addTask { await worker.run() } } } }
            #expect(try await eventually { try await queue.job(id: analysis)?.status == .succeeded })
            #expect(exportsRunning.current == 1, "the long lane took one export; the analysis did not wait for it")
            #expect(analysed.current == 1)
            running.cancel()
            await running.value
        }
    }

    @Test("a job that runs past its kind's time limit is stopped and fails, saying so", arguments: Backend.available)
    func timeLimit(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            let owner = try await makeOwner(database)
            let queue = JobQueue(database: database.database)
            let id = try await queue.enqueue(kind: "video", ownerID: owner).id
            let stopped = Counter()
            var registry = JobHandlerRegistry()
            registry.register("video", timeLimit: .milliseconds(200)) { _, _ in
                do { try await Task.sleep(for: .seconds(3600)) } catch { _ = stopped.next(); throw error }
                return nil
            }
            let configuration = JobWorker.Configuration(
                workerID: "w", leaseDuration: .seconds(120), heartbeatInterval: .seconds(60), pollInterval: .milliseconds(20))
            let running = Task { await JobWorker(queue: queue, registry: registry, configuration: configuration).run() }
            #expect(try await eventually { try await queue.job(id: id)?.status == .failed })
            #expect(stopped.current == 1)
            let record = try #require(try await queue.job(id: id))
            #expect(record.lastError?.contains("longer than") == true, "\(record.lastError ?? "")")
            #expect(record.attempts == 1, "not retried")
            running.cancel()
            await running.value
        }
    }

    @Test("claims go to the user with the fewest running jobs, then the oldest", arguments: Backend.available)
    func fairClaims(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            let busy = try await makeOwner(database)
            let patient = try await makeOwner(database, email: "patient@example.com")
            let clock = TestClock()
            let queue = JobQueue(database: database.database, now: clock.function)
            let first = try await queue.enqueue(kind: "work", ownerID: busy).id
            clock.advance(by: 1)
            let second = try await queue.enqueue(kind: "work", ownerID: busy).id
            clock.advance(by: 1)
            let other = try await queue.enqueue(kind: "work", ownerID: patient).id
            clock.advance(by: 1)

            #expect(try await queue.claim(workerID: "a", leaseDuration: 60)?.id == first)
            // `busy` has a job running: `patient`'s younger job goes before `busy`'s second.
            #expect(try await queue.claim(workerID: "b", leaseDuration: 60)?.id == other)
            #expect(try await queue.claim(workerID: "c", leaseDuration: 60)?.id == second)
        }
    }
}
