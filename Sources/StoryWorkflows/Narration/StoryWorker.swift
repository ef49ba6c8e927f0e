import Foundation
import ProcessWorkers
import LanguageModels
import Jobs
import ObjectStorage
import Narration
import Persistence

/// `storyvoice worker`: runs the story jobs in their own process, against the database the
/// server uses (the data directory's SQLite, or `DATABASE_URL`).
public enum StoryWorker {
    /// The data directory the environment names (created if missing): where the worker's
    /// narration keeps its segment cache.
    public static func dataDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> URL {
        let directory = DataDirectory.resolve(environment: environment)
        try directory.create()
        return directory.url
    }

    /// Removes what killed exports left in `dataDirectory` (not files being written now, which
    /// another process sharing the directory may own). Returns the bytes freed.
    @discardableResult
    public static func sweepLeftovers(dataDirectory: URL) -> Int64 {
        // And the logs of workers whose StoryVoice was killed.
        Leftovers.sweep(dataDirectory: dataDirectory) + WorkerLogs.sweep()
    }

    /// Runs `configuration.concurrency` job loops of `registry` (every product's jobs:
    /// `LiveServices.jobs`) until SIGINT or SIGTERM, after sweeping what killed exports left in
    /// `dataDirectory`; running jobs are then released for another worker to resume.
    public static func run(
        registry: JobHandlerRegistry, dataDirectory: DataDirectory, configuration: JobWorker.Configuration,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws {
        sweepLeftovers(dataDirectory: dataDirectory.url)
        try await Worker.run(registry: registry, configuration: configuration, environment: environment)
    }
}
