import FluentKit
import Foundation

/// Grants, revokes and reads what users are entitled to. Every query names the user.
public struct EntitlementRepository: Sendable {
    let database: any Database

    public init(database: AppDatabase) {
        self.database = database.fluent
    }

    /// Grants `entitlement` from `source` until `expiresAt` (nil: until revoked), replacing an
    /// earlier grant from the same source.
    @discardableResult
    public func grant(
        _ entitlement: String, to userID: UUID, source: String, expiresAt: Date?, now: Date = Date()
    ) async throws -> EntitlementRow {
        if let existing = try await find(entitlement, userID: userID, source: source) {
            existing.expiresAt = expiresAt
            existing.updatedAt = now
            try await existing.update(on: database)
            return try existing.row()
        }
        let record = EntitlementRecord(userID: userID, entitlement: entitlement, source: source, expiresAt: expiresAt, now: now)
        try await record.create(on: database)
        return try record.row()
    }

    /// Removes the grant from `source`; returns whether there was one.
    @discardableResult
    public func revoke(_ entitlement: String, from userID: UUID, source: String) async throws -> Bool {
        guard let existing = try await find(entitlement, userID: userID, source: source) else { return false }
        try await existing.delete(on: database)
        return true
    }

    /// The user's grants of `entitlement` in force at `now`, the longest-lasting first.
    public func active(_ entitlement: String, userID: UUID, now: Date = Date()) async throws -> [EntitlementRow] {
        let grants = try await EntitlementRecord.query(on: database)
            .filter(\.$user.$id == userID)
            .filter(\.$entitlement == entitlement)
            .all()
            .map { try $0.row() }
        return grants.filter { $0.isActive(at: now) }.sorted { ($0.expiresAt ?? .distantFuture) > ($1.expiresAt ?? .distantFuture) }
    }

    private func find(_ entitlement: String, userID: UUID, source: String) async throws -> EntitlementRecord? {
        try await EntitlementRecord.query(on: database)
            .filter(\.$user.$id == userID)
            .filter(\.$entitlement == entitlement)
            .filter(\.$source == source)
            .first()
    }
}
