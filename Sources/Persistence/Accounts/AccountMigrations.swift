import FluentKit
import FluentSQL

// Users, sessions, settings and keys: the accounts every product shares.

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

/// The user's choice between the fastest voices and the best (`CastingPreference`).
struct AddNarrationVoices: AsyncMigration {
    var name: String { "storyvoice-010-add-narration-voices" }

    func prepare(on database: any Database) async throws {
        try await database.schema(SettingsRecord.schema)
            .field("narration_voices", .custom(SQLRaw("TEXT")))
            .update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(SettingsRecord.schema).deleteField("narration_voices").update()
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
