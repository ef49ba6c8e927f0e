import DatabaseTestSupport
import FluentKit
import FluentSQL
import Foundation
@_spi(Fluent) @testable import Persistence
import Testing

@Suite("Users and refresh tokens")
struct UserAndTokenTests {
    @Test("emails are unique regardless of case", arguments: Backend.available)
    func uniqueEmail(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            let users = UserRepository(database: database.database)
            let ada = try await users.create(email: " Ada@Example.com ", passwordHash: "$2b$hash")
            #expect(ada.email == "ada@example.com")
            await #expect(throws: PersistenceError.emailTaken) {
                _ = try await users.create(email: "ADA@example.com", passwordHash: "$2b$other")
            }
            #expect(try await users.find(email: "ada@EXAMPLE.com")?.id == ada.id)
        }
    }

    @Test("refresh tokens are stored only as SHA-256 hashes", arguments: Backend.available)
    func storedHashed(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            let user = try await UserRepository(database: database.database).create(email: "a@b.co", passwordHash: "h")
            let tokens = RefreshTokenRepository(database: database.database)
            let issued = try await tokens.issue(userID: user.id, expiresAt: Date().addingTimeInterval(60))
            let rows = try await database.database.fluent.requireSQL().raw("SELECT token_hash FROM refresh_tokens").all()
            let stored = try rows.map { try $0.decode(column: "token_hash", as: String.self) }
            #expect(stored == [RefreshTokenRepository.hash(issued.value)])
            #expect(!stored.contains(issued.value))
            #expect(issued.value.count >= 43)
        }
    }

    @Test("rotation spends the token; reuse revokes the whole family", arguments: Backend.available)
    func rotationAndReuse(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            let user = try await UserRepository(database: database.database).create(email: "a@b.co", passwordHash: "h")
            let userID = user.id
            let tokens = RefreshTokenRepository(database: database.database)
            let later = Date().addingTimeInterval(3600)
            let first = try await tokens.issue(userID: userID, expiresAt: later)
            let other = try await tokens.issue(userID: userID, expiresAt: later)

            guard case .rotated(let owner, let second) = try await tokens.rotate(value: first.value, now: Date(), nextExpiresAt: later) else {
                Issue.record("expected rotation"); return
            }
            #expect(owner == userID)
            #expect(second.familyID == first.familyID)

            guard case .reused = try await tokens.rotate(value: first.value, now: Date(), nextExpiresAt: later) else {
                Issue.record("expected reuse"); return
            }
            // The successor died with the family; another login's family is untouched.
            #expect(try await tokens.find(value: second.value)?.revoked == true)
            #expect(try await tokens.find(value: other.value)?.revoked == false)
            guard case .reused = try await tokens.rotate(value: second.value, now: Date(), nextExpiresAt: later) else {
                Issue.record("expected the successor to be revoked"); return
            }
        }
    }

    @Test("expired and unknown refresh tokens are refused", arguments: Backend.available)
    func expiredAndUnknown(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            let user = try await UserRepository(database: database.database).create(email: "a@b.co", passwordHash: "h")
            let tokens = RefreshTokenRepository(database: database.database)
            let issued = try await tokens.issue(userID: user.id, expiresAt: Date().addingTimeInterval(10))
            guard case .expired = try await tokens.rotate(value: issued.value, now: Date().addingTimeInterval(11), nextExpiresAt: Date()) else {
                Issue.record("expected expiry"); return
            }
            guard case .unknown = try await tokens.rotate(value: "nope", now: Date(), nextExpiresAt: Date()) else {
                Issue.record("expected unknown"); return
            }
        }
    }

    @Test("two concurrent refreshes with one token: exactly one wins", arguments: Backend.available)
    func concurrentRotation(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            let user = try await UserRepository(database: database.database).create(email: "a@b.co", passwordHash: "h")
            let later = Date().addingTimeInterval(3600)
            let issued = try await RefreshTokenRepository(database: database.database).issue(userID: user.id, expiresAt: later)
            let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        let repository = RefreshTokenRepository(database: database.database)
                        if case .rotated = try await repository.rotate(value: issued.value, now: Date(), nextExpiresAt: later) { return true }
                        return false
                    }
                }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 }.count == 1)
        }
    }
}
