import FluentKit
import FluentSQL

// The job queue every product's long work runs through.

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
