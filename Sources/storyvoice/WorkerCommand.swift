import ArgumentParser
import CallWorkflows
import ChatWorkflows
import Foundation
import JourneyWorkflows
import ObjectStorage
import StoryWorkflows

/// `storyvoice worker`: analyses and renders stories, makes chat-story videos, tells and
/// exports journeys, and places scheduled calls and applies App Store notifications, queued by
/// `storyvoice serve`.
struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Run story jobs (analyse, render), chat-story videos, journeys (tell, export) and calls (scheduled, App Store) for a StoryVoice server.",
        discussion: """
            Uses the same STORYVOICE_DATA_DIR and DATABASE_URL as 'storyvoice serve'. Start the server with \
            --workers 0 when workers run separately; several workers may share one PostgreSQL database.
            """)

    @Option(help: "Jobs to run at once.")
    var concurrency = 1

    @OptionGroup var lease: LeaseOptions

    func validate() throws {
        if concurrency < 1 { throw ValidationError("--concurrency must be at least 1.") }
    }

    func run() async throws {
        ParentWatch.startIfAsked()
        // The same Twilio and App Store settings as the server: a scheduled call is placed here.
        let calls = try CallServices.fromEnvironment(ProcessInfo.processInfo.environment)
        let dataDirectory = try StoryWorker.dataDirectory()
        let narration = try await LocalNarration.make(dataDirectory: dataDirectory, shared: try await SharedStore.segments())
        let artifacts = try await SharedStore.artifacts(dataDirectory: dataDirectory)
        guard !narration.catalog.voices.isEmpty else {
            throw UserFacingError("No speech engine is installed; install espeak-ng, flite or festival (see 'storyvoice doctor').")
        }
        print("StoryVoice worker running \(concurrency) job(s) at once with \(narration.catalog.voices.count) voices.")
        try await StoryWorker.run(
            narration: narration, artifacts: artifacts, configuration: lease.workerConfiguration(concurrency: concurrency), localModel: LocalModels.server
        ) { registry, directory, models in
            ChatJobs.register(in: &registry, dataDirectory: directory, artifacts: artifacts)
            JourneyJobs.register(in: &registry, dataDirectory: directory, artifacts: artifacts, narration: narration, models: models)
            CallJobs.register(in: &registry, services: calls)
        }
    }
}
