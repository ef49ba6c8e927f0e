import FluentKit
import FluentSQL

// Voice chat's conversations, kept per user.

struct CreateVoiceConversations: AsyncMigration {
    var name: String { "storyvoice-011-create-voice-conversations" }

    func prepare(on database: any Database) async throws {
        try await database.schema(VoiceConversationRecord.schema)
            .id()
            .field("owner_id", .uuid, .required, .references(UserRecord.schema, "id", onDelete: .cascade))
            .field("title", .custom(SQLRaw("TEXT")), .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .create()
        try await database.schema(VoiceMessageRecord.schema)
            .id()
            .field("conversation_id", .uuid, .required, .references(VoiceConversationRecord.schema, "id", onDelete: .cascade))
            .field("position", .int, .required)
            .field("role", .string, .required)
            .field("text", .custom(SQLRaw("TEXT")), .required)
            .field("heard", .custom(SQLRaw("TEXT")))
            .field("created_at", .datetime, .required)
            .unique(on: "conversation_id", "position")
            .create()
        // The list is the owner's conversations, newest first.
        try await createIndex("voice_conversations_owner", on: VoiceConversationRecord.schema, columns: ["owner_id", "updated_at"], in: database)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(VoiceMessageRecord.schema).delete()
        try await database.schema(VoiceConversationRecord.schema).delete()
    }
}
