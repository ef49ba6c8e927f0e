import ArgumentParser
import Bootstrap
import Foundation
import StoryWorkflows
import Jobs
import ObjectStorage
import StoryServer
import StoryText
import SpeechEngines

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the StoryVoice server and web app.",
        discussion: """
            Data lives in STORYVOICE_DATA_DIR (default ~/.local/share/storyvoice): a SQLite database, \
            unless DATABASE_URL names a PostgreSQL one, and the server's secret key. \
            STORYVOICE_ENGINES=espeak-ng,flite limits the speech engines used.
            """)

    @Option(help: "The port to listen on.")
    var port = 8080

    @Option(help: "The address to listen on (0.0.0.0 for every interface).")
    var hostname = "127.0.0.1"

    @Option(help: "Job workers to run inside the server (0 when 'storyvoice worker' processes do the work).")
    var workers = 1

    @Option(help: "A story file (txt, md, html, epub) put in every new account's library and analysed.")
    var welcomeStory: String?

    @OptionGroup var lease: LeaseOptions

    func validate() throws {
        if workers < 0 { throw ValidationError("--workers cannot be negative.") }
        if let welcomeStory, !FileManager.default.isReadableFile(atPath: welcomeStory) {
            throw ValidationError("The welcome story '\(welcomeStory)' cannot be read.")
        }
    }

    func run() async throws {
        ParentWatch.startIfAsked()
        var config = try ServerConfig.fromEnvironment(publicDirectory: Server.defaultPublicDirectory)
        config.inProcessWorkers = workers
        config.workerConfiguration = lease.workerConfiguration(concurrency: workers)
        config.welcomeStory = welcomeStory.map { URL(fileURLWithPath: $0) }
        if let problem = config.dataDirectory.writeProblem() { throw UserFacingError(problem) }
        // The same parts, built the same way, as a `storyvoice worker`'s (Bootstrap).
        config.use(try await LiveServices.live(dataDirectory: config.dataDirectory, secret: config.secret, localModel: LocalModels.server))
        // Voice chat's ears: faster-whisper when setup installed it (loaded on first use). A turn
        // waits on it, so it gets every core: 0.91 s for a short question with 2 threads, 1.65 s with 1.
        config.transcriber = WhisperTranscriber.Configuration.locate(threads: ProcessInfo.processInfo.activeProcessorCount)
            .map(WhisperTranscriber.init)
        let address = "http://\(["0.0.0.0", "127.0.0.1"].contains(hostname) ? "localhost" : hostname):\(port)"
        print("StoryVoice is starting on \(address)")
        if let story = config.welcomeStory {
            // Read it once now: a broken welcome story is reported at start, not at each registration.
            let title = try StoryImporter.load(data: Data(contentsOf: story), filename: story.lastPathComponent).title
            print("Open \(address) and create an account: \"\(title)\" will be in your library, ready to play. Ctrl-C stops the server.")
        }
        // Say so now even when stdout is a pipe or a log file, not when the server stops.
        fflush(nil)
        try await Server.run(config: config, port: port, hostname: hostname)
    }
}

/// How long a worker holds a job without a heartbeat before another worker may resume it.
struct LeaseOptions: ParsableArguments {
    @Option(help: "Seconds a running job stays leased without a heartbeat; after a crash it is resumed this long later.")
    var leaseSeconds = 60

    func validate() throws {
        if leaseSeconds < 2 { throw ValidationError("--lease-seconds must be at least 2.") }
    }

    /// Heartbeats come four times per lease, so one missed beat never loses the job.
    func workerConfiguration(concurrency: Int) -> JobWorker.Configuration {
        JobWorker.Configuration(
            concurrency: concurrency, leaseDuration: .seconds(leaseSeconds),
            heartbeatInterval: .milliseconds(leaseSeconds * 250))
    }
}
