// Shared by the database test suites (persistence, jobs, server); not part of the product.
import FluentKit
import FluentSQL
import Foundation
@_spi(Fluent) import Persistence
import Testing

/// The databases the suites run against: always SQLite; PostgreSQL when
/// `STORYVOICE_TEST_POSTGRES_URL` names a server (`scripts/postgres-test start` prints one).
public enum Backend: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case sqlite
    case postgres

    public static var postgresURL: String? {
        ProcessInfo.processInfo.environment["STORYVOICE_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The backends to run parameterised tests on.
    public static var available: [Backend] {
        postgresURL == nil ? [.sqlite] : [.sqlite, .postgres]
    }

    public static let skipNote: Comment = "STORYVOICE_TEST_POSTGRES_URL is not set: PostgreSQL variants are skipped (make test starts one)"

    public var testDescription: String { rawValue }
}

/// A fresh, migrated database for one test: a SQLite file in a new temp directory, or a new
/// PostgreSQL database on the test server, dropped afterwards.
public struct TestDatabase: Sendable {
    public let backend: Backend
    public let location: DatabaseLocation
    public let directory: URL
    private let postgresName: String?

    public static func make(_ backend: Backend) async throws -> TestDatabase {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("storyvoice-test-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        switch backend {
        case .sqlite:
            return TestDatabase(
                backend: backend, location: .sqlite(path: directory.appendingPathComponent("test.sqlite").path),
                directory: directory, postgresName: nil
            )
        case .postgres:
            let base = try #require(Backend.postgresURL)
            let name = "sv_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            try await Self.adminRun(base, "CREATE DATABASE \(name)")
            var components = try #require(URLComponents(string: base))
            components.path = "/" + name
            return TestDatabase(
                backend: backend, location: .postgres(url: try #require(components.string)),
                directory: directory, postgresName: name
            )
        }
    }

    /// Removes the database and the temp directory.
    public func destroy() async {
        if let postgresName, let base = Backend.postgresURL {
            try? await Self.adminRun(base, "DROP DATABASE IF EXISTS \(postgresName) WITH (FORCE)")
        }
        try? FileManager.default.removeItem(at: directory)
    }

    private static func adminRun(_ url: String, _ statement: String) async throws {
        let admin = try StoryDatabase(location: .postgres(url: url))
        do {
            try await admin.database.fluent.requireSQL().raw(SQLQueryString(statement)).run()
        } catch {
            await admin.shutdown()
            throw error
        }
        await admin.shutdown()
    }
}

/// Runs `body` with a migrated `StoryDatabase` on `backend`, cleaning up afterwards.
public func withDatabase<T>(
    _ backend: Backend, _ body: (StoryDatabase, TestDatabase) async throws -> T
) async throws -> T {
    let test = try await TestDatabase.make(backend)
    let database = try StoryDatabase(location: test.location)
    do {
        try await database.migrate()
        let result = try await body(database, test)
        await database.shutdown()
        await test.destroy()
        return result
    } catch {
        await database.shutdown()
        await test.destroy()
        throw error
    }
}
