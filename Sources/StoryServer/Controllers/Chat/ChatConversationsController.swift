import ChatStories
import ChatWorkflows
import Foundation
import Vapor

/// `/api/chat/conversations…` and `/api/chat/themes`: a user's chat stories, kept as they are
/// edited, and the timeline their video (and the page's preview) plays.
struct ChatConversationsController: Sendable {
    let config: ServerConfig

    func register(routes: any RoutesBuilder) {
        let chat = routes.grouped("chat")
        chat.get("themes", use: themes)
        let conversations = chat.grouped("conversations")
        conversations.get(use: list)
        conversations.post(use: create)
        conversations.get(":id", use: show)
        conversations.put(":id", use: replace)
        conversations.delete(":id", use: delete)
        conversations.post(":id", "duplicate", use: duplicate)
        conversations.get(":id", "timeline", use: timeline)
    }

    struct ConversationList: Encodable { var conversations: [ChatConversationSummary] }

    struct ThemeList: Encodable {
        struct Entry: Encodable {
            var id: ChatTheme
            var name: String
            var premium: Bool
            var light: ChatPalette
            var dark: ChatPalette
        }
        var themes: [Entry]
    }

    @Sendable
    func themes(_ request: Request) async throws -> Response {
        try Response.json(ThemeList(themes: ChatTheme.allCases.map {
            ThemeList.Entry(id: $0, name: $0.displayName, premium: $0.isPremium, light: $0.palette(dark: false), dark: $0.palette(dark: true))
        }))
    }

    @Sendable
    func list(_ request: Request) async throws -> Response {
        try Response.json(ConversationList(conversations: try await request.chatConversations(config).list()))
    }

    @Sendable
    func create(_ request: Request) async throws -> Response {
        let draft = try request.optionalChatJSON(ChatConversationDraft.self, default: ChatConversationDraft())
        return try Response.chat(try await request.chatConversations(config).create(draft), status: .created)
    }

    @Sendable
    func show(_ request: Request) async throws -> Response {
        try Response.chat(try await request.chatConversations(config).conversation(try conversationID(request)))
    }

    /// Replaces the fields sent (all of them from the editor; `title` alone renames), over the
    /// latest version, or only over the one `If-Match` names.
    @Sendable
    func replace(_ request: Request) async throws -> Response {
        let id = try conversationID(request)
        let draft = try request.decodeChatJSON(ChatConversationDraft.self)
        return try Response.chat(try await request.chatConversations(config).replace(id, with: draft))
    }

    @Sendable
    func delete(_ request: Request) async throws -> Response {
        try await request.chatConversations(config).delete(try conversationID(request))
        return Response(status: .noContent)
    }

    @Sendable
    func duplicate(_ request: Request) async throws -> Response {
        try Response.chat(try await request.chatConversations(config).duplicate(try conversationID(request)), status: .created)
    }

    @Sendable
    func timeline(_ request: Request) async throws -> Response {
        let id = try conversationID(request)
        return try Response.json(try await request.chatConversations(config).timeline(id, settings: try request.chatSettingsQuery()))
    }

    private func conversationID(_ request: Request) throws -> UUID {
        try request.uuidParameter("id", what: "chat story")
    }
}
