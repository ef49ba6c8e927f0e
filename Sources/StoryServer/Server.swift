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

    /// The web app that travels with the binary, wherever the server is started from: the
    /// first `Public/` holding `index.html` beside the executable or in a folder above it (the
    /// checkout a `.build/…/storyvoice` was built in), else the working directory's.
    /// `STORYVOICE_PUBLIC_DIR` overrides it (`ServerConfig.fromEnvironment`).
    public static var defaultPublicDirectory: URL {
        let fallback = URL(fileURLWithPath: DirectoryConfiguration.detect().publicDirectory, isDirectory: true)
        guard let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() else { return fallback }
        return publicDirectory(near: executable) ?? fallback
    }

    static func publicDirectory(near executable: URL) -> URL? {
        var directory = executable.deletingLastPathComponent()
        for _ in 0..<6 {
            let candidate = directory.appendingPathComponent("Public", isDirectory: true)
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("index.html").path) { return candidate }
            let parent = directory.deletingLastPathComponent()
            if parent.path == directory.path { break }
            directory = parent
        }
        return nil
    }
}
