import Audio
import Calls
import Foundation
import LanguageModels
import Logging
import StoryModel
import Synchronization
import VoiceChat

/// A call's voice agent on this machine, for when no OpenAI key is configured: the caller's
/// turns found by `SpeechDetector`, each heard while it is spoken (`Listening`: passes of the
/// transcriber as the caller speaks, so that when they stop little is left to transcribe), then
/// the voice loop shared with voice chat (`VoicePipeline`: model → each sentence spoken as soon
/// as it is written), each sentence's WAV resampled to 8 kHz μ-law. The caller speaking during
/// a reply cancels it.
/// It greets the caller first, as the one who placed the call would: with the scenario's
/// opening made ahead (`CallOpenings`) when there is one, at once; else the model writes the
/// greeting live, and the greeting heard whole is handed to `keepOpening` for the next call.
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
    private let logger: Logger
    private let loop = Mutex<Task<Void, Never>?>(nil)
    private let opening: CallOpening?
    private let keepOpening: (@Sendable (CallOpening) async -> Void)?

    /// - Parameters:
    ///   - opening: the first words, made ahead; nil: the model writes them now.
    ///   - keepOpening: given the greeting the model wrote live, once the agent has said it whole.
    ///   - listenBufferFrames: caller frames waiting to be examined; beyond it the oldest are
    ///     dropped (20 ms each; examining one takes microseconds, so this only fills when the
    ///     machine stalls).
    public init(
        scenario: CallScenario, effects: Effects, opening: CallOpening? = nil,
        keepOpening: (@Sendable (CallOpening) async -> Void)? = nil,
        listenBufferFrames: Int = 250, logger: Logger = Logger(label: "storyvoice.local-call")
    ) {
        pipeline = VoicePipeline(
            transcribe: effects.transcribe, model: effects.model, speak: effects.speak,
            instructions: Self.instructions(for: scenario), maxReplyTokens: Self.maxReplyTokens)
        self.opening = opening.flatMap { $0.sentences.isEmpty ? nil : $0 }
        self.keepOpening = keepOpening
        self.logger = logger
        // Reply audio is bounded by the turn itself (a few sentences), so the events need no
        // dropping; the bound is only a backstop.
        (events, eventInput) = AsyncStream.makeStream(of: VoiceAgentEvent.self, bufferingPolicy: .bufferingOldest(4096))
        (heard, heardInput) = AsyncStream.makeStream(of: [UInt8].self, bufferingPolicy: .bufferingNewest(listenBufferFrames))
    }

    static let maxReplyTokens = 160

    /// The system prompt of a call's turns: the scenario's, and how a phone call is spoken.
    static func instructions(for scenario: CallScenario) -> String {
        scenario.instructions + "\n\n" + phoneInstructions
    }

    /// The greeting `model` writes for `scenario`, as the agent would ask for it on a call, but
    /// ahead of any call (a scenario just made): `priority` says who waits on it.
    public static func writeOpening(for scenario: CallScenario, model: any LanguageModel, priority: ModelPriority) async throws -> String {
        let request = CompletionRequest(
            system: instructions(for: scenario), user: greetingCue, temperature: 0.7, maxOutputTokens: maxReplyTokens, priority: priority)
        return try await model.complete(request).text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The agent for a call of `scenario` spoken in `voice` (the voice `effects.speak` speaks
    /// in), opening with what `openings` has ready for them; the greeting it writes live is
    /// kept there.
    public static func make(
        scenario: CallScenario, effects: Effects, openings: CallOpenings, voice: String, logger: Logger = Logger(label: "storyvoice.local-call")
    ) async -> LocalVoiceAgent {
        let key = CallOpenings.Key(scenario: scenario, voice: voice)
        return LocalVoiceAgent(
            scenario: scenario, effects: effects, opening: await openings.forCall(key, of: scenario, speak: effects.speak),
            keepOpening: { await openings.keep($0, for: key) }, logger: logger)
    }

    /// A factory for `MediaStreamHooks.makeAgent`; with `openings`, calls open with what it has
    /// ready (in `voice`) and keep what the model writes.
    public static func factory(
        _ effects: Effects, openings: CallOpenings? = nil, voice: String = ""
    ) -> @Sendable (MediaStreamGrant) async throws -> any VoiceAgent {
        { grant in
            guard let openings else { return LocalVoiceAgent(scenario: grant.scenario, effects: effects) }
            return await make(scenario: grant.scenario, effects: effects, openings: openings, voice: voice)
        }
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

    /// Greets, then listens: speech that starts cancels the turn in progress and is heard from
    /// then on (with the moment before it, so its first syllable is not lost); when it ends, it
    /// starts a turn. Turns run one at a time.
    ///
    /// The detector calls speech over after 0.7 s of quiet, so a turn would start that long
    /// after the caller's last word. Instead the reply starts at the pause (`earlyReplyFrames`
    /// of quiet) with its audio held back: the caller speaking again cancels it, and the end of
    /// the utterance lets it be heard, by then already part written and spoken.
    private func listenLoop() async {
        var detector = SpeechDetector()
        let before = (detector.settings.prerollFrames + detector.settings.startFrames) * detector.frameSamples
        var recent: [Int16] = []
        var listening: Listening?
        var early: EarlyReply?
        var turn: Task<Void, Never>? = Task {
            if let opening = self.opening { await self.say(opening) } else { await self.reply(to: .text(Self.greetingCue)) }
        }
        for await frame in heard {
            let samples = MuLaw.decode(frame)
            if let listening {
                _ = try? await listening.add(samples)
            } else {
                recent = Array((recent + samples).suffix(before))
            }
            for event in detector.add(samples) {
                switch event {
                case .started:
                    turn?.cancel()
                    eventInput.yield(.speechStarted)
                    prepare()
                    let ears = self.listening()
                    _ = try? await ears.add(recent)
                    recent = []
                    listening = ears
                case .ended(let samples):
                    defer { listening = nil }
                    let reply = early
                    early = nil
                    guard !samples.isEmpty, let listening else {  // too short to be words
                        reply?.task.cancel()
                        break
                    }
                    turn?.cancel()
                    await turn?.value
                    if let reply {
                        reply.release.finish()
                        turn = reply.task
                    } else {
                        turn = Task { await self.reply(to: .listened(listening)) }
                    }
                }
            }
            guard detector.isSpeaking, let listening else { continue }
            if detector.trailingQuietFrames >= Self.earlyReplyFrames, early == nil {
                turn?.cancel()
                await turn?.value
                let (held, release) = AsyncStream.makeStream(of: Never.self)
                early = EarlyReply(task: Task { await self.reply(to: .listened(listening), heldUntil: held) }, release: release)
            } else if detector.trailingQuietFrames < Self.earlyReplyFrames, let reply = early {
                reply.task.cancel()  // the caller went on
                early = nil
            }
        }
        early?.task.cancel()
        turn?.cancel()
        await turn?.value
    }

    /// Has the model read the conversation while the caller speaks, so the reply's prompt costs
    /// only the question (`VoicePipeline.prepare`; one token, asked as a live turn).
    private func prepare() {
        let pipeline = self.pipeline, conversation = self.conversation
        Task { await pipeline.prepare(history: await conversation.history) }
    }

    /// Quiet frames (20 ms) after which a reply is started, held until the caller's turn ends:
    /// after `Listening`'s pass at a quarter second's pause, whose words it takes.
    static let earlyReplyFrames = 15

    /// A reply started at a pause; finishing `release` lets it be heard.
    private struct EarlyReply {
        var task: Task<Void, Never>
        var release: AsyncStream<Never>.Continuation
    }

    /// Hears the caller's line (8 kHz, where its speech detector works best); each pass goes to
    /// the transcriber in memory, at Whisper's 16 kHz. Resampling a pass whole, rather than the
    /// line frame by frame, keeps the 20 ms frames' edges out of the audio.
    private func listening() -> Listening {
        let transcribe = pipeline.transcribe
        // An utterance is cut at 30 s (`SpeechDetector.Settings.maxFrames`); the limit is a backstop.
        return Listening(sampleRate: MuLaw.sampleRate, maxSeconds: 60) { speech in
            try await transcribe(.samples(Resampler.resample(speech, to: 16_000)))
        }
    }

    /// The opening made ahead, as the greeting turn: each sentence recorded where it begins
    /// (so a cut keeps only what was heard) and played at once.
    private func say(_ opening: CallOpening) async {
        let itemID = Self.newItemID()
        var offsetMilliseconds = 0
        for sentence in opening.sentences {
            if Task.isCancelled { return }
            await conversation.begin(itemID: itemID, question: Self.greetingCue, sentence: sentence.text, at: offsetMilliseconds)
            offsetMilliseconds += sentence.mulaw.count / 8
            eventInput.yield(.audio(itemID: itemID, mulaw: [UInt8](sentence.mulaw)))
        }
        eventInput.yield(.replyDone)
    }

    static func newItemID() -> String { "local_\(UUID.random().uuidString.prefix(8))" }

    /// One turn: the reply's sentences as μ-law audio of a new item, then `replyDone`. The
    /// history keeps the question and the reply (cut to what was heard if it is truncated).
    /// The greeting the model wrote, said whole with no failure, is kept for the next call.
    /// - Parameter heldUntil: nothing is said or kept before it finishes (an early reply); the
    ///   reply is written and voiced meanwhile.
    private func reply(to input: VoicePipeline.Input, heldUntil held: AsyncStream<Never>? = nil) async {
        let itemID = Self.newItemID()
        var question: String?
        if case .text(let cue) = input { question = cue }
        let greeting = question == Self.greetingCue ? keepOpening : nil
        var said: [CallOpening.Sentence] = []
        var sentence = ""
        var failed = false
        var offsetMilliseconds = 0
        let history = await conversation.history
        var hold = held?.makeAsyncIterator()
        for await event in pipeline.run(input, history: history) {
            if Task.isCancelled { break }
            if case .sttEnd(let text) = event { question = text }
            if hold != nil {
                _ = await hold?.next()
                hold = nil
                if Task.isCancelled { break }
            }
            switch event {
            case .ttsStart(_, let text):
                sentence = text
                await conversation.begin(itemID: itemID, question: question ?? "", sentence: text, at: offsetMilliseconds)
            case .ttsAudio(_, let wav):
                guard let audio = try? WAV.decode(wav) else {
                    eventInput.yield(.problem("a reply sentence was not WAV audio"))
                    continue
                }
                let mulaw = MuLaw.encode(audio)
                offsetMilliseconds += mulaw.count / 8
                eventInput.yield(.audio(itemID: itemID, mulaw: mulaw))
                if greeting != nil { said.append(.init(text: sentence, mulaw: Data(mulaw))) }
            case .error(let stage, let message, _, _):
                // The pipeline's spoken failure is worded for the voice-chat page ("Press
                // retry"); on a call the agent stays silent and the caller can simply go on.
                logger.warning("local call turn failed at \(stage.rawValue): \(message)")
                eventInput.yield(.problem("\(stage.rawValue): \(message)"))
                failed = true
            default:
                break
            }
        }
        guard !Task.isCancelled else { return }
        eventInput.yield(.replyDone)
        if let greeting, !failed, !said.isEmpty { await greeting(CallOpening(sentences: said)) }
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
