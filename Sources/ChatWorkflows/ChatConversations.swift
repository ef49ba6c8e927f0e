import ChatStories
import Foundation
import ObjectStorage
import Persistence
import Platform
import StoryModel

/// One user's chat stories: list, create, read, replace, duplicate, delete, and the timeline
/// a video (and the page's preview) plays. Every conversation kept passes `validate()`.
public struct ChatConversations: Sendable {
    let repository: ChatConversationRepository
    let database: AppDatabase
    let ownerID: UUID
    /// Where the conversations' videos are kept (deleted with them).
    let artifacts: any ArtifactStore
    /// The version the client last saw (`If-Match`), when it asks for its edit to apply only to
    /// that version; nil applies the edit to whatever is latest, merged with others' edits.
    public var expectedVersion: Int?

    public init(database: AppDatabase, artifacts: any ArtifactStore, ownerID: UUID) {
        repository = ChatConversationRepository(database: database)
        self.database = database
        self.ownerID = ownerID
        self.artifacts = artifacts
    }

    public func list() async throws -> [ChatConversationSummary] {
        try await repository.list(ownerID: ownerID).map { row in
            ChatConversationSummary(
                id: row.id, title: row.title, theme: ChatTheme(rawValue: row.theme) ?? .imessage,
                messageCount: row.messageCount, createdAt: row.createdAt, updatedAt: row.updatedAt)
        }
    }

    /// A new conversation; without people it starts with the starter pair ("Me" and "Alex").
    public func create(_ draft: ChatConversationDraft, now: Date = Date()) async throws -> ChatConversation {
        var conversation = draft.applied(to: ChatConversation(title: ChatConversationDraft.untitled))
        if conversation.characters.isEmpty { conversation.characters = ChatCharacter.starters }
        let id = UUID.random()
        conversation.id = id.uuidString.lowercased()
        try Self.check(conversation)
        let row = ChatConversationRow(
            id: id, ownerID: ownerID, title: conversation.title, theme: conversation.theme.rawValue,
            document: try ChatDocument.encode(conversation), messageCount: conversation.messages.count, now: now)
        try await repository.create(row)
        return try ChatDocument.conversation(row)
    }

    public func conversation(_ id: UUID) async throws -> ChatConversation {
        try ChatDocument.conversation(try await find(id))
    }

    /// Replaces the fields `draft` names; the rest stay. Nothing is written unless the result is
    /// valid. The draft is applied to the latest version atomically, so parallel edits of
    /// different fields are all kept; with `expectedVersion`, only to that version.
    public func replace(_ id: UUID, with draft: ChatConversationDraft, now: Date = Date()) async throws -> ChatConversation {
        let saved: ChatConversationRow?
        do {
            saved = try await repository.modify(id, ownerID: ownerID, now: now) { row in
                // What is wrong with the edit itself is said first: reloading would not mend it.
                let conversation = draft.applied(to: try ChatDocument.conversation(row))
                try Self.check(conversation)
                if let expectedVersion, row.version != expectedVersion {
                    throw ServiceError(.staleVersion, code: "stale_version",
                                    "The chat story was changed elsewhere (it is now version \(row.version), not \(expectedVersion)). Reload it and make the change again.")
                }
                row.title = conversation.title
                row.theme = conversation.theme.rawValue
                row.document = try ChatDocument.encode(conversation)
                row.messageCount = conversation.messages.count
            }
        } catch is ChatConversationRepository.EditConflict {
            throw ServiceError(.conflict, code: "edit_conflict", "The chat story is being changed by many edits at once; try again.")
        }
        guard let saved else { throw ServiceError.conversationNotFound }
        return try ChatDocument.conversation(saved)
    }

    public func rename(_ id: UUID, to title: String) async throws -> ChatConversation {
        try await replace(id, with: ChatConversationDraft(title: title))
    }

