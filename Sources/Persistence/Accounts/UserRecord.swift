import FluentKit
import Foundation

/// An account. The email is stored lower-cased and is unique; the password only as a Bcrypt hash
/// (hashing happens in the server, which owns Bcrypt, so this module stays free of Vapor).
public final class UserRecord: Model, @unchecked Sendable {
    public static let schema = "users"

    @ID(key: .id) public var id: UUID?
    @Field(key: "email") public var email: String
    @Field(key: "password_hash") public var passwordHash: String
    @Timestamp(key: "created_at", on: .create) public var createdAt: Date?

    public init() {}

    public init(id: UUID? = nil, email: String, passwordHash: String) {
        self.id = id
        self.email = email
        self.passwordHash = passwordHash
    }
}
