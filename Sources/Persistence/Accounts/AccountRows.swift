import Foundation

/// An account as the rest of the server sees it: what `UserRepository` returns.
public struct UserRow: Sendable, Equatable {
    public var id: UUID
    /// Lower-cased, unique.
    public var email: String
    /// Bcrypt; hashing and checking happen in the server.
    public var passwordHash: String
    public var createdAt: Date?
}

/// One grant of an entitlement (`premium`) from one source, until when: what
/// `EntitlementRepository` returns.
public struct EntitlementRow: Sendable, Equatable {
    public var id: UUID
    public var userID: UUID
    public var entitlement: String
    /// `Entitlement.Source.admin` or `.appStore`.
    public var source: String
    /// Nil: until revoked.
    public var expiresAt: Date?
    public var createdAt: Date
    public var updatedAt: Date

    public func isActive(at now: Date) -> Bool {
        expiresAt.map { $0 > now } ?? true
    }
}
