import FluentKit
import FluentSQL

// Chat stories: the users' conversations and their video exports.

struct CreateChatConversations: AsyncMigration {
    var name: String { "storyvoice-012-create-chat-conversations" }

    func prepare(on database: any Database) async throws {
        try await database.schema(ChatConversationRecord.schema)
            .id()
            .field("owner_id", .uuid, .required, .references(UserRecord.schema, "id", onDelete: .cascade))
            .field("title", .custom(SQLRaw("TEXT")), .required)
            .field("theme", .string, .required)
            .field("document", .custom(SQLRaw("TEXT")), .required)
            .field("message_count", .int, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .create()
        // The list is the owner's conversations, most recently edited first.
        try await createIndex("chat_conversations_owner", on: ChatConversationRecord.schema, columns: ["owner_id", "updated_at"], in: database)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(ChatConversationRecord.schema).delete()
    }
}

struct CreateChatExports: AsyncMigration {
    var name: String { "storyvoice-013-create-chat-exports" }

    func prepare(on database: any Database) async throws {
        try await database.schema(ChatExportRecord.schema)
            .id()
            .field("owner_id", .uuid, .required, .references(UserRecord.schema, "id", onDelete: .cascade))
            .field("conversation_id", .uuid, .required, .references(ChatConversationRecord.schema, "id", onDelete: .cascade))
            .field("title", .custom(SQLRaw("TEXT")), .required)
            .field("conversation_json", .custom(SQLRaw("TEXT")), .required)
            .field("settings_json", .custom(SQLRaw("TEXT")), .required)
            .field("status", .string, .required)
            .field("progress", .double, .required)
            .field("error_message", .custom(SQLRaw("TEXT")))
            .field("file_path", .custom(SQLRaw("TEXT")))
            .field("duration_ms", .int)
            .field("share_token", .string)
            .field("job_id", .uuid)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .field("finished_at", .datetime)
            .unique(on: "share_token")
            .create()
        // The list and the daily count are by owner and time.
        try await createIndex("chat_exports_owner", on: ChatExportRecord.schema, columns: ["owner_id", "created_at"], in: database)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(ChatExportRecord.schema).delete()
    }
}

/// A version counter for each conversation, so parallel edits are applied one after the other
/// instead of the last write silently winning (`ChatConversationRepository.modify`).
struct AddChatConversationVersions: AsyncMigration {
    var name: String { "storyvoice-023-add-chat-conversation-versions" }

    func prepare(on database: any Database) async throws {
        try await database.schema(ChatConversationRecord.schema)
            .field("version", .int, .required, .sql(.default(0)))
            .update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(ChatConversationRecord.schema).deleteField("version").update()
    }
}
