import Foundation

/// Runs migrations that another process may be running at the same moment (a server and a
/// worker started together on a new database): the loser of that race fails with "table already
/// exists", and a moment later finds the migrations recorded and has nothing left to do.
public enum ConcurrentMigration {
    public static func run(attempts: Int = 5, delay: Duration = .milliseconds(400), _ migrate: () async throws -> Void) async throws {
        var attempt = 1
        while true {
            do {
                return try await migrate()
            } catch {
                guard attempt < attempts else { throw error }
                attempt += 1
                try await Task.sleep(for: delay)
            }
        }
    }
}
