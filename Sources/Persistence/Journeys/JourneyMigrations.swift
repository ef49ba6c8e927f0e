import FluentKit
import FluentSQL

// Journeys: the users' trips and their stories, part by part.

struct CreateJourneys: AsyncMigration {
    var name: String { "storyvoice-015-create-journeys" }

    func prepare(on database: any Database) async throws {
        try await database.schema(JourneyRecord.schema)
            .id()
            .field("owner_id", .uuid, .required, .references(UserRecord.schema, "id", onDelete: .cascade))
            .field("title", .custom(SQLRaw("TEXT")))
            .field("plan_json", .custom(SQLRaw("TEXT")), .required)
            .field("style", .string, .required)
            .field("style_description", .custom(SQLRaw("TEXT")))
            .field("voice", .string, .required)
            .field("model", .string, .required)
            .field("status", .string, .required)
            .field("error_message", .custom(SQLRaw("TEXT")))
            .field("outline_json", .custom(SQLRaw("TEXT")))
            .field("parts", .int, .required)
            .field("parts_ready", .int, .required)
            .field("words_per_minute", .double, .required)
            .field("playhead_part", .int, .required)
            .field("playhead_sentence", .int, .required)
            .field("tell_job_id", .uuid)
            .field("export_job_id", .uuid)
            .field("export_path", .custom(SQLRaw("TEXT")))
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .create()
        // The history is the owner's journeys, newest first.
        try await createIndex("journeys_owner", on: JourneyRecord.schema, columns: ["owner_id", "created_at"], in: database)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(JourneyRecord.schema).delete()
    }
}

struct CreateJourneyParts: AsyncMigration {
    var name: String { "storyvoice-016-create-journey-parts" }

    func prepare(on database: any Database) async throws {
        try await database.schema(JourneyPartRecord.schema)
            .id()
            .field("journey_id", .uuid, .required, .references(JourneyRecord.schema, "id", onDelete: .cascade))
            .field("number", .int, .required)
            .field("status", .string, .required)
            .field("beat", .custom(SQLRaw("TEXT")))
            .field("fallback", .bool, .required)
            .field("sentences_json", .custom(SQLRaw("TEXT")), .required)
            .field("attempts", .int, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "journey_id", "number")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(JourneyPartRecord.schema).delete()
    }
}
