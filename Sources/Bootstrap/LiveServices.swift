import CallWorkflows
import ChatWorkflows
import Foundation
import Jobs
import JourneyWorkflows
import LanguageModels
import ObjectStorage
import Persistence
import Platform
import StoryWorkflows

/// The live parts of one StoryVoice process, built from its environment the same way by
/// `storyvoice serve` and `storyvoice worker` (issue 50): the data directory, the secret, model
/// access (with the configured prices), the local voices sharing lines through the store, where
/// finished files are kept, and the calls' Twilio and App Store services. `jobs()` is the one
/// registry of every product's jobs, for in-process and separate workers alike.
public struct LiveServices: Sendable {
    public var dataDirectory: DataDirectory
    public var secret: ServerSecret
    public var models: ModelAccess
    /// The voices (nil in tests without any): without it no story or journey jobs run.
    public var narration: (any NarrationService)?
    public var artifacts: any ArtifactStore
    public var calls: CallServices
    /// ffmpeg for chat videos; nil looks it up on PATH.
    public var chatFFmpegPath: String?
    /// Journey openings the server's model writes while a plan is shown (per process: a
    /// separate worker has its own, empty).
    public var journeyOpenings: PreparedOpenings?

    public init(
        dataDirectory: DataDirectory, secret: ServerSecret, models: ModelAccess, narration: (any NarrationService)?,
        artifacts: (any ArtifactStore)? = nil, calls: CallServices = CallServices(), chatFFmpegPath: String? = nil,
        journeyOpenings: PreparedOpenings? = nil
    ) {
        self.dataDirectory = dataDirectory
        self.secret = secret
        self.models = models
        self.narration = narration
        self.artifacts = artifacts ?? DirectoryStore(root: dataDirectory.url)
        self.calls = calls
        self.chatFFmpegPath = chatFFmpegPath
        self.journeyOpenings = journeyOpenings
    }

    /// From the environment: `STORYVOICE_DATA_DIR` (created when missing), the secret,
    /// `STORYVOICE_PRICES`, the providers' base URLs, the shared store (`STORYVOICE_S3_*`; the
    /// bucket is created when missing), `TWILIO_*` and `APP_STORE_*`. A setting that cannot be
    /// used throws, so nothing starts half configured.
    public static func live(
        environment: [String: String] = ProcessInfo.processInfo.environment, dataDirectory: DataDirectory? = nil, secret: ServerSecret? = nil,
        localModel: (any LocalModelHost)? = nil
    ) async throws -> LiveServices {
        let dataDirectory = dataDirectory ?? DataDirectory.resolve(environment: environment)
        try dataDirectory.create()
        let secret = try secret ?? ServerSecret.load(environment: environment, dataDirectory: dataDirectory)
        var models = ModelAccess.make(environment: environment, secret: secret, dataDirectory: dataDirectory, local: localModel)
        models.prices = try PriceTable.configured(environment: environment, defaultFile: dataDirectory.url.appendingPathComponent("prices.json"))
        let calls = try CallServices.fromEnvironment(environment)
        let (segments, artifacts) = try await stores(environment, dataDirectory: dataDirectory)
        return LiveServices(
            dataDirectory: dataDirectory, secret: secret, models: models,
            narration: try await LocalNarration.make(dataDirectory: dataDirectory.url, shared: segments), artifacts: artifacts, calls: calls,
            journeyOpenings: PreparedOpenings())
    }

    /// The shared store for lines and for finished files (one bucket, created once when
    /// missing), or the data directory alone; a store that is set and cannot be used says so.
    static func stores(_ environment: [String: String], dataDirectory: DataDirectory) async throws -> (S3SegmentStore?, any ArtifactStore) {
        do {
            guard let location = try S3Location.fromEnvironment(environment) else { return (nil, DirectoryStore(root: dataDirectory.url)) }
            let files = S3Client(location: location)
            try await files.createBucket()
            // A line is a few hundred kilobytes: a store slower than 10 s is not one to wait on.
            return (S3SegmentStore(client: S3Client(location: location, timeout: .seconds(10))), BucketStore(client: files))
        } catch {
            throw SharedStoreUnusable(error)
        }
    }

    /// Every product's jobs: stories (analyse, render, suggest voices) and journeys (tell,
    /// export) where there are voices, chat videos, and calls (scheduled, App Store).
    public func jobs() -> JobHandlerRegistry {
        var registry = JobHandlerRegistry()
        if let narration {
            registry = StoryJobs.registry(dataDirectory: dataDirectory, artifacts: artifacts, narration: narration, models: models)
            JourneyJobs.register(
                in: &registry, dataDirectory: dataDirectory, artifacts: artifacts, narration: narration, models: models, openings: journeyOpenings)
        }
        ChatJobs.register(in: &registry, dataDirectory: dataDirectory, artifacts: artifacts, ffmpegPath: chatFFmpegPath)
        CallJobs.register(in: &registry, services: calls)
        return registry
    }
}

/// The shared store is set but cannot be used (a malformed setting, a store that refuses or
/// does not answer): the process does not start, rather than keep files on one machine unasked.
public struct SharedStoreUnusable: Error, CustomStringConvertible {
    public var reason: String

    public init(_ error: any Error) {
        if let error = error as? S3Error, error.code == "InvalidConfiguration" {
            reason = error.message
        } else {
            reason = "\(error)"
        }
    }

    public var description: String {
        "The shared store cannot be used: \(reason). Check its address and keys, or unset it to keep files on this machine only."
    }
}
