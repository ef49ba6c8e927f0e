import FluentKit
import FluentSQL

extension Database {
    /// The SQL interface of this database. Both supported drivers (SQLite, PostgreSQL) are SQL
    /// databases; the conditional updates behind leases and token rotation need it.
    public func requireSQL() throws -> any SQLDatabase {
        guard let sql = self as? any SQLDatabase else {
            throw PersistenceError.invalidDatabaseURL(reason: "the configured database does not speak SQL")
        }
        return sql
    }
}
