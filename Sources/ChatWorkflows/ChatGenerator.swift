import ChatStories
import LanguageModels

/// How a conversation being written is coming along.
public enum ChatGenerationProgress: Sendable, Hashable {
    /// The conversation as far as the model has written it: its people, and each message once it
    /// is complete (a partial has no id; the kept conversation gets one).
    case writing(ChatConversation)
    /// The first answer could not be used (`problems`); the model is asked again, and what was
    /// shown of the first answer is replaced by the second.
    case retrying(problems: [String])
}

/// Writes a conversation from a prompt with a language model (the user's, or the one on this
/// machine): strict JSON asked for, validated and repaired, asked again once with what was
/// wrong; an answer that still does not fit creates nothing.
///
/// The answer is streamed and read as it arrives (`ChatAnswerScanner`), so each message is shown
/// as soon as the model has written it (`progress`). Cancelling the calling task cancels the
/// request to the model at once.
public struct ChatGenerator: Sendable {
    public let model: any LanguageModel

    public init(model: any LanguageModel) {
        self.model = model
    }

    public func generate(
        _ request: ChatGenerationRequest, progress: @Sendable (ChatGenerationProgress) async -> Void = { _ in }
    ) async throws -> ChatConversation {
        let request = try request.validated()
        let question = Self.question(for: request)
        let first = try await answer(question, for: request, progress: progress)
        guard case .failure(let problems) = first.result else { return try first.result.get() }
        await progress(.retrying(problems: Self.problems(problems)))
        var retry = question
        retry.history = [ChatTurn(.user, question.user), ChatTurn(.assistant, String(first.text.prefix(6_000)))]
        retry.user = "That answer cannot be used: \(Self.problems(problems).joined(separator: "; ")). Answer again with only the JSON object, following every rule."
        return try await answer(retry, for: request, progress: progress).result.get()
    }

    /// The model's answer and what it makes, showing each part as it is completed. An answer
    /// the client could not read (a cut-off structured reply) is an unusable answer like any
    /// other, asked again once.
    private func answer(
        _ question: CompletionRequest, for request: ChatGenerationRequest, progress: @Sendable (ChatGenerationProgress) async -> Void
    ) async throws -> (text: String, result: Result<ChatConversation, ChatGenerationError>) {
        var scanner = ChatAnswerScanner()
        var shown: ChatConversation?
        do {
            for try await event in model.stream(question) {
                switch event {
                case .text(let piece):
                    guard scanner.feed(piece), let partial = ChatGeneratedAnswer.partial(from: scanner.parts, for: request), partial != shown else { continue }
                    shown = partial
                    await progress(.writing(partial))
                case .finished(let response):
                    return (response.text, ChatGeneratedAnswer.conversation(from: response.text, for: request))
                }
            }
        } catch let error as LanguageModelError where error.kind == .unparseableAnswer {
            return ("", .failure(.unusableAnswer(["the answer could not be read"])))
        }
        // The stream ends without its answer only when the caller stopped listening.
        throw CancellationError()
    }

    private static func problems(_ error: ChatGenerationError) -> [String] {
        if case .unusableAnswer(let problems) = error { problems } else { [error.description] }
    }

    static func question(for request: ChatGenerationRequest) -> CompletionRequest {
        let range = request.length.messages
        let system = """
            You write fictional text-message conversations for short videos. Write what the people type on \
            their phones: short, natural messages (a few words to two sentences), with emoji where a real \
            person would use them. The story has a hook at the start and a twist or payoff at the end. Keep it \
            suitable for a general audience: no graphic violence, sexual content, slurs or real people's private data.
            Answer with only a JSON object: {"title": a short title, "characters": [{"name", "is_me"}], \
            "messages": [{"from": a character's name, "text"}]}. Exactly one character has "is_me": true: \
            the phone's owner, whose messages appear on the right.
            """
        let user = """
            Prompt: \(request.prompt)
            Genre: \(request.genre.rawValue). Mood: \(request.mood.rawValue).
            People: exactly \(request.characters), with first names.
            Messages: between \(range.lowerBound) and \(range.upperBound), everyone taking part.
            """
        let tokens = 200 + range.upperBound * 60
        return CompletionRequest(system: system, user: user, schema: schema, temperature: 0.9, maxOutputTokens: tokens)
    }

    static let schema = ResponseSchema(name: "chat_story", schema: [
        "type": "object",
        "properties": [
            "title": ["type": "string"],
            "characters": [
                "type": "array",
                "items": [
                    "type": "object",
                    "properties": ["name": ["type": "string"], "is_me": ["type": "boolean"]],
                    "required": ["name", "is_me"],
                    "additionalProperties": false,
                ],
            ],
            "messages": [
                "type": "array",
                "items": [
                    "type": "object",
                    "properties": ["from": ["type": "string"], "text": ["type": "string"]],
                    "required": ["from", "text"],
                    "additionalProperties": false,
                ],
            ],
        ],
        "required": ["title", "characters", "messages"],
        "additionalProperties": false,
    ])
}
