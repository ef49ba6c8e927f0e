import ChatStories
import LanguageModels

/// Writes a conversation from a prompt with a language model (the user's, or the one on this
/// machine): strict JSON asked for, validated and repaired, asked again once with what was
/// wrong; an answer that still does not fit creates nothing.
public struct ChatGenerator: Sendable {
    public let model: any LanguageModel

    public init(model: any LanguageModel) {
        self.model = model
    }

    public func generate(_ request: ChatGenerationRequest) async throws -> ChatConversation {
        let request = try request.validated()
        let question = Self.question(for: request)
        let first = try await answer(question, for: request)
        guard case .failure(let problems) = first.result else { return try first.result.get() }
        var retry = question
        retry.history = [ChatTurn(.user, question.user), ChatTurn(.assistant, String(first.text.prefix(6_000)))]
        retry.user = "That answer cannot be used: \(Self.problems(problems).joined(separator: "; ")). Answer again with only the JSON object, following every rule."
        return try await answer(retry, for: request).result.get()
    }

    /// The model's answer and what it makes. An answer the client could not read (a cut-off
    /// structured reply) is an unusable answer like any other, asked again once.
    private func answer(_ question: CompletionRequest, for request: ChatGenerationRequest) async throws -> (text: String, result: Result<ChatConversation, ChatGenerationError>) {
        do {
            let response = try await model.complete(question)
            return (response.text, ChatGeneratedAnswer.conversation(from: response.text, for: request))
        } catch let error as LanguageModelError where error.kind == .unparseableAnswer {
            return ("", .failure(.unusableAnswer(["the answer could not be read"])))
        }
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
