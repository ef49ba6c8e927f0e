import ArgumentParser
import Foundation
import Persistence

/// `storyvoice admin`: account changes an operator makes by hand, on the database the server
/// uses (STORYVOICE_DATA_DIR's SQLite, or DATABASE_URL).
struct Admin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Manage accounts on the server's database.",
        subcommands: [GrantPremium.self, RevokePremium.self])

    struct GrantPremium: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "grant-premium",
            abstract: "Give an account premium (chat stories: unlimited videos, no watermark, every look, the generator).")

        @Argument(help: "The account's email.")
        var email: String

        @Option(help: "Days premium lasts from now; without it, until revoked.")
        var days: Int?

        func validate() throws {
            if let days, days < 1 { throw ValidationError("--days must be at least 1.") }
        }

        func run() async throws {
            let expiresAt = days.map { Date().addingTimeInterval(Double($0) * 86_400) }
            try await AdminDatabase.withUser(email) { database, user in
                try await EntitlementRepository(database: database)
                    .grant(Entitlement.premium, to: user.id, source: Entitlement.Source.admin, expiresAt: expiresAt)
                let until = expiresAt.map { "until \($0.formatted(.iso8601))" } ?? "until revoked"
                print("\(user.email) has premium \(until).")
            }
        }
    }

    struct RevokePremium: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke-premium",
            abstract: "Take back premium granted with grant-premium.")

        @Argument(help: "The account's email.")
        var email: String

        func run() async throws {
            try await AdminDatabase.withUser(email) { database, user in
                let repository = EntitlementRepository(database: database)
                let userID = user.id
                let revoked = try await repository.revoke(Entitlement.premium, from: userID, source: Entitlement.Source.admin)
                let remaining = try await repository.active(Entitlement.premium, userID: userID)
                if !remaining.isEmpty {
                    print("\(user.email) keeps premium from \(remaining.map(\.source).joined(separator: ", ")), which this command does not revoke.")
                } else {
                    print(revoked ? "\(user.email) no longer has premium." : "\(user.email) had no premium to revoke.")
                }
            }
        }
    }
}

/// The database `storyvoice serve` would open, migrated, for one command.
enum AdminDatabase {
    static func withUser(_ email: String, _ body: (AppDatabase, UserRow) async throws -> Void) async throws {
        let environment = ProcessInfo.processInfo.environment
        let dataDirectory = DataDirectory.resolve(environment: environment)
        try dataDirectory.create()
        let database = try StoryDatabase(location: DatabaseLocation.resolve(environment: environment, dataDirectory: dataDirectory))
        do {
            try await ConcurrentMigration.run { try await database.migrate() }
            guard let user = try await UserRepository(database: database.database).find(email: email) else {
                throw UserFacingError("No account has the email \(UserRepository.normalize(email: email)) (\(database.location.redactedDescription)).")
            }
            try await body(database.database, user)
        } catch {
            await database.shutdown()
            throw error
        }
        await database.shutdown()
    }
}
