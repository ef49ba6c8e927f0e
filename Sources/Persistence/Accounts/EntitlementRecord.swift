import FluentKit
import Foundation

/// Something a user's account is entitled to (`premium`), where it came from and until when.
///
/// One row per (user, entitlement, source): an admin's grant and an App Store purchase are kept
/// apart, so revoking one leaves the other.
final class EntitlementRecord: Model, @unchecked Sendable {
    static let schema = "entitlements"

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var user: UserRecord
    /// `premium`.
    @Field(key: "entitlement") var entitlement: String
    /// `admin` (storyvoice admin grant-premium), `app_store`.
    @Field(key: "source") var source: String
    /// Nil: until revoked.
    @OptionalField(key: "expires_at") var expiresAt: Date?
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    init(id: UUID? = nil, userID: UUID, entitlement: String, source: String, expiresAt: Date?, now: Date) {
        self.id = id
        self.$user.id = userID
        self.entitlement = entitlement
        self.source = source
        self.expiresAt = expiresAt
        self.createdAt = now
        self.updatedAt = now
    }

    func row() throws -> EntitlementRow {
        EntitlementRow(id: try requireID(), userID: $user.id, entitlement: entitlement, source: source, expiresAt: expiresAt,
                       createdAt: createdAt, updatedAt: updatedAt)
    }
}

/// The entitlements there are, and where grants come from.
public enum Entitlement {
    public static let premium = "premium"

    public enum Source {
        public static let admin = "admin"
        public static let appStore = "app_store"
    }
}
