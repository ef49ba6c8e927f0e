import FluentKit
import FluentSQL

// Stories read aloud: the imported stories, their analysis, voices and exports.

struct CreateStories: AsyncMigration {
    var name: String { "storyvoice-005-create-stories" }

    func prepare(on database: any Database) async throws {
        try await database.schema(StoryRecord.schema)
            .id()
            .field("owner_id", .uuid, .required, .references(UserRecord.schema, "id", onDelete: .cascade))
            .field("title", .string, .required)
            .field("author", .string)
            .field("text", .custom(SQLRaw("TEXT")))
            .field("text_path", .string)
            .field("text_sha256", .string, .required)
            .field("character_count", .int, .required)
            .field("imported_at", .datetime, .required)
            .field("analysis_json", .custom(SQLRaw("TEXT")))
            .field("cast_json", .custom(SQLRaw("TEXT")))
            .field("analysis_state", .string, .required)
            .field("duration_seconds", .double)
            .field("updated_at", .datetime)
            .create()
        try await createIndex("stories_owner", on: StoryRecord.schema, columns: ["owner_id"], in: database)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(StoryRecord.schema).delete()
    }
}

struct AddStoryRenders: AsyncMigration {
    var name: String { "storyvoice-007-add-story-renders" }

    func prepare(on database: any Database) async throws {
        try await database.schema(StoryRecord.schema)
            .field("render_json", .custom(SQLRaw("TEXT")))
            .update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(StoryRecord.schema).deleteField("render_json").update()
    }
}

/// The chapters found at import, which the server used to drop (its analysis had none where
/// the CLI found 17 in a text file and 39 in an EPUB).
struct AddStoryChapters: AsyncMigration {
    var name: String { "storyvoice-009-add-story-chapters" }

    func prepare(on database: any Database) async throws {
        try await database.schema(StoryRecord.schema)
            .field("chapters_json", .custom(SQLRaw("TEXT")))
            .update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(StoryRecord.schema).deleteField("chapters_json").update()
    }
}

/// A version counter for the story's analysis and voices, so concurrent edits are applied one
/// after the other instead of the last write silently winning (`StoryRepository.modify`).
struct AddStoryVersions: AsyncMigration {
    var name: String { "storyvoice-008-add-story-versions" }

    func prepare(on database: any Database) async throws {
        try await database.schema(StoryRecord.schema)
            .field("version", .int, .required, .sql(.default(0)))
            .update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(StoryRecord.schema).deleteField("version").update()
    }
}
