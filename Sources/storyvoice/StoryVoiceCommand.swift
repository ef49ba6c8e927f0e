import ArgumentParser
import Foundation
import Logging
import ProcessWorkers

@main
struct StoryVoiceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storyvoice",
        abstract: "Turn stories into performances: a voice for every character.",
        version: "0.1.0",
        subcommands: [Narrate.self, Analyze.self, Chat.self, Journey.self, Voices.self, Say.self, Ask.self, Models.self, Doctor.self, Serve.self, WorkerCommand.self, Admin.self, Bench.self]
    )

    /// Logs go to stderr at `warning` and above unless `STORYVOICE_LOG_LEVEL` says otherwise,
    /// so a command's own output stays readable.
    static func main() async {
        let level = ProcessInfo.processInfo.environment["STORYVOICE_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .warning
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        // Before any descriptor can run out: see DispatchTimers.
        await DispatchTimers.arm()
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
