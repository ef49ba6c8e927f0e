import Foundation

/// Runs migrations that another process may be running at the same moment (a server and a
/// worker started together on a new database): the loser of that race fails with "table (or
/// column) already exists", and a while later finds the migrations recorded and has nothing
/// left to do. The waits grow (with jitter, so two losers do not retry in step) and add up to
/// about a minute: on a loaded two-core machine the winner's batch once took longer than the
/// two seconds the retries used to cover.
public enum ConcurrentMigration {
    public static func run(attempts: Int = 20, delay: Duration = .milliseconds(400), _ migrate: () async throws -> Void) async throws {
        var attempt = 1
        var wait = delay
        while true {
            do {
                return try await migrate()
            } catch {
                guard attempt < attempts else { throw error }
                attempt += 1
                try await Task.sleep(for: wait * Double.random(in: 0.75...1.25))
                wait = min(wait * 1.5, .seconds(4))
            }
        }
    }
}
