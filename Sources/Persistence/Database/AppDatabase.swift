import FluentKit

/// The database as everything above Persistence holds it: repositories are made from it and
/// work that must not interleave runs in its transactions. Fluent stays inside this module;
/// the edges (the server's requests, `StoryDatabase` for workers and the CLI, the tests' databases)
/// wrap their Fluent handle in one.
public struct AppDatabase: Sendable {
    /// The Fluent handle inside, for the tests' own SQL (`@_spi(Fluent) import Persistence`).
    @_spi(Fluent) public let fluent: any Database

    public init(_ fluent: any Database) {
        self.fluent = fluent
    }

    /// Runs `work` in one transaction; everything it reads and writes must go through the
    /// database it is given (another connection would wait for this one, or read around it).
    public func transaction<T: Sendable>(_ work: @escaping @Sendable (AppDatabase) async throws -> T) async throws -> T {
        try await fluent.transaction { try await work(AppDatabase($0)) }
    }
}
