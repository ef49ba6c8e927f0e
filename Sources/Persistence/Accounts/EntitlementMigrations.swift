import FluentKit
import FluentSQL

// What an account is entitled to (premium), granted by an admin or, later, a purchase.

struct CreateEntitlements: AsyncMigration {
    var name: String { "storyvoice-014-create-entitlements" }

    func prepare(on database: any Database) async throws {
        try await database.schema(EntitlementRecord.schema)
            .id()
            .field("user_id", .uuid, .required, .references(UserRecord.schema, "id", onDelete: .cascade))
            .field("entitlement", .string, .required)
            .field("source", .string, .required)
            .field("expires_at", .datetime)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "user_id", "entitlement", "source")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(EntitlementRecord.schema).delete()
    }
}
