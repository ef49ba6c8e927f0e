import FluentKit
import FluentSQL
import Foundation
@_spi(Fluent) import Persistence
import Testing

@Suite("SQLite under contention")
struct SQLiteLockTests {
    /// Two handles on one file (as a server and a worker or a test have): while one holds the
    /// write lock in a transaction, the other's writers wait for it. Sharing two threads, the
    /// waiters took both and the transaction could never run its next statement: every database
    /// in the process stood still (the stall of `make test` on two cores).
    @Test("writers waiting for a lock never stop the transaction that holds it")
    func waitersDoNotStarveTheHolder() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-lock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let location = DatabaseLocation.sqlite(path: directory.appendingPathComponent("locks.sqlite").path)
        let holder = try StoryDatabase(location: location)
        let others = try StoryDatabase(location: location)
        try await sql(holder.database.fluent).raw("CREATE TABLE marks (who TEXT NOT NULL)").run()

        let completion = Completion()
        let work = Task {
            do { try await contend() } catch { await completion.finish(); throw error }
            await completion.finish()
        }
        @Sendable func contend() async throws {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await holder.database.fluent.transaction { db in
                        try await sql(db).raw("INSERT INTO marks VALUES ('holder')").run()
                        // The lock is held; the waiters start now and take what threads they can.
                        try await Task.sleep(for: .milliseconds(500))
                        for _ in 0..<5 { try await sql(db).raw("INSERT INTO marks VALUES ('holder')").run() }
                    }
                }
                try await Task.sleep(for: .milliseconds(100))
                for _ in 0..<4 {
                    group.addTask { try await sql(others.database.fluent).raw("INSERT INTO marks VALUES ('other')").run() }
                }
                try await group.waitForAll()
            }
        }
        // A stall is forever (spinning threads cannot be cancelled), so the test waits for the
        // work with a backstop rather than awaiting it; the work takes well under a second.
        var finished = false
        for _ in 0..<1200 where !finished {
            try await Task.sleep(for: .milliseconds(100))
            finished = await completion.done
        }
        #expect(finished, "the writers stalled")
        guard finished else { return }
        try await work.value
        let rows = try await sql(holder.database.fluent).raw("SELECT who FROM marks").all()
        #expect(rows.count == 10)
        await others.shutdown()
        await holder.shutdown()
    }
}

private func sql(_ database: any Database) throws -> any SQLDatabase {
    try #require(database as? any SQLDatabase)
}

private actor Completion {
    private(set) var done = false
    func finish() { done = true }
}
