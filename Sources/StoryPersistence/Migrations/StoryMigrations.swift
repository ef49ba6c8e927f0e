import FluentKit
import FluentSQL

/// Every migration, in order. Each has an explicit, stable `name`: Fluent would otherwise name
/// migrations after their Swift type and module, and renaming either would re-run them.
public enum StoryMigrations {
    public static var all: [any Migration] {
        [
            CreateUsers(),
            CreateRefreshTokens(),
            CreateUserSettings(),
            CreateProviderKeys(),
            CreateStories(),
            CreateJobs(),
            AddStoryRenders(),
        ]
    }
}

struct CreateUsers: AsyncMigration {
    var name: String { "storyvoice-001-create-users" }

    func prepare(on database: any Database) async throws {
        try await database.schema(UserRecord.schema)
            .id()
            .field("email", .string, .required)
            .field("password_hash", .string, .required)
            .field("created_at", .datetime)
            .unique(on: "email")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(UserRecord.schema).delete()
    }
}

struct CreateRefreshTokens: AsyncMigration {
    var name: String { "storyvoice-002-create-refresh-tokens" }

    func prepare(on database: any Database) async throws {
        try await database.schema(RefreshTokenRecord.schema)
            .id()
            .field("user_id", .uuid, .required, .references(UserRecord.schema, "id", onDelete: .cascade))
            .field("token_hash", .string, .required)
            .field("family_id", .uuid, .required)
            .field("revoked", .bool, .required)
            .field("expires_at", .datetime, .required)
            .field("created_at", .datetime)
            .unique(on: "token_hash")
            .create()
        try await createIndex("refresh_tokens_family", on: RefreshTokenRecord.schema, columns: ["family_id"], in: database)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(RefreshTokenRecord.schema).delete()
    }
}

struct CreateUserSettings: AsyncMigration {
    var name: String { "storyvoice-003-create-user-settings" }

    func prepare(on database: any Database) async throws {
        try await database.schema(SettingsRecord.schema)
            .id()
            .field("user_id", .uuid, .required, .references(UserRecord.schema, "id", onDelete: .cascade))
            .field("narration_rate", .double, .required)
            .field("narration_pitch", .double, .required)
            .field("narration_volume", .double, .required)
            .field("updated_at", .datetime)
            .unique(on: "user_id")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(SettingsRecord.schema).delete()
    }
}

struct CreateProviderKeys: AsyncMigration {
    var name: String { "storyvoice-004-create-provider-keys" }

    func prepare(on database: any Database) async throws {
        try await database.schema(ProviderKeyRecord.schema)
            .id()
            .field("user_id", .uuid, .required, .references(UserRecord.schema, "id", onDelete: .cascade))
            .field("provider", .string, .required)
            .field("sealed_key", .data, .required)
            .field("masked", .string, .required)
            .field("updated_at", .datetime)
            .unique(on: "user_id", "provider")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(ProviderKeyRecord.schema).delete()
    }
}

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

struct CreateJobs: AsyncMigration {
    var name: String { "storyvoice-006-create-jobs" }

    func prepare(on database: any Database) async throws {
        try await database.schema(JobRecord.schema)
            .id()
            .field("owner_id", .uuid, .required, .references(UserRecord.schema, "id", onDelete: .cascade))
            .field("kind", .string, .required)
            .field("payload", .custom(SQLRaw("TEXT")), .required)
            .field("status", .string, .required)
            .field("attempts", .int, .required)
            .field("max_attempts", .int, .required)
            .field("run_at", .datetime, .required)
            .field("lease_owner", .string)
            .field("lease_expires_at", .datetime)
            .field("progress", .double, .required)
            .field("progress_message", .custom(SQLRaw("TEXT")))
            .field("result", .custom(SQLRaw("TEXT")))
            .field("last_error", .custom(SQLRaw("TEXT")))
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .field("finished_at", .datetime)
            .create()
        // Claiming scans by status and due time; the owner index serves the jobs API.
        try await createIndex("jobs_status_run_at", on: JobRecord.schema, columns: ["status", "run_at"], in: database)
        try await createIndex("jobs_owner", on: JobRecord.schema, columns: ["owner_id"], in: database)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(JobRecord.schema).delete()
    }
}

private func createIndex(_ name: String, on table: String, columns: [String], in database: any Database) async throws {
    guard let sql = database as? any SQLDatabase else { return }
    var builder = sql.create(index: name).on(table)
    for column in columns { builder = builder.column(column) }
    try await builder.run()
}

/// The latest finished render of a story (`render_json`: where the audio and timing map are).
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
