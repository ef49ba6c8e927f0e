import FluentKit
import Foundation

/// An account. The email is stored lower-cased and is unique; the password only as a Bcrypt hash
/// (hashing happens in the server, which owns Bcrypt, so this module stays free of Vapor).
final class UserRecord: Model, @unchecked Sendable {
    static let schema = "users"

    @ID(key: .id) var id: UUID?
    @Field(key: "email") var email: String
    @Field(key: "password_hash") var passwordHash: String
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?

    init() {}

    init(id: UUID? = nil, email: String, passwordHash: String) {
        self.id = id
        self.email = email
        self.passwordHash = passwordHash
    }

    func row() throws -> UserRow {
        UserRow(id: try requireID(), email: email, passwordHash: passwordHash, createdAt: createdAt)
    }
}
