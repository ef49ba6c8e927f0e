import ArgumentParser
import Bootstrap
import Foundation
import StoryWorkflows

/// `storyvoice worker`: analyses and renders stories, makes chat-story videos, tells and
/// exports journeys, and places scheduled calls and applies App Store notifications, queued by
/// `storyvoice serve`.
struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Run story jobs (analyse, render), chat-story videos, journeys (tell, export) and calls (scheduled, App Store) for a StoryVoice server.",
        discussion: """
            Uses the same STORYVOICE_DATA_DIR, DATABASE_URL, STORYVOICE_S3_URL and Twilio and App Store settings as \
            'storyvoice serve'. Start the server with --workers 0 when workers run separately; several workers may \
            share one PostgreSQL database (docs/deploy.md).
            """)

    @Option(help: "Jobs to run at once.")
    var concurrency = 1

    @OptionGroup var lease: LeaseOptions

    func validate() throws {
        if concurrency < 1 { throw ValidationError("--concurrency must be at least 1.") }
    }

    func run() async throws {
        ParentWatch.startIfAsked()
        // The same parts, built the same way, as the server's: the jobs run here as they would there.
        let services = try await LiveServices.live(localModel: LocalModels.server)
        let voices = await services.narration?.voices().count ?? 0
        guard voices > 0 else {
            throw UserFacingError("No speech engine is installed; install espeak-ng, flite or festival (see 'storyvoice doctor').")
        }
        print("StoryVoice worker running \(concurrency) job(s) at once with \(voices) voices.")
        try await StoryWorker.run(
            registry: services.jobs(), dataDirectory: services.dataDirectory, configuration: lease.workerConfiguration(concurrency: concurrency))
    }
}
