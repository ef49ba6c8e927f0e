import Dispatch
import Foundation
import Logging
import Persistence

/// `storyvoice worker`: a process that only runs jobs, against the same database as the server
/// (SQLite in the data directory, or PostgreSQL from `DATABASE_URL` so workers on several
/// machines share one queue).
public enum Worker {
    /// Opens the database, applies migrations, and runs `configuration.concurrency` job loops
    /// until SIGINT or SIGTERM. On a signal, running jobs are released to the queue and the
    /// function returns once they are.
    public static func run(
        registry: JobHandlerRegistry,
        configuration: JobWorker.Configuration = .init(),
        environment: [String: String] = ProcessInfo.processInfo.environment,
        logger: Logger = Logger(label: "storyvoice.worker")
    ) async throws {
        let dataDirectory = DataDirectory.resolve(environment: environment)
        try dataDirectory.create()
        let location = DatabaseLocation.resolve(environment: environment, dataDirectory: dataDirectory)
        let database = try StoryDatabase(location: location, logger: logger)
        do {
            try await ConcurrentMigration.run { try await database.migrate() }
            logger.info("worker using \(location.redactedDescription)")
            // The lanes the server has: `configuration.concurrency` long jobs at once, beside
            // two live and one quick.
            let workers = JobWorker.lanes(
                queue: JobQueue(database: database.database), registry: registry, configuration: configuration,
                concurrency: [.long: configuration.concurrency, .live: 2, .quick: 1], logger: logger)
            let task = Task {
                await withTaskGroup(of: Void.self) { group in
                    for worker in workers { group.addTask { await worker.run() } }
                }
            }
            let signals = SignalCancellation(signals: [SIGINT, SIGTERM]) { task.cancel() }
            await task.value
            signals.stop()
        } catch {
            await database.shutdown()
            throw error
        }
        await database.shutdown()
    }
}

/// Calls `onSignal` when one of `signals` arrives, instead of the default (terminate).
// The sources are fixed at init and DispatchSource is thread-safe.
final class SignalCancellation: @unchecked Sendable {
    private let sources: [any DispatchSourceSignal]

    init(signals: [Int32], onSignal: @escaping @Sendable () -> Void) {
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: onSignal)
            source.resume()
            return source
        }
    }

    func stop() {
        for source in sources { source.cancel() }
    }
}
