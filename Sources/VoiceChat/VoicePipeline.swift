import Audio
import Foundation
import LanguageModels

/// One spoken turn, start to finish, as a stream of events: the recording transcribed, the
/// reply streamed from the model, and each sentence spoken as soon as it is complete, while the
/// model still writes the next. Each stage fails on its own with an `error` event saying
/// whether trying that stage again may help; the stages before it keep their results (the
/// transcript, the reply so far), so a client retries only what failed.
public struct VoicePipeline: Sendable {
    public enum Input: Sendable {
        /// A recording in any format ffmpeg reads.
        case audio(URL)
        /// Audio in memory (a call's turn, speech streamed while it was spoken).
        case samples(PCMAudio)
        /// Speech heard while it was spoken (`Listening`): only its last piece is left to transcribe.
        case listened(Listening)
        /// Typed, or the transcript of an earlier try whose reply failed.
        case text(String)
    }

    /// What `transcribe` is given.
    public enum Recording: Sendable {
        case file(URL)
        case samples(PCMAudio)
    }

    /// Speech to text: the recording's words.
    public var transcribe: @Sendable (Recording) async throws -> String
    public var model: any LanguageModel
    /// Text to speech: one sentence as a WAV file's bytes.
    public var speak: @Sendable (String) async throws -> Data
    public var instructions: String
    public var maxReplyTokens: Int
    /// Prompt and reply together must fit this many tokens; the oldest turns are left out first.
    public var contextTokens: Int

    public static let defaultInstructions = """
        You are a friendly assistant in a spoken conversation. Answer in two or three short \
        sentences of plain speech: no lists, no Markdown, no emoji. If you do not know, say so.
        """

    public init(
        transcribe: @escaping @Sendable (Recording) async throws -> String, model: any LanguageModel,
        speak: @escaping @Sendable (String) async throws -> Data,
        instructions: String = defaultInstructions, maxReplyTokens: Int = 200, contextTokens: Int = 4096
    ) {
        self.transcribe = transcribe
        self.model = model
        self.speak = speak
        self.instructions = instructions
        self.maxReplyTokens = maxReplyTokens
        self.contextTokens = contextTokens
    }

    /// Has the model read the conversation so far while the person is still speaking: its
    /// server keeps what it read, so the turn's prompt then costs only the question. Asked as a
    /// live turn; nothing is written (one token at most) and a failure is of no consequence.
    public func prepare(history: [ChatTurn]) async {
        let request = CompletionRequest(
            system: instructions, history: trimmed(history, question: ""), user: "", temperature: 0, maxOutputTokens: 1, priority: .live())
        _ = try? await model.complete(request)
    }

