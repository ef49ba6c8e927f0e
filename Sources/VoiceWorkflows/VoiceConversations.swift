import Foundation
import LanguageModels
import Persistence
import Platform
import VoiceChat

/// A conversation as the API shows it: what was said, in order. A reply the user spoke over
/// shows (and is remembered as) the part they heard.
public struct VoiceConversation: Sendable, Codable, Equatable {
    public struct Message: Sendable, Codable, Equatable {
        public var role: ChatTurn.Role
        public var text: String
        /// The user spoke over this reply; `text` is what they heard of it.
        public var interrupted: Bool
    }

    public var id: UUID
    public var title: String
    public var createdAt: Date
    public var updatedAt: Date
    /// Absent in lists.
    public var messages: [Message]?

    enum CodingKeys: String, CodingKey {
        case id, title, messages
        case createdAt = "created_at", updatedAt = "updated_at"
    }
}

/// One user's voice chat conversations: listed, read, deleted, and each turn kept as it
/// happens (the question as soon as it is known, the reply as it is written), so a turn cut
/// short by the user, a failure or a lost connection still leaves what was said.
public struct VoiceConversations: Sendable {
    let repository: VoiceConversationRepository
    let ownerID: UUID

    public init(user: UserContext) {
        repository = VoiceConversationRepository(database: user.database)
        ownerID = user.ownerID
    }

    public func list() async throws -> [VoiceConversation] {
        try await repository.list(ownerID: ownerID).map { Self.conversation($0, messages: nil) }
    }

    public func conversation(_ id: UUID) async throws -> VoiceConversation {
        let record = try await find(id)
        let messages = try await repository.messages(of: id).map {
            VoiceConversation.Message(role: ChatTurn.Role(rawValue: $0.role) ?? .user, text: $0.remembered, interrupted: $0.heard != nil)
        }
        return Self.conversation(record, messages: messages)
    }

    public func delete(_ id: UUID) async throws {
        guard try await repository.delete(id, ownerID: ownerID) else { throw Self.notFound }
    }

    /// The user spoke over the last reply after hearing `heard` of it: the conversation keeps
    /// only that. `heard` must be where the reply begins (the player knows the sentences it
    /// played), so this cannot put words in the assistant's mouth.
    public func markHeard(_ heard: String, in id: UUID) async throws {
        _ = try await find(id)
        guard let last = try await repository.messages(of: id).last, last.role == ChatTurn.Role.assistant.rawValue else {
            throw ServiceError(.conflict, code: "no_reply", "The conversation's last message is not a reply.")
        }
        // The player joins the sentences it played with spaces; the reply may break lines.
        let kept = Self.collapsed(heard)
        guard Self.collapsed(last.text).hasPrefix(kept) else {
            throw ServiceError(.invalid, code: "not_heard", "'heard' must be the beginning of the last reply.")
        }
        _ = try await repository.markHeard(kept, in: id)
    }

    /// The user's conversation `reference` names; nil for none or `new`. Anything else is not found.
    public func find(_ reference: String?) async throws -> VoiceConversationRow? {
        guard let reference, reference != "new" else { return nil }
        guard let id = UUID(uuidString: reference) else { throw Self.notFound }
        return try await find(id)
    }

    /// The conversation a turn is kept in (nil: a new one, created now) and what it remembers,
    /// for the model.
    public func open(_ found: VoiceConversationRow?, question: String?) async throws -> (VoiceConversationRow, [ChatTurn]) {
        guard let record = found else {
            return (try await repository.create(ownerID: ownerID, title: question.map(Self.title) ?? Self.untitled), [])
        }
        return (record, try await history(of: record))
    }

    /// What the model is given of a kept conversation before the next question.
    public func history(of record: VoiceConversationRow) async throws -> [ChatTurn] {
        var messages = try await repository.messages(of: record.id)
        // A question left unanswered (its reply failed) is being asked again: not twice.
        if let last = messages.last, last.role == ChatTurn.Role.user.rawValue { messages.removeLast() }
        return messages.compactMap { message -> ChatTurn? in
            let text = message.remembered
            guard !text.isEmpty, let role = ChatTurn.Role(rawValue: message.role) else { return nil }
            return ChatTurn(role, text)
        }
    }

