import ArgumentParser
import ChatStories
import ChatVideo
import ChatWorkflows
import Foundation
import LanguageModels

/// `storyvoice chat`: chat stories (text conversations as typing videos).
struct Chat: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Chat stories: text conversations made into typing videos.",
        subcommands: [ChatRender.self, ChatGenerate.self]
    )
}

struct ChatRender: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Make a conversation file (*.chat.json, see docs/chat-stories.md) into an MP4 video.",
        discussion: "Example: storyvoice chat render examples/left-on-read.chat.json -o story.mp4 --format tiktok"
    )

    @Argument(help: "The conversation, a JSON file (see examples/*.chat.json).")
    var conversation: String

    @Option(name: .shortAndLong, help: "The video to write (.mp4).")
    var output: String

    @Option(help: "tiktok (1080×1920), instagram (1080×1080) or youtube (1920×1080).")
    var format: String = "tiktok"

    @Option(help: "Frames a second: 30 or 60.")
    var fps: Int = 30

    @Option(help: "The look: imessage, whatsapp, messenger or discord (default: the file's).")
    var theme: String?

    @Option(help: "Typing speed: slow, normal or fast.")
    var speed: String = "normal"

    @Flag(help: "Dark mode.")
    var dark = false

    @Flag(name: .customLong("no-keyboard"), help: "Hide the keyboard while the sender types.")
    var noKeyboard = false

    @Flag(name: .customLong("no-indicator"), help: "No \"…\" before received messages.")
    var noIndicator = false

    @Flag(name: .customLong("no-sounds"), help: "A silent video (no sound track).")
    var noSounds = false

    @Flag(help: "Mark the video \"Made with StoryVoice\".")
    var watermark = false

    func validate() throws {
        guard output.lowercased().hasSuffix(".mp4") else { throw ValidationError("'\(output)': the output must end in .mp4.") }
        guard VideoFormat(rawValue: format) != nil else {
            throw ValidationError("'\(format)' is not a format; choose \(VideoFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        guard ChatExportSettings.frameRates.contains(fps) else { throw ValidationError("--fps must be 30 or 60.") }
        if let theme, ChatTheme(rawValue: theme) == nil {
            throw ValidationError("'\(theme)' is not a look; choose \(ChatTheme.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        guard TypingSpeed(rawValue: speed) != nil else { throw ValidationError("--speed must be slow, normal or fast.") }
    }

    func run() async throws {
        let input = URL(fileURLWithPath: conversation)
        let data: Data
        do {
            data = try Data(contentsOf: input)
        } catch {
            throw ValidationError("'\(conversation)' could not be read: \(error.localizedDescription)")
        }
        var story = try ChatConversation.decodeFile(data)
        if let theme { story.theme = ChatTheme(rawValue: theme)! }
        let settings = ChatExportSettings(
            format: VideoFormat(rawValue: format)!, typingSpeed: TypingSpeed(rawValue: speed)!, keyboard: !noKeyboard,
            typingIndicator: !noIndicator, sounds: !noSounds, dark: dark, fps: fps, watermark: watermark
        )
        let bar = ProgressBar(enabled: Terminal.isStandardErrorInteractive, stream: .standardError)
        let started = ContinuousClock.now
        let summary = try await ChatVideoExporter().export(story, settings: settings, to: URL(fileURLWithPath: output)) { progress in
            bar.update(fraction: progress.fraction, label: "Rendering", detail: "frame \(progress.frame)/\(progress.frameCount)")
        }
        bar.finish()
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let length = Double(summary.durationMS) / 1000
        print("Wrote \(output): \(Format.duration(length)), \(settings.format.width)×\(settings.format.height) at \(fps) fps, "
            + "\(summary.frameCount) frames (\(summary.framesDrawn) drawn) in \(String(format: "%.1f", seconds)) s "
            + "(\(String(format: "%.1f", length / max(seconds, 0.001)))× real time).")
    }
}

struct ChatGenerate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write a conversation from a prompt with a language model, as a *.chat.json file.",
        discussion: "Example: storyvoice chat generate \"my roommate keeps eating my food\" --genre comedy --mood funny -o roommate.chat.json"
    )

    @Argument(help: "What the conversation is about.")
    var prompt: String

    @Option(name: .shortAndLong, help: "The conversation file to write (.json).")
    var output: String

    @Option(help: "drama, comedy, romance, horror or mystery.")
    var genre: String = "drama"

    @Option(help: "funny, dramatic, scary or romantic.")
    var mood: String = "dramatic"

    @Option(help: "short (5–10 messages), medium (10–20) or long (20–30).")
    var length: String = "short"

    @Option(help: "How many people, \"me\" included (2–6).")
    var characters: Int = 2

    @Option(help: "local (the default, on this machine), openai:MODEL, anthropic:MODEL, gemini:MODEL or openai-compatible:MODEL@URL.")
    var model: String = "local"

    func validate() throws {
        guard ChatGenre(rawValue: genre) != nil else { throw ValidationError("--genre must be one of \(ChatGenre.allCases.map(\.rawValue).joined(separator: ", ")).") }
        guard ChatMood(rawValue: mood) != nil else { throw ValidationError("--mood must be one of \(ChatMood.allCases.map(\.rawValue).joined(separator: ", ")).") }
        guard ChatLength(rawValue: length) != nil else { throw ValidationError("--length must be short, medium or long.") }
    }

    func run() async throws {
        let request = ChatGenerationRequest(
            prompt: prompt, genre: ChatGenre(rawValue: genre)!, mood: ChatMood(rawValue: mood)!, length: ChatLength(rawValue: length)!, characters: characters)
        let (spec, chosen) = try LocalModels.model(named: model)
        FileHandle.standardError.write(Data("Writing a \(length) \(genre) conversation with \(spec)\(spec.provider.isLocal ? " on this machine (this can take a minute)" : "")…\n".utf8))
        let conversation: ChatConversation
        do {
            let printer = WrittenMessages()
            conversation = try await ChatGenerator(model: chosen).generate(request) { await printer.show($0) }
        } catch let error as ChatGenerationError {
            await LocalModels.server?.stop()
            throw UserFacingError(error.description)
        } catch let error as LanguageModelError {
            await LocalModels.server?.stop()
            throw UserFacingError(error.description)
        }
        await LocalModels.server?.stop()
        do {
            try conversation.encodedFile().write(to: URL(fileURLWithPath: output))
        } catch {
            throw UserFacingError("\(output) could not be written: \(error.localizedDescription)")
        }
        let names = conversation.characters.map { $0.name + ($0.isMe ? " (me)" : "") }.joined(separator: ", ")
        print("Wrote \(output): \"\(conversation.title)\", \(conversation.messages.count) messages between \(names). Render it with: storyvoice chat render \(output) -o story.mp4")
    }
}

/// Prints each message to standard error as the model writes it.
private actor WrittenMessages {
    private var shown = 0

    func show(_ progress: ChatGenerationProgress) {
        switch progress {
        case .writing(let conversation):
            for message in conversation.messages.dropFirst(shown) {
                let name = conversation.character(message.characterID)?.name ?? "?"
                FileHandle.standardError.write(Data("  \(name): \(message.text)\n".utf8))
            }
            shown = max(shown, conversation.messages.count)
        case .retrying(let problems):
            shown = 0
            FileHandle.standardError.write(Data("That answer cannot be used (\(problems.joined(separator: "; "))); asking again…\n".utf8))
        }
    }
}
