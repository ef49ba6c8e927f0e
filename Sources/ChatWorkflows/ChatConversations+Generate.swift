import ChatStories
import LanguageModels
import StoryWorkflows

extension ChatConversations {
    /// Writes a conversation from a prompt with `model` (a spec such as `openai:gpt-4o-mini`;
    /// nil: the model on this machine) and keeps it. Premium only. A model that cannot be used,
    /// fails, or answers twice with something that is not a conversation creates nothing.
    public func generate(_ asked: ChatGenerationRequest, model: String?, models: ModelAccess, plan: ChatPlan) async throws -> ChatConversation {
        try plan.allowGenerator()
        try plan.allow(characters: asked.characters)
        let request: ChatGenerationRequest
        do {
            request = try asked.validated()
        } catch {
            throw ChatError(.invalid, code: "invalid_generation", error.description)
        }
        let written: ChatConversation
        do {
            let spec = try model.map(ModelAccess.spec) ?? .local
            let chosen = try await models.model(spec, userID: ownerID, database: database)
            written = try await ChatGenerator(model: chosen).generate(request)
        } catch let error as LanguageModelError {
            throw error.kind == .missingKey
                ? ChatError(.invalid, code: "missing_key", error.description)
                : ChatError(.unavailable, code: "model_unavailable", error.description)
        } catch let error as ChatGenerationError {
            throw ChatError(.unavailable, code: "unusable_answer", error.description)
        }
        return try await create(ChatConversationDraft(title: written.title, characters: written.characters, messages: written.messages))
    }
}
