import Foundation
import Vapor

/// Runs the StoryVoice server: the entry point for `storyvoice serve`.
public enum Server {
    /// Configures an application from `config` and serves on `hostname:port` until SIGINT or
    /// SIGTERM, then shuts down (releasing in-process jobs) and returns.
    ///
    /// Vapor's own command-line parsing is bypassed (the CLI has already parsed its arguments).
    public static func run(config: ServerConfig, port: Int = 8080, hostname: String = "127.0.0.1") async throws {
        let environment = Environment(name: Environment.get("STORYVOICE_ENV") ?? "production", arguments: ["storyvoice"])
        let app = try await Application.make(environment)
        app.http.server.configuration.hostname = hostname
        app.http.server.configuration.port = port
        do {
            try await configure(app, config)
            app.logger.notice("StoryVoice is serving on http://\(hostname):\(port) (\(config.database.redactedDescription))")
            try await app.execute()
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
        try await app.asyncShutdown()
    }

    /// The `Public/` directory next to the working directory, where `make run` starts.
    public static var defaultPublicDirectory: URL {
        URL(fileURLWithPath: DirectoryConfiguration.detect().publicDirectory, isDirectory: true)
    }
}
