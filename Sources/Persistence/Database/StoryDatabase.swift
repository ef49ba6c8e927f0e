import FluentKit
import Foundation
import Logging
import NIOCore
import NIOPosix

/// A database connection pool for processes without Vapor (`storyvoice worker`, tests).
/// The server uses Vapor's `app.databases` with the same `DatabaseLocation` and migrations.
public final class StoryDatabase: Sendable {
    public let location: DatabaseLocation
    public let logger: Logger
    private let databases: Databases
    private let eventLoopGroup: any EventLoopGroup

    public init(location: DatabaseLocation, logger: Logger = Logger(label: "storyvoice.database")) throws {
        self.location = location
        self.logger = logger
        self.eventLoopGroup = MultiThreadedEventLoopGroup.singleton
        self.databases = Databases(threadPool: NIOThreadPool.singleton, on: eventLoopGroup)
        databases.use(try location.configurationFactory(), as: location.databaseID, isDefault: true)
    }

    /// A database handle on one of the group's event loops.
    public var database: AppDatabase {
        AppDatabase(databases.database(location.databaseID, logger: logger, on: eventLoopGroup.any())!)
    }

    /// Applies every migration that has not run yet.
    public func migrate() async throws {
        let migrations = Migrations()
        migrations.add(DatabaseMigrations.all, to: location.databaseID)
        let migrator = Migrator(databases: databases, migrations: migrations, logger: logger, on: eventLoopGroup.any())
        try await migrator.setupIfNeeded().get()
        try await migrator.prepareBatch().get()
    }

    /// Closes every connection. Call once, when done.
    public func shutdown() async {
        await databases.shutdownAsync()
    }
}
