import FluentKit
import FluentSQL
import Foundation

/// One user's writes of one kind, one after another, on every server process sharing the
/// database: a check and the write it allows (a call charged to the last call left, the 50th
/// scenario) happen with no other writer of that kind for that user in between.
///
/// The lock is a row per (user, scope) that each holder updates first thing in its
/// transaction. PostgreSQL keeps the row locked until the holder commits, and the next
/// holder's later statements (READ COMMITTED) see what it wrote. SQLite has one writer at a
/// time, and a transaction whose first statement writes waits in the busy handler without
/// holding a read lock, so it neither deadlocks nor reads a stale snapshot.
public struct UserLock: Sendable {
    public static let schema = "user_locks"

    let database: any Database

    public init(database: AppDatabase) {
        self.database = database.fluent
    }

    /// Runs `body` in a transaction holding `userID`'s lock for `scope`. Everything `body`
    /// reads and writes must go through the database it is given: another connection would
    /// wait for this one (or, on SQLite, for the lock it holds).
    public func serialized<T: Sendable>(
        _ userID: UUID, scope: String, _ body: @escaping @Sendable (AppDatabase) async throws -> T
    ) async throws -> T {
        let sql = try database.requireSQL()
        try await sql.insert(into: Self.schema).columns("user_id", "scope", "serial")
            .values(SQLBind(userID), SQLBind(scope), SQLLiteral.numeric("0"))
            .ignoringConflicts(with: ["user_id", "scope"]).run()
        return try await database.transaction { transaction in
            try await transaction.requireSQL().update(Self.schema)
                .set(SQLIdentifier("serial"), to: SQLBinaryExpression(SQLIdentifier("serial"), .add, SQLLiteral.numeric("1")))
                .where("user_id", .equal, userID).where("scope", .equal, scope)
                .run()
            return try await body(AppDatabase(transaction))
        }
    }
}

struct CreateUserLocks: AsyncMigration {
    var name: String { "storyvoice-024-create-user-locks" }

    func prepare(on database: any Database) async throws {
        try await database.schema(UserLock.schema)
            .field("user_id", .uuid, .required, .references(UserRecord.schema, "id", onDelete: .cascade))
            .field("scope", .string, .required)
            .field("serial", .int64, .required)
            .compositeIdentifier(over: "user_id", "scope")
            .create()
    }

    func revert(on database: any Database) async throws { try await database.schema(UserLock.schema).delete() }
}
