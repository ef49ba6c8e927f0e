import Crypto
import FluentKit
import FluentSQL
import Foundation
import StoryModel

/// A freshly minted refresh token: the value goes to the client, only its hash is stored.
public struct IssuedRefreshToken: Sendable {
    public let value: String
    /// The login session the token belongs to; access tokens name it.
    public let familyID: UUID
    public let expiresAt: Date
}

/// What presenting a refresh token led to.
public enum RefreshOutcome: Sendable {
    /// The token was valid; it is now revoked and `next` replaces it in the same family.
    case rotated(userID: UUID, next: IssuedRefreshToken)
    /// The token was already used or revoked: the family has been revoked.
    case reused
    case expired
    case unknown
}

/// Refresh tokens: issue, rotate (with reuse detection), revoke.
public struct RefreshTokenRepository: Sendable {
    let database: any Database

    public init(database: AppDatabase) {
        self.database = database.fluent
    }

    /// SHA-256 of a token value, hex-encoded; what the database stores.
    public static func hash(_ value: String) -> String {
        SHA256.hash(data: Data(value.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// 32 random bytes, base64url without padding.
    static func generateValue() -> String {
        SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
            .base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Issues a token, starting a new family unless one is given.
    public func issue(userID: UUID, familyID: UUID = UUID.random(), expiresAt: Date) async throws -> IssuedRefreshToken {
        let value = Self.generateValue()
        let record = RefreshTokenRecord(userID: userID, tokenHash: Self.hash(value), familyID: familyID, expiresAt: expiresAt)
        try await record.create(on: database)
        return IssuedRefreshToken(value: value, familyID: familyID, expiresAt: expiresAt)
    }

    func find(value: String) async throws -> RefreshTokenRecord? {
        try await RefreshTokenRecord.query(on: database).filter(\.$tokenHash == Self.hash(value)).first()
    }

    /// Spends `value` and issues its successor. The spend is one conditional UPDATE, so two
    /// concurrent refreshes with the same token cannot both succeed: the loser sees reuse.
    public func rotate(value: String, now: Date, nextExpiresAt: Date) async throws -> RefreshOutcome {
        guard let record = try await find(value: value), let id = record.id else { return .unknown }
        if record.revoked {
            try await revokeFamily(record.familyID)
            return .reused
        }
        if record.expiresAt <= now { return .expired }
        let spent = try await database.requireSQL().update(RefreshTokenRecord.schema)
            .set("revoked", to: true)
            .where("id", .equal, id)
            .where("revoked", .equal, false)
            .returning("id")
            .all()
        guard !spent.isEmpty else {
            try await revokeFamily(record.familyID)
            return .reused
        }
        let userID = record.$user.id
        let next = try await issue(userID: userID, familyID: record.familyID, expiresAt: nextExpiresAt)
        return .rotated(userID: userID, next: next)
    }

    /// Revokes the family `value` belongs to; returns false when the token is unknown.
    @discardableResult
    public func revoke(value: String) async throws -> Bool {
        guard let record = try await find(value: value) else { return false }
        try await revokeFamily(record.familyID)
        return true
    }

    /// Whether the sign-in `familyID` started is still live: some token of it is neither
    /// revoked (by logout or by reuse) nor expired.
    public func isLive(family familyID: UUID, now: Date = Date()) async throws -> Bool {
        try await RefreshTokenRecord.query(on: database)
            .filter(\.$familyID == familyID)
            .filter(\.$revoked == false)
            .filter(\.$expiresAt > now)
            .first() != nil
    }

    public func revokeFamily(_ familyID: UUID) async throws {
        try await RefreshTokenRecord.query(on: database)
            .filter(\.$familyID == familyID)
            .set(\.$revoked, to: true)
            .update()
    }
}