    /// A copy under a new id, titled "… (copy)"; its exports stay with the original.
    public func duplicate(_ id: UUID, now: Date = Date()) async throws -> ChatConversation {
        let original = try ChatDocument.conversation(try await find(id))
        let suffix = " (copy)"
        let title = String(original.title.prefix(ChatLimits.standard.maxTitleLength - suffix.count)) + suffix
        return try await create(
            ChatConversationDraft(title: title, theme: original.theme, characters: original.characters, messages: original.messages), now: now)
    }

    /// Deletes the conversation, its exports and their videos (shared links stop working).
    public func delete(_ id: UUID) async throws {
        guard let files = try await repository.delete(id, ownerID: ownerID) else { throw ServiceError.conversationNotFound }
        for file in files { try? await artifacts.delete(file) }
    }

    /// What the video of the conversation with `settings` shows, moment by moment.
    /// Refused (422) when no plan makes a video that long, before a single event is listed.
    public func timeline(_ id: UUID, settings: ChatExportSettings) async throws -> ChatTimeline {
        let conversation = try await conversation(id)
        let settings = try ServiceError.rules { try settings.validated() }
        // Kept before today's limits, perhaps: checked again before anything is made of it.
        try ServiceError.rules { try conversation.validate() }
        try ChatPlan(isPremium: true).allow(videoOf: conversation, settings: settings)
        return ChatTimeline(conversation: conversation, settings: settings)
    }

    func find(_ id: UUID) async throws -> ChatConversationRow {
        guard let row = try await repository.find(id, ownerID: ownerID) else { throw ServiceError.conversationNotFound }
        return row
    }

    /// What a kept conversation must be: valid, and short enough for some plan to make a video of.
    static func check(_ conversation: ChatConversation) throws {
        try ServiceError.rules { try conversation.validate() }
        try ChatPlan.allow(keeping: conversation)
    }
}

extension ServiceError {
    /// A conversation or settings rule broken: 422 with the rule's own words.
    init(_ error: ChatStoryError) {
        self.init(.invalid, code: error.code, error.description)
    }

    /// `body`, with a broken rule reported as a `ServiceError`.
    @discardableResult
    static func rules<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ChatStoryError {
            throw ServiceError(error)
        }
    }
}

extension ChatStoryError {
    /// Stable, for clients to branch on.
    var code: String {
        switch self {
        case .noMessages: "no_messages"
        case .tooFewCharacters: "too_few_characters"
        case .tooManyCharacters: "too_many_characters"
        case .noSender: "no_sender"
        case .severalSenders: "several_senders"
        case .duplicateCharacterID: "duplicate_character"
        case .emptyName: "empty_name"
        case .invalidColor: "invalid_color"
        case .invalidAvatar: "invalid_avatar"
        case .unknownCharacter: "unknown_character"
        case .emptyMessage: "empty_message"
        case .messageTooLong: "message_too_long"
        case .tooManyMessages: "too_many_messages"
        case .titleTooLong: "title_too_long"
        case .nameTooLong: "name_too_long"
        case .tooManyCodePoints: "too_many_code_points"
        case .characterTooComplex: "character_too_complex"
        case .idTooLong: "id_too_long"
        case .invalidFrameRate: "invalid_fps"
        case .unreadableFile: "unreadable"
        }
    }
}

/// A conversation's row and the `ChatConversation` it holds: the people and messages as one
/// JSON document, the title, look and dates as columns.
enum ChatDocument {
    struct Body: Codable {
        var characters: [ChatCharacter]
        var messages: [ChatMessage]
    }

    static func encode(_ conversation: ChatConversation) throws -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(Body(characters: conversation.characters, messages: conversation.messages)), as: UTF8.self)
    }

    static func conversation(_ row: ChatConversationRow) throws -> ChatConversation {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let body = try decoder.decode(Body.self, from: Data(row.document.utf8))
        var conversation = ChatConversation(
            id: row.id.uuidString.lowercased(), title: row.title, theme: ChatTheme(rawValue: row.theme) ?? .imessage,
            characters: body.characters, messages: body.messages, createdAt: row.createdAt, updatedAt: row.updatedAt)
        conversation.version = row.version
        return conversation
    }
}
