import FluentKit
import Foundation

/// One refresh token, stored only as the SHA-256 of its value.
///
/// Tokens issued from one login form a family: each refresh revokes the presented token and
/// issues the next one in the same family. Presenting a token that was already used means it
/// leaked, so the whole family is revoked.
final class RefreshTokenRecord: Model, @unchecked Sendable {
    static let schema = "refresh_tokens"

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var user: UserRecord
    @Field(key: "token_hash") var tokenHash: String
    @Field(key: "family_id") var familyID: UUID
    @Field(key: "revoked") var revoked: Bool
    @Field(key: "expires_at") var expiresAt: Date
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?

    init() {}

    init(id: UUID? = nil, userID: UUID, tokenHash: String, familyID: UUID, expiresAt: Date) {
        self.id = id
        self.$user.id = userID
        self.tokenHash = tokenHash
        self.familyID = familyID
        self.revoked = false
        self.expiresAt = expiresAt
    }
}
