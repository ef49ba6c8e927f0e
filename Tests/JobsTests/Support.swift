import Foundation
import Jobs
import Persistence
import Synchronization

/// A clock tests move by hand, so lease expiry and backoff need no sleeping.
final class TestClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = Mutex(start)
    }

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    var function: @Sendable () -> Date { { self.now } }
}

func makeOwner(_ database: StoryDatabase, email: String = "owner@example.com") async throws -> UUID {
    try await UserRepository(database: database.database).create(email: email, passwordHash: "h").id
}

/// Polls `condition` until it holds; fails after `attempts` tries. Not a timing assertion: the
/// bound only keeps a broken feature from hanging the suite.
func eventually(
    attempts: Int = 400, every interval: Duration = .milliseconds(25), _ condition: () async throws -> Bool
) async throws -> Bool {
    for _ in 0..<attempts {
        if try await condition() { return true }
        try await Task.sleep(for: interval)
    }
    return false
}

/// A counter handlers can bump from any task.
final class Counter: Sendable {
    private let value = Mutex(0)

    /// Adds one and returns the new count.
    func next() -> Int {
        value.withLock { $0 += 1; return $0 }
    }

    var current: Int { value.withLock { $0 } }
}
