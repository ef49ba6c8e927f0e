import FluentKit
import FluentPostgresDriver
import FluentSQLiteDriver
import Foundation

/// Which database StoryVoice uses: a SQLite file by default, PostgreSQL when `DATABASE_URL` is set.
public enum DatabaseLocation: Sendable, Hashable {
    case sqlite(path: String)
    case postgres(url: String)

    public static func resolve(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        dataDirectory: DataDirectory
    ) -> DatabaseLocation {
        if let url = environment["DATABASE_URL"], !url.isEmpty {
            return .postgres(url: url)
        }
        return .sqlite(path: dataDirectory.sqliteFile.path)
    }

    public var databaseID: DatabaseID {
        switch self {
        case .sqlite: .sqlite
        case .postgres: .psql
        }
    }

    /// The Fluent configuration for this location. Throws when a PostgreSQL URL cannot be parsed.
    public func configurationFactory() throws -> DatabaseConfigurationFactory {
        switch self {
        case .sqlite(let path):
            // One connection per event loop, and writers take turns. A request that waits longer
            // than the pool's timeout fails with a 500, so the wait is longer than the default
            // 10 s: on a loaded machine, six simultaneous exports once gave 500s to the three
            // that queued last, most likely at this timeout.
            let sqlite = DatabaseConfigurationFactory.sqlite(
                SQLiteConfiguration(storage: .file(path: path)), connectionPoolTimeout: .seconds(30), sqlLogLevel: .trace)
            return DatabaseConfigurationFactory { SQLiteThreadPoolConfiguration(base: sqlite.make()) }
        case .postgres(let url):
            do {
                return try .postgres(url: url, maxConnectionsPerEventLoop: 4, sqlLogLevel: .trace)
            } catch {
                throw PersistenceError.invalidDatabaseURL(reason: String(describing: error))
            }
        }
    }

    /// A description safe for logs: PostgreSQL URLs lose their password.
    public var redactedDescription: String {
        switch self {
        case .sqlite(let path):
            return "SQLite at \(path)"
        case .postgres(let url):
            guard var components = URLComponents(string: url) else { return "PostgreSQL" }
            if components.password != nil { components.password = "***" }
            return "PostgreSQL at \(components.string ?? "?")"
        }
    }
}
