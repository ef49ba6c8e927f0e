import Audio
import Calls
import Foundation
import LanguageModels
import Logging
import Synchronization
import VoiceChat

/// A call's voice agent on this machine, for when no OpenAI key is configured: the caller's
/// turns found by `SpeechDetector`, then the voice loop shared with voice chat
/// (`VoicePipeline`: transcribe → model → each sentence spoken as soon as it is written), each
/// sentence's WAV resampled to 8 kHz μ-law. The caller speaking during a reply cancels it.
/// It greets the caller first, as the one who placed the call would.
public final class LocalVoiceAgent: VoiceAgent {
    /// The voice loop's effects: the same three voice chat is given.
    public struct Effects: Sendable {
        public var transcribe: @Sendable (VoicePipeline.Recording) async throws -> String
        public var model: any LanguageModel
        /// One sentence as a WAV file's bytes (any rate).
        public var speak: @Sendable (String) async throws -> Data

        public init(transcribe: @escaping @Sendable (VoicePipeline.Recording) async throws -> String, model: any LanguageModel, speak: @escaping @Sendable (String) async throws -> Data) {
            self.transcribe = transcribe
            self.model = model
            self.speak = speak
        }

        /// The effects of a voice-chat pipeline (`VoiceChats.pipeline(model:voice:)`): the same
        /// ears, model and voice, with the call's own instructions.
        public init(_ pipeline: VoicePipeline) {
            self.init(transcribe: pipeline.transcribe, model: pipeline.model, speak: pipeline.speak)
        }
    }

    /// Added to the scenario's instructions: the replies are heard, not read.
    public static let phoneInstructions = """
        This is a live phone call and everything you write is spoken aloud: answer in one to three \
        short sentences of plain speech, with no lists, Markdown, emoji or stage directions. You \
        placed the call, so you speak first.
        """
    /// What the model is given as the first turn, so it opens the call.
    static let greetingCue = "(The call has just been answered. Greet me in character and start the conversation.)"

    public let events: AsyncStream<VoiceAgentEvent>
    private let eventInput: AsyncStream<VoiceAgentEvent>.Continuation
    private let heard: AsyncStream<[UInt8]>
    private let heardInput: AsyncStream<[UInt8]>.Continuation
    private let pipeline: VoicePipeline
    private let conversation = LocalConversation()
    private let directory: URL
    private let logger: Logger
    private let loop = Mutex<Task<Void, Never>?>(nil)

    /// - Parameter listenBufferFrames: caller frames waiting to be examined; beyond it the
    ///   oldest are dropped (20 ms each; examining one takes microseconds, so this only fills
    ///   when the machine stalls).
    public init(
        scenario: CallScenario, effects: Effects, temporaryDirectory: URL = FileManager.default.temporaryDirectory,
        listenBufferFrames: Int = 250, logger: Logger = Logger(label: "storyvoice.local-call")
    ) {
        pipeline = VoicePipeline(
            transcribe: effects.transcribe, model: effects.model, speak: effects.speak,
            instructions: scenario.instructions + "\n\n" + Self.phoneInstructions, maxReplyTokens: 160)
        directory = temporaryDirectory
        self.logger = logger
        // Reply audio is bounded by the turn itself (a few sentences), so the events need no
        // dropping; the bound is only a backstop.
        (events, eventInput) = AsyncStream.makeStream(of: VoiceAgentEvent.self, bufferingPolicy: .bufferingOldest(4096))
        (heard, heardInput) = AsyncStream.makeStream(of: [UInt8].self, bufferingPolicy: .bufferingNewest(listenBufferFrames))
    }

    /// A factory for `MediaStreamHooks.makeAgent`.
    public static func factory(_ effects: Effects, temporaryDirectory: URL = FileManager.default.temporaryDirectory) -> @Sendable (MediaStreamGrant) async throws -> any VoiceAgent {
        { grant in LocalVoiceAgent(scenario: grant.scenario, effects: effects, temporaryDirectory: temporaryDirectory) }
    }

    public func start() async throws {
        let task = Task { await listenLoop() }
        loop.withLock { $0 = task }
    }

    public func listen(_ mulaw: [UInt8]) {
        heardInput.yield(mulaw)
    }