    /// `events` with the turn kept in `conversation` as it goes; a `conversation` event after
    /// `run-start` names it.
    public func keeping(_ events: AsyncStream<VoiceTurnEvent>, in conversation: VoiceConversationRow, question: String?) -> AsyncStream<VoiceTurnEvent> {
        let keeper = TurnKeeper(repository: repository, conversation: conversation)
        return AsyncStream { continuation in
            let task = Task {
                do {
                    if let question { try await keeper.asked(question) }
                    for await event in events {
                        try await keeper.observe(event)
                        continuation.yield(event)
                        if case .runStart = event {
                            continuation.yield(.conversation(id: conversation.id.uuidString))
                        }
                    }
                } catch {
                    continuation.yield(.error(stage: .llm, message: "The conversation could not be saved: \(error)", retryable: true))
                    continuation.yield(.runEnd)
                }
                // Cancelled (the user spoke over the answer, or left): keep the reply so far.
                await Task.detached { try? await keeper.finish() }.value
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    func find(_ id: UUID) async throws -> VoiceConversationRow {
        guard let record = try await repository.find(id, ownerID: ownerID) else { throw Self.notFound }
        return record
    }

    /// A conversation's title until its first question is heard.
    static let untitled = "New conversation"

    static let notFound = ServiceError(.notFound, code: "conversation_not_found", "No such conversation.")

    static func collapsed(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    static func title(_ question: String) -> String {
        let line = question.split(whereSeparator: \.isNewline).first.map(String.init) ?? question
        return line.count <= 80 ? line : String(line.prefix(79)) + "…"
    }

    static func conversation(_ record: VoiceConversationRow, messages: [VoiceConversation.Message]?) -> VoiceConversation {
        VoiceConversation(id: record.id, title: record.title, createdAt: record.createdAt, updatedAt: record.updatedAt, messages: messages)
    }
}

/// Writes one turn into its conversation: the question once known, the reply's row at its
/// first words (so a client that has seen any of the reply can mark what it heard), and the
/// reply's text at the end.
private actor TurnKeeper {
    let repository: VoiceConversationRepository
    let conversation: VoiceConversationRow
    var reply: VoiceMessageRow?
    var written = ""
    var saved = ""

    init(repository: VoiceConversationRepository, conversation: VoiceConversationRow) {
        self.repository = repository
        self.conversation = conversation
    }

    func asked(_ question: String) async throws {
        let messages = try await repository.messages(of: conversation.id)
        if messages.isEmpty, conversation.title == VoiceConversations.untitled {
            try await repository.retitle(conversation.id, VoiceConversations.title(question))
        }
        // Asked again after its reply failed: kept once.
        if let last = messages.last, last.role == ChatTurn.Role.user.rawValue, last.text == question { return }
        try await repository.append(to: conversation.id, role: ChatTurn.Role.user.rawValue, text: question)
    }

    func observe(_ event: VoiceTurnEvent) async throws {
        switch event {
        case .sttEnd(let text):
            try await asked(text)
        case .llmDelta(let piece):
            written += piece
            if reply == nil {
                reply = try await repository.append(to: conversation.id, role: ChatTurn.Role.assistant.rawValue, text: written)
                saved = written
            }
        case .ttsStart:
            // Saved before the client can hear the sentence, so what it heard is always kept.
            try await finish()
        case .llmEnd(let text):
            written = text
            try await finish()
        case .error(stage: .llm, _, _, _):
            // The reply failed: the question stays, to be asked again; no half answer is kept.
            if let reply { try await repository.remove(message: reply.id) }
            reply = nil
        default:
            break
        }
    }

    func finish() async throws {
        guard let reply, written != saved else { return }
        try await repository.update(message: reply.id, text: written)
        saved = written
    }
}
