import FluentKit
import Foundation

/// Accounts: create, look up by email or id.
public struct UserRepository: Sendable {
    let database: any Database

    public init(database: AppDatabase) {
        self.database = database.fluent
    }

    /// Emails compare case-insensitively and without surrounding spaces.
    public static func normalize(email: String) -> String {
        email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    /// Creates an account; throws `PersistenceError.emailTaken` when the email is in use.
    public func create(email: String, passwordHash: String) async throws -> UserRow {
        let normalized = Self.normalize(email: email)
        if try await find(email: normalized) != nil { throw PersistenceError.emailTaken }
        let user = UserRecord(email: normalized, passwordHash: passwordHash)
        do {
            try await user.create(on: database)
        } catch let error as any DatabaseError where error.isConstraintFailure {
            // Lost a race with another registration of the same email.
            throw PersistenceError.emailTaken
        }
        return try user.row()
    }

    public func find(email: String) async throws -> UserRow? {
        try await UserRecord.query(on: database).filter(\.$email == Self.normalize(email: email)).first()?.row()
    }

    public func find(id: UUID) async throws -> UserRow? {
        try await UserRecord.find(id, on: database)?.row()
    }

    /// How many accounts there are (and proof the database answers).
    public func count() async throws -> Int {
        try await UserRecord.query(on: database).count()
    }
}
