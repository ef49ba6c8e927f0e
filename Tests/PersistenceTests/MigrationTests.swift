import DatabaseTestSupport
import FluentKit
import FluentSQL
import Foundation
@_spi(Fluent) import Persistence
import Testing

@Suite("Migrations")
struct MigrationTests {
    @Test("PostgreSQL backend", .enabled(if: Backend.postgresURL != nil, Backend.skipNote))
    func postgresIsConfigured() async throws {
        #expect(Backend.available.contains(.postgres))
    }

    @Test("every migration runs under its explicit name", arguments: Backend.available)
    func explicitNames(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            let rows = try await database.database.fluent.requireSQL()
                .raw("SELECT name FROM _fluent_migrations ORDER BY name").all()
            let names = try rows.map { try $0.decode(column: "name", as: String.self) }
            #expect(names == [
                "storyvoice-001-create-users",
                "storyvoice-002-create-refresh-tokens",
                "storyvoice-003-create-user-settings",
                "storyvoice-004-create-provider-keys",
                "storyvoice-005-create-stories",
                "storyvoice-006-create-jobs",
                "storyvoice-007-add-story-renders",
                "storyvoice-008-add-story-versions",
                "storyvoice-009-add-story-chapters",
                "storyvoice-010-add-narration-voices",
                "storyvoice-011-create-voice-conversations",
                "storyvoice-012-create-chat-conversations",
                "storyvoice-013-create-chat-exports",
                "storyvoice-014-create-entitlements",
                "storyvoice-015-create-journeys",
                "storyvoice-016-create-journey-parts",
                "storyvoice-017-create-call-accounts",
                "storyvoice-018-create-phone-calls",
                "storyvoice-019-create-scheduled-calls",
                "storyvoice-020-create-store-transactions",
                "storyvoice-021-create-store-notifications",
                "storyvoice-022-create-custom-scenarios",
                "storyvoice-023-add-chat-conversation-versions",
                "storyvoice-024-create-user-locks",
            ])
            #expect(DatabaseMigrations.all.map(\.name) == names)
        }
    }

    @Test("migrating twice changes nothing", arguments: Backend.available)
    func idempotent(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            try await database.migrate()
            let count = try await database.database.fluent.requireSQL()
                .raw("SELECT COUNT(*) AS n FROM _fluent_migrations").first()?.decode(column: "n", as: Int.self)
            #expect(count == DatabaseMigrations.all.count)
        }
    }
}

@Suite("Database location")
struct DatabaseLocationTests {
    @Test func sqliteInDataDirectoryByDefault() {
        let directory = DataDirectory.resolve(environment: ["STORYVOICE_DATA_DIR": "/srv/sv"])
        #expect(directory.url.path == "/srv/sv")
        #expect(DatabaseLocation.resolve(environment: [:], dataDirectory: directory) == .sqlite(path: "/srv/sv/storyvoice.sqlite"))
    }

    @Test func defaultDataDirectoryIsUnderHome() {
        let directory = DataDirectory.resolve(environment: ["HOME": "/home/ada"])
        #expect(directory.url.path == "/home/ada/.local/share/storyvoice")
    }

    @Test func postgresWhenDatabaseURLIsSet() {
        let directory = DataDirectory(url: URL(fileURLWithPath: "/tmp/x"))
        let location = DatabaseLocation.resolve(environment: ["DATABASE_URL": "postgres://u:secret@db:5432/sv"], dataDirectory: directory)
        #expect(location == .postgres(url: "postgres://u:secret@db:5432/sv"))
        #expect(!location.redactedDescription.contains("secret"))
    }

    @Test func invalidPostgresURLIsExplained() {
        #expect(throws: PersistenceError.self) {
            _ = try DatabaseLocation.postgres(url: "not a url").configurationFactory()
        }
    }
}

@Suite("Concurrent migration")
struct ConcurrentMigrationTests {
    // Without the retry this fails most runs: one migrator finds the other's tables.
    @Test("two processes' worth of migrators on one new database both succeed", arguments: Backend.available)
    func race(_ backend: Backend) async throws {
        let test = try await TestDatabase.make(backend)
        let first = try StoryDatabase(location: test.location)
        let second = try StoryDatabase(location: test.location)
        do {
            async let a: Void = ConcurrentMigration.run { try await first.migrate() }
            async let b: Void = ConcurrentMigration.run { try await second.migrate() }
            _ = try await (a, b)
            let count = try await first.database.fluent.requireSQL()
                .raw("SELECT COUNT(*) AS n FROM _fluent_migrations").first()?.decode(column: "n", as: Int.self)
            #expect(count == DatabaseMigrations.all.count)
        } catch {
            await first.shutdown(); await second.shutdown(); await test.destroy()
            throw error
        }
        await first.shutdown(); await second.shutdown(); await test.destroy()
    }

    @Test("an error that persists is reported")
    func persistentError() async throws {
        struct Broken: Error {}
        await #expect(throws: Broken.self) {
            try await ConcurrentMigration.run(attempts: 2, delay: .milliseconds(1)) { throw Broken() }
        }
    }
}
