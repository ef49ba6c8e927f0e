import ArgumentParser
import Foundation
import StoryServer

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the StoryVoice server and web app.",
        discussion: """
            Data lives in STORYVOICE_DATA_DIR (default ~/.local/share/storyvoice): a SQLite database, \
            unless DATABASE_URL names a PostgreSQL one, and the server's secret key.
            """)

    @Option(help: "The port to listen on.")
    var port = 8080

    @Option(help: "The address to listen on (0.0.0.0 for every interface).")
    var hostname = "127.0.0.1"

    @Option(help: "Job workers to run inside the server (0 when 'storyvoice worker' processes do the work).")
    var workers = 1

    func run() async throws {
        var config = try ServerConfig.fromEnvironment(publicDirectory: Server.defaultPublicDirectory)
        config.inProcessWorkers = workers
        config.narration = try await LocalNarration.make(dataDirectory: config.dataDirectory.url)
        print("StoryVoice is starting on http://\(hostname == "0.0.0.0" ? "localhost" : hostname):\(port)")
        try await Server.run(config: config, port: port, hostname: hostname)
    }
}
