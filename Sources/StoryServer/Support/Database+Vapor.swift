import Fluent
import Persistence
import Vapor

// The server's edge of Persistence: Fluent's handles, wrapped as everything below takes them.

extension Request {
    /// This request's database (its event loop's connection pool).
    var appDatabase: AppDatabase { AppDatabase(db) }
}

extension Application {
    /// The application's database, for work outside a request (job workers, call hooks).
    var appDatabase: AppDatabase { AppDatabase(db) }
}
