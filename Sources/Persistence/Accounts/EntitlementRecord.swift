import FluentKit
import Foundation

/// Something a user's account is entitled to (`premium`), where it came from and until when.
///
/// One row per (user, entitlement, source): an admin's grant and an App Store purchase are kept
/// apart, so revoking one leaves the other.
public final class EntitlementRecord: Model, @unchecked Sendable {
    public static let schema = "entitlements"

    @ID(key: .id) public var id: UUID?
    @Parent(key: "user_id") public var user: UserRecord
    /// `premium`.
    @Field(key: "entitlement") public var entitlement: String
    /// `admin` (storyvoice admin grant-premium), later `app_store`.
    @Field(key: "source") public var source: String
    /// Nil: until revoked.
    @OptionalField(key: "expires_at") public var expiresAt: Date?
    @Field(key: "created_at") public var createdAt: Date
    @Field(key: "updated_at") public var updatedAt: Date

    public init() {}

    public init(id: UUID? = nil, userID: UUID, entitlement: String, source: String, expiresAt: Date?, now: Date) {
        self.id = id
        self.$user.id = userID
        self.entitlement = entitlement
        self.source = source
        self.expiresAt = expiresAt
        self.createdAt = now
        self.updatedAt = now
    }

    public func isActive(at now: Date) -> Bool {
        expiresAt.map { $0 > now } ?? true
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
