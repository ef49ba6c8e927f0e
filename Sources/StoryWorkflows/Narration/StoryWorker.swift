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

    /// Runs `configuration.concurrency` job loops until SIGINT or SIGTERM; running jobs are
    /// then released for another worker to resume. `otherJobs` adds the other product areas'
    /// handlers (chat-story videos, journeys), which live in modules above this one, with the
    /// worker's data directory and model access. Finished files are kept in `artifacts` (nil:
    /// the data directory).
    public static func run(
        narration: any NarrationService, artifacts: (any ArtifactStore)? = nil, configuration: JobWorker.Configuration,
        localModel: (any LocalModelHost)? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
        otherJobs: (inout JobHandlerRegistry, DataDirectory, ModelAccess) -> Void = { _, _, _ in }
    ) async throws {
        let directory = DataDirectory.resolve(environment: environment)
        sweepLeftovers(dataDirectory: directory.url)
        let secret = try ServerSecret.load(environment: environment, dataDirectory: directory)
        let models = ModelAccess.make(environment: environment, secret: secret, dataDirectory: directory, local: localModel)
        var registry = StoryJobs.registry(dataDirectory: directory, artifacts: artifacts, narration: narration, models: models)
        otherJobs(&registry, directory, models)
        try await Worker.run(registry: registry, configuration: configuration, environment: environment)
    }
}
