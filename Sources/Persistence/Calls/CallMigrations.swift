import FluentKit
import FluentSQL

// AI phone calls: accounts and their trials, calls, schedules, App Store purchases and
// notifications, custom scenarios.

struct CreateCallAccounts: AsyncMigration {
    var name: String { "storyvoice-017-create-call-accounts" }

    func prepare(on database: any Database) async throws {
        try await database.schema(CallAccountRecord.schema)
            .id()
            .field("user_id", .uuid, .required, .references(UserRecord.schema, "id", onDelete: .cascade))
            .field("trial_started_at", .datetime, .required)
            .field("app_type", .string, .required)
            .unique(on: "user_id")
            .create()
    }

    func revert(on database: any Database) async throws { try await database.schema(CallAccountRecord.schema).delete() }
}

struct CreatePhoneCalls: AsyncMigration {
    var name: String { "storyvoice-018-create-phone-calls" }

    func prepare(on database: any Database) async throws {
        try await database.schema(PhoneCallRecord.schema)
            .field("id", .int, .identifier(auto: true))
            .field("user_id", .uuid, .required, .references(UserRecord.schema, "id", onDelete: .cascade))
            .field("phone_number", .string, .required)
            .field("scenario_id", .string, .required)
            .field("status", .string, .required)
            .field("call_sid", .string)
            .field("channel", .string, .required)
            .field("counts", .bool, .required)
            .field("duration_seconds", .int)
            .field("duration_limit", .int, .required)
            .field("stream_token_hash", .string)
            .field("error_message", .custom(SQLRaw("TEXT")))
            .field("created_at", .datetime, .required)
            .field("ended_at", .datetime)
            .unique(on: "call_sid")
            .create()
        try await createIndex("phone_calls_user", on: PhoneCallRecord.schema, columns: ["user_id", "created_at"], in: database)
    }

    func revert(on database: any Database) async throws { try await database.schema(PhoneCallRecord.schema).delete() }
}

struct CreateScheduledCalls: AsyncMigration {
    var name: String { "storyvoice-019-create-scheduled-calls" }

    func prepare(on database: any Database) async throws {
        try await database.schema(ScheduledCallRecord.schema)
            .field("id", .int, .identifier(auto: true))
            .field("user_id", .uuid, .required, .references(UserRecord.schema, "id", onDelete: .cascade))
            .field("phone_number", .string, .required)
            .field("scenario_id", .string, .required)
            .field("scheduled_time", .datetime, .required)
            .field("status", .string, .required)
            .field("job_id", .uuid)
            .field("call_id", .int)
            .field("message", .custom(SQLRaw("TEXT")))
            .field("created_at", .datetime, .required)
            .create()
        try await createIndex("scheduled_calls_user", on: ScheduledCallRecord.schema, columns: ["user_id", "scheduled_time"], in: database)
    }

    func revert(on database: any Database) async throws { try await database.schema(ScheduledCallRecord.schema).delete() }
}

struct CreateStoreTransactions: AsyncMigration {
    var name: String { "storyvoice-020-create-store-transactions" }

    func prepare(on database: any Database) async throws {
        try await database.schema(StoreTransactionRecord.schema)
            .id()
            .field("user_id", .uuid, .required, .references(UserRecord.schema, "id", onDelete: .cascade))
            .field("transaction_id", .string, .required)
            .field("original_transaction_id", .string, .required)
            .field("product_id", .string, .required)
            .field("purchased_at", .datetime, .required)
            .field("expires_at", .datetime)
            .field("revoked_at", .datetime)
            .field("environment", .string, .required)
            .field("created_at", .datetime, .required)
            .unique(on: "transaction_id")
            .create()
        try await createIndex("store_transactions_user", on: StoreTransactionRecord.schema, columns: ["user_id"], in: database)
        try await createIndex("store_transactions_original", on: StoreTransactionRecord.schema, columns: ["original_transaction_id"], in: database)
    }

    func revert(on database: any Database) async throws { try await database.schema(StoreTransactionRecord.schema).delete() }
}

struct CreateStoreNotifications: AsyncMigration {
    var name: String { "storyvoice-021-create-store-notifications" }

    func prepare(on database: any Database) async throws {
        try await database.schema(StoreNotificationRecord.schema)
            .id()
            .field("notification_uuid", .string, .required)
            .field("notification_type", .string, .required)
            .field("subtype", .string)
            .field("signed_payload", .custom(SQLRaw("TEXT")), .required)
            .field("status", .string, .required)
            .field("message", .custom(SQLRaw("TEXT")))
            .field("received_at", .datetime, .required)
            .field("processed_at", .datetime)
            .unique(on: "notification_uuid")
            .create()
    }

    func revert(on database: any Database) async throws { try await database.schema(StoreNotificationRecord.schema).delete() }
}

struct CreateCustomScenarios: AsyncMigration {
    var name: String { "storyvoice-022-create-custom-scenarios" }

    func prepare(on database: any Database) async throws {
        try await database.schema(CustomScenarioRecord.schema)
            .id()
            .field("user_id", .uuid, .required, .references(UserRecord.schema, "id", onDelete: .cascade))
            .field("name", .string, .required)
            .field("description", .custom(SQLRaw("TEXT")), .required)
            .field("icon", .string, .required)
            .field("prompt", .custom(SQLRaw("TEXT")), .required)
            .field("voice", .string, .required)
            .field("temperature", .double, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .create()
        try await createIndex("custom_scenarios_user", on: CustomScenarioRecord.schema, columns: ["user_id"], in: database)
    }

    func revert(on database: any Database) async throws { try await database.schema(CustomScenarioRecord.schema).delete() }
}
