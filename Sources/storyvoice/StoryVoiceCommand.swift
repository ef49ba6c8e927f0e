import ArgumentParser

@main
struct StoryVoiceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storyvoice",
        abstract: "Turn stories into performances: a voice for every character.",
        version: "0.1.0",
        subcommands: [Narrate.self, Analyze.self, Voices.self, Say.self, Doctor.self, Bench.self]
    )
}
