import ChatStories
import LanguageModels
import Platform

extension ChatConversations {
    /// Checks a generation before any model is asked: premium, a request within the limits, a
    /// model spec (`openai:gpt-4o-mini`; nil: the model on this machine) the user can use (their
    /// key in Settings). Refusals are `ServiceError`s (403, 422), and nothing is created.
    public func prepareGeneration(_ asked: ChatGenerationRequest, model: String?, models: ModelAccess, plan: ChatPlan) async throws -> ChatGeneration {
        try plan.allowGenerator()
        try plan.allow(characters: asked.characters)
        let request: ChatGenerationRequest
        do {
            request = try asked.validated()
        } catch {
            throw ServiceError(.invalid, code: "invalid_generation", error.description)
        }
        let chosen = try await ChatGeneration.failures {
            try await models.model(try model.map(ModelAccess.spec) ?? .local, userID: ownerID, database: database)
        }
        return ChatGeneration(conversations: self, request: request, model: chosen)
    }

    /// Writes a conversation from a prompt and keeps it (see `prepareGeneration`, `ChatGeneration.run`).
    public func generate(_ asked: ChatGenerationRequest, model: String?, models: ModelAccess, plan: ChatPlan) async throws -> ChatConversation {
        try await prepareGeneration(asked, model: model, models: models, plan: plan).run()
    }
}

/// A conversation to be written by a language model, checked and ready (`ChatConversations.prepareGeneration`).
/// Only the finished conversation is kept: a model that fails, or answers twice with something
/// that is not a conversation, creates nothing, and neither does a generation that is stopped.
public struct ChatGeneration: Sendable {
    let conversations: ChatConversations
    public let request: ChatGenerationRequest
    let model: any LanguageModel

    /// Writes the conversation and keeps it; `progress` sees each message as it is written.
    /// Cancelling the calling task stops the model's request at once.
    public func run(progress: @Sendable (ChatGenerationProgress) async -> Void = { _ in }) async throws -> ChatConversation {
        let written = try await Self.failures { try await ChatGenerator(model: model).generate(request, progress: progress) }
        return try await conversations.create(ChatConversationDraft(title: written.title, characters: written.characters, messages: written.messages))
    }

    /// The writing as events for a client that shows it as it comes: `writing` with each message
    /// written, `retrying` when the model is asked again, then the kept `conversation` or an
    /// `error`. A client that stops listening stops the model at once; nothing is kept then.
    public func events() -> AsyncStream<ChatGenerationEvent> {
        AsyncStream { continuation in
            let task = Task {
                do {
                    let kept = try await run { progress in
                        switch progress {
                        case .writing(let partial): continuation.yield(.writing(ChatConversationDraft(partial)))
                        case .retrying(let problems): continuation.yield(.retrying(problems: problems))
                        }
                    }
                    continuation.yield(.conversation(kept))
                } catch is CancellationError {
                    // Nobody listens any more.
                } catch let error as ServiceError {
                    continuation.yield(.error(error))
                } catch {
                    continuation.yield(.error(ServiceError(.unavailable, code: "generation_failed", "The conversation could not be written (\(error)). Nothing was created; try again.")))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// `body`, with a model's and the generator's failures said as `ServiceError`s.
    static func failures<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as LanguageModelError {
            throw error.kind == .missingKey
                ? ServiceError(.invalid, code: "missing_key", error.description)
                : ServiceError(.unavailable, code: "model_unavailable", error.description)
        } catch let error as ChatGenerationError {
            throw ServiceError(.unavailable, code: "unusable_answer", error.description)
        }
    }
}

/// What a client following a generation hears (`ChatGeneration.events`).
public enum ChatGenerationEvent: Sendable, Encodable {
    /// The conversation so far: its title, people and each complete message (no id: not kept).
    case writing(ChatConversationDraft)
    /// The first answer could not be used: the model is asked again, and what `writing` showed
    /// is replaced by the second answer.
    case retrying(problems: [String])
    /// The conversation as kept.
    case conversation(ChatConversation)
    /// Why nothing was kept.
    case error(ServiceError)

    /// The event's name on the wire.
    public var name: String {
        switch self {
        case .writing: "writing"
        case .retrying: "retrying"
        case .conversation: "conversation"
        case .error: "error"
        }
    }

    private enum Key: String, CodingKey { case problems, code, message }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .writing(let draft): try draft.encode(to: encoder)
        case .conversation(let conversation): try conversation.encode(to: encoder)
        case .retrying(let problems):
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(problems, forKey: .problems)
        case .error(let error):
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(error.code, forKey: .code)
            try container.encode(error.message, forKey: .message)
        }
    }
}
