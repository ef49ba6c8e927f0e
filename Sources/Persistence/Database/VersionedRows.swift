import FluentKit
import FluentSQL

/// Rows edited by compare-and-swap on their `version` column: an edit is written only over the
/// version it read; when another write came first, the row is read again and the edit applied
/// to the fresh row. So parallel edits are serialised and none is lost, and the version is what
/// a client names in `If-Match`.
enum VersionedRows {
    /// Reads the row (`read`), applies `change`, and writes it with `write`, which must write only
    /// where the version is still the one read (its second argument) and say whether it did.
    /// Nil when the row is gone; `conflict` is thrown when other writes kept winning.
    static func modify<Row>(
        attempts: Int, conflict: any Error, read: () async throws -> Row?, version: (Row) -> Int,
        change: (inout Row) throws -> Void, write: (inout Row, Int) async throws -> Bool
    ) async throws -> Row? {
        for _ in 0..<attempts {
            guard var row = try await read() else { return nil }
            let seen = version(row)
            try change(&row)
            if try await write(&row, seen) { return row }
            // Another writer won: step aside a moment so the two do not collide again in step.
            try await Task.sleep(for: .milliseconds(Int.random(in: 1...10)))
        }
        throw conflict
    }

    /// `version = version + 1`, for the `SET` of a versioned write.
    static var nextVersion: SQLBinaryExpression {
        SQLBinaryExpression(SQLIdentifier("version"), .add, SQLLiteral.numeric("1"))
    }
}
