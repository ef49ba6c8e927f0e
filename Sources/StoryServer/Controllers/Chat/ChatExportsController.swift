import ChatStories
import ChatWorkflows
import Foundation
import Vapor

extension ChatGenerationEvent: ServerSentEvent {}

/// `/api/chat/…exports…`, `/api/chat/entitlement` and `/api/chat/generate`: videos made as
/// jobs within the user's plan, downloaded and shared.
struct ChatExportsController: Sendable {
    let config: ServerConfig

    func register(routes: any RoutesBuilder) {
        let chat = routes.grouped("chat")
        chat.get("entitlement", use: entitlement)
        chat.post("generate", use: generate)
        chat.post("conversations", ":id", "exports", use: start)
        let exports = chat.grouped("exports")
        exports.get(use: list)
        exports.get(":id", use: show)
        exports.get(":id", "video", use: video)
        exports.post(":id", "share", use: share)
        exports.delete(":id", "share", use: unshare)
    }

    struct ExportList: Encodable { var exports: [ChatExportView] }

    @Sendable
    func entitlement(_ request: Request) async throws -> Response {
        try Response.json(try await request.chatExports(config).allowance())
    }

    /// A prompt, its genre, mood, length, people and (optionally) the model to write with.
    struct GenerateBody: Decodable {
        var request: ChatGenerationRequest
        var model: String?

        init(from decoder: any Decoder) throws {
            request = try ChatGenerationRequest(from: decoder)
            model = try decoder.container(keyedBy: Key.self).decodeIfPresent(String.self, forKey: .model)
        }

        private enum Key: String, CodingKey { case model }
    }

    /// Writes a conversation from a prompt (premium only) and keeps it: 201 with the conversation;
    /// with `Accept: text/event-stream`, the writing as it goes (each message as the model writes
    /// it), then the conversation kept. Refusals come first, as JSON errors, before any model is
    /// asked; a client that hangs up stops the model and nothing is kept.
    @Sendable
    func generate(_ request: Request) async throws -> Response {
        let plan = try await request.chatExports(config).plan()
        try plan.allowGenerator()
        let body = try request.decodeChatJSON(GenerateBody.self)
        let generation = try await request.chatConversations(config).prepareGeneration(body.request, model: body.model, models: config.models, plan: plan)
        if request.acceptsEvents { return Response.events(generation.events(), heartbeat: .seconds(1)) }
        return try Response.chat(try await generation.run(), status: .created)
    }

    /// Queues the video: 202 with the export (its `job_id` streams progress at /api/jobs/{id}/events).
    @Sendable
    func start(_ request: Request) async throws -> Response {
        let id = try request.uuidParameter("id", what: "chat story")
        let settings = try request.optionalChatJSON(ChatExportSettings.self, default: ChatExportSettings())
        return try Response.json(try await request.chatExports(config).start(conversation: id, settings: settings), status: .accepted)
    }

    @Sendable
    func list(_ request: Request) async throws -> Response {
        var conversation: UUID?
        if let raw = request.query[String.self, at: "conversation_id"] {
            guard let id = UUID(uuidString: raw) else {
                throw APIError.badRequest("Query parameter 'conversation_id' must be a chat story's id.", code: "invalid_query")
            }
            conversation = id
        }
        return try Response.json(ExportList(exports: try await request.chatExports(config).list(conversation: conversation)))
    }

    @Sendable
    func show(_ request: Request) async throws -> Response {
        try Response.json(try await request.chatExports(config).export(try exportID(request)))
    }

    @Sendable
    func video(_ request: Request) async throws -> Response {
        let (key, title) = try await request.chatExports(config).video(try exportID(request))
        return try await Response.video(key, in: config.artifacts, title: title, disposition: "attachment", for: request)
    }

    @Sendable
    func share(_ request: Request) async throws -> Response {
        try Response.json(try await request.chatExports(config).share(try exportID(request)))
    }

    @Sendable
    func unshare(_ request: Request) async throws -> Response {
        try Response.json(try await request.chatExports(config).unshare(try exportID(request)))
    }

    private func exportID(_ request: Request) throws -> UUID {
        try request.uuidParameter("id", what: "export")
    }
}

/// `GET /share/chat/{token}`: a shared video, for anyone with the link.
struct ChatShareController: Sendable {
    let config: ServerConfig

    func register(routes: any RoutesBuilder) {
        routes.get("share", "chat", ":token", use: watch)
    }

    @Sendable
    func watch(_ request: Request) async throws -> Response {
        let (key, title) = try await ChatExports.shared(request.parameters.get("token") ?? "", database: request.appDatabase, artifacts: config.artifacts)
        let response = try await Response.video(key, in: config.artifacts, title: title, disposition: "inline", for: request)
        // The link is the permission: keep it out of other sites' Referer and out of shared caches.
        response.headers.replaceOrAdd(name: "Referrer-Policy", value: "no-referrer")
        response.headers.replaceOrAdd(name: .cacheControl, value: "private, max-age=3600")
        return response
    }
}