    public func truncate(itemID: String, heardMilliseconds: Int) async {
        await conversation.truncate(itemID: itemID, heardMilliseconds: heardMilliseconds)
    }

    public func close() async {
        heardInput.finish()
        let task = loop.withLock { $0 }
        task?.cancel()
        await task?.value
        eventInput.finish()
    }

    /// Greets, then listens: each utterance that ends starts a turn; speech that starts
    /// cancels the turn in progress. Turns run one at a time.
    private func listenLoop() async {
        var detector = SpeechDetector()
        var turn: Task<Void, Never>? = Task { await self.reply(to: .text(Self.greetingCue)) }
        for await frame in heard {
            for event in detector.add(MuLaw.decode(frame)) {
                switch event {
                case .started:
                    turn?.cancel()
                    eventInput.yield(.speechStarted)
                case .ended(let samples) where !samples.isEmpty:
                    turn?.cancel()
                    await turn?.value
                    turn = Task { await self.reply(to: samples) }
                case .ended:
                    break  // too short to be words
                }
            }
        }
        turn?.cancel()
        await turn?.value
    }

    /// The caller's utterance goes to the transcriber in memory, at Whisper's 16 kHz.
    private func reply(to samples: [Int16]) async {
        await reply(to: .samples(Resampler.resample(PCMAudio(sampleRate: MuLaw.sampleRate, samples: samples), to: 16_000)))
    }

    /// One turn: the reply's sentences as μ-law audio of a new item, then `replyDone`. The
    /// history keeps the question and the reply (cut to what was heard if it is truncated).
    private func reply(to input: VoicePipeline.Input) async {
        let itemID = "local_\(UUID().uuidString.prefix(8))"
        var question: String?
        if case .text(let cue) = input { question = cue }
        var offsetMilliseconds = 0
        let history = await conversation.history
        for await event in pipeline.run(input, history: history) {
            if Task.isCancelled { break }
            switch event {
            case .sttEnd(let text):
                question = text
            case .ttsStart(_, let text):
                await conversation.begin(itemID: itemID, question: question ?? "", sentence: text, at: offsetMilliseconds)
            case .ttsAudio(_, let wav):
                guard let audio = try? WAV.decode(wav) else {
                    eventInput.yield(.problem("a reply sentence was not WAV audio"))
                    continue
                }
                let mulaw = MuLaw.encode(audio)
                offsetMilliseconds += mulaw.count / 8
                eventInput.yield(.audio(itemID: itemID, mulaw: mulaw))
            case .error(let stage, let message, _, _):
                // The pipeline's spoken failure is worded for the voice-chat page ("Press
                // retry"); on a call the agent stays silent and the caller can simply go on.
                logger.warning("local call turn failed at \(stage.rawValue): \(message)")
                eventInput.yield(.problem("\(stage.rawValue): \(message)"))
            default:
                break
            }
        }
        if !Task.isCancelled { eventInput.yield(.replyDone) }
    }
}

/// The local agent's conversation: the turns so far, each reply as the sentences spoken and
/// where each began, so a truncated reply keeps only what the caller heard.
actor LocalConversation {
    private struct Turn {
        var itemID: String
        var question: String
        var sentences: [(text: String, startMilliseconds: Int)] = []
        var heardMilliseconds: Int?
    }

    private var turns: [Turn] = []

    var history: [ChatTurn] {
        turns.flatMap { turn -> [ChatTurn] in
            let said = turn.sentences.filter { $0.startMilliseconds < (turn.heardMilliseconds ?? .max) }.map(\.text)
            return said.isEmpty ? [] : [ChatTurn(.user, turn.question), ChatTurn(.assistant, said.joined(separator: " "))]
        }
    }

    func begin(itemID: String, question: String, sentence: String, at milliseconds: Int) {
        if turns.last?.itemID != itemID { turns.append(Turn(itemID: itemID, question: question)) }
        turns[turns.count - 1].sentences.append((sentence, milliseconds))
    }

    func truncate(itemID: String, heardMilliseconds: Int) {
        guard let index = turns.lastIndex(where: { $0.itemID == itemID }) else { return }
        turns[index].heardMilliseconds = heardMilliseconds
    }
}