    /// Runs one turn. Cancelling the consumer (the user spoke over the answer, or left) stops
    /// every stage.
    /// - Parameter speaking: false leaves out speech (a client that reads the reply, or speaks
    ///   it itself).
    public func run(_ input: Input, history: [ChatTurn] = [], speaking: Bool = true) -> AsyncStream<VoiceTurnEvent> {
        AsyncStream { continuation in
            let task = Task {
                continuation.yield(.runStart)
                await turn(input, history: history, speaking: speaking) { continuation.yield($0) }
                continuation.yield(.runEnd)
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private func turn(_ input: Input, history: [ChatTurn], speaking: Bool, _ yield: @escaping @Sendable (VoiceTurnEvent) -> Void) async {
        let question: String
        switch input {
        case .text(let text):
            question = text
        case .audio(let file):
            guard let heard = await hear({ try await transcribe(.file(file)) }, speaking: speaking, yield) else { return }
            question = heard
        case .samples(let audio):
            guard let heard = await hear({ try await transcribe(.samples(audio)) }, speaking: speaking, yield) else { return }
            question = heard
        case .listened(let listening):
            guard let heard = await hear({ try await listening.finish() }, speaking: speaking, yield) else { return }
            question = heard
        }
        let (sentences, sentenceInput) = AsyncStream.makeStream(of: String.self)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { speaking ? await speakAll(sentences, yield) : await Self.drain(sentences) }
            await think(question, history: history, speaking: speaking, sentences: sentenceInput, yield)
            sentenceInput.finish()
        }
    }

    static let nothingHeard = "No words were heard in the recording. Hold the button, speak, then let go."

    /// The recording's words, with its events; nil (after an error event) when there are none.
    private func hear(_ words: () async throws -> String, speaking: Bool, _ yield: @escaping @Sendable (VoiceTurnEvent) -> Void) async -> String? {
        yield(.sttStart)
        let question: String
        do {
            question = try await words().trimmingCharacters(in: .whitespacesAndNewlines)
        } catch {
            yield(await failure(.stt, "The recording could not be transcribed: \(error)", retryable: true, speaking: speaking))
            return nil
        }
        guard !question.isEmpty else {
            yield(await failure(.stt, Self.nothingHeard, retryable: false, speaking: speaking))
            return nil
        }
        yield(.sttEnd(text: question))
        return question
    }

    /// Streams the reply, handing each finished sentence to the voice.
    private func think(
        _ question: String, history: [ChatTurn], speaking: Bool, sentences: AsyncStream<String>.Continuation, _ yield: @Sendable (VoiceTurnEvent) -> Void
    ) async {
        // The first clause goes to the voice as soon as it is written: the listener hears the
        // answer begin while the model writes the rest of its first sentence.
        var splitter = SentenceSplitter(firstClause: true)
        let request = CompletionRequest(
            system: instructions, history: trimmed(history, question: question), user: question,
            temperature: 0.7, maxOutputTokens: maxReplyTokens, priority: .live())
        do {
            for try await event in model.stream(request) {
                switch event {
                case .text(let piece):
                    yield(.llmDelta(text: piece))
                    for sentence in splitter.add(piece) { sentences.yield(sentence) }
                case .finished(let response):
                    if let rest = splitter.finish() { sentences.yield(rest) }
                    yield(.llmEnd(text: response.text))
                }
            }
        } catch is CancellationError {
            return
        } catch {
            let retryable = (error as? LanguageModelError).map { $0.isTransient || $0.kind == .unparseableAnswer || $0.kind == .unreachable } ?? true
            yield(await failure(.llm, "The reply could not be written: \(error)", retryable: retryable, speaking: speaking))
        }
    }

    /// Speaks the sentences in order; after a failure, says so once and speaks no more (the
    /// reply's text is still complete, and can be spoken again whole).
    private func speakAll(_ sentences: AsyncStream<String>, _ yield: @Sendable (VoiceTurnEvent) -> Void) async {
        var index = 0
        var failed = false
        for await sentence in sentences where !failed {
            yield(.ttsStart(index: index, text: sentence))
            do {
                yield(.ttsAudio(index: index, audio: try await speak(sentence)))
                yield(.ttsEnd(index: index))
            } catch {
                if Task.isCancelled { return }
                yield(.error(stage: .tts, message: "The reply could not be spoken: \(error)", retryable: true))
                failed = true
            }
            index += 1
        }
    }

    /// An error event, with the failure said briefly in the turn's voice when it speaks (and
    /// speech is not what failed): a user who is listening, not looking, hears it too.
    private func failure(_ stage: VoiceStage, _ message: String, retryable: Bool, speaking: Bool) async -> VoiceTurnEvent {
        guard speaking, stage != .tts, !Task.isCancelled else { return .error(stage: stage, message: message, retryable: retryable) }
        return .error(stage: stage, message: message, retryable: retryable, spoken: try? await speak(Self.spokenFailure(stage, retryable: retryable)))
    }

    /// What is said when a stage fails: short, and what to do next.
    static func spokenFailure(_ stage: VoiceStage, retryable: Bool) -> String {
        switch (stage, retryable) {
        case (.stt, false): "I didn't hear any words. Hold the button while you speak."
        case (.stt, true): "Sorry, I couldn't make out the recording. Please try again."
        case (_, true): "Sorry, I couldn't answer just now. Press retry to ask again."
        case (_, false): "Sorry, I couldn't answer that with this model."
        }
    }

    private static func drain(_ sentences: AsyncStream<String>) async {
        for await _ in sentences {}
    }

    /// The most recent turns that fit beside the question and the reply.
    func trimmed(_ history: [ChatTurn], question: String) -> [ChatTurn] {
        var budget = contextTokens - maxReplyTokens - TokenCount.approximate(instructions) - TokenCount.approximate(question)
        var kept: [ChatTurn] = []
        for turn in history.reversed() {
            budget -= TokenCount.approximate(turn.text) + 4
            if budget < 0 { break }
            kept.append(turn)
        }
        return kept.reversed()
    }
}
