import NIOPosix
import Synchronization
import Vapor

/// Bcrypt off the shared thread pool, a bounded number at a time.
///
/// Bcrypt at cost 12 takes a quarter of a second of CPU. Run on the application's thread pool,
/// a spray of logins queued behind each other there, and SQLite, which runs its queries on the
/// same pool, stopped answering: signed-in users waited 10–15 s and other requests failed with
/// `connectionRequestTimeout`. Here hashing has its own threads (one fewer than the cores, so a
/// core is always left for serving), and when too many hashes are already waiting a login is
/// refused at once with 503 and `Retry-After` instead of joining the queue.
final class PasswordHasher: Sendable {
    static let shared = PasswordHasher()

    private let pool: NIOThreadPool
    private let waiting = Mutex(0)
    let maxWaiting: Int

    init(threads: Int = max(1, System.coreCount - 1), maxWaiting: Int = 32) {
        pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
        self.maxWaiting = maxWaiting
    }

    func hash(_ password: String, cost: Int) async throws -> String {
        try await run { try Bcrypt.hash(password, cost: cost) }
    }

    func verify(_ password: String, hash: String) async throws -> Bool {
        try await run { try Bcrypt.verify(password, created: hash) }
    }

    private func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        let admitted = waiting.withLock { count in
            guard count < maxWaiting else { return false }
            count += 1
            return true
        }
        guard admitted else {
            var error = APIError(status: .serviceUnavailable, code: "busy",
                                 message: "The server is busy signing people in; try again in a few seconds.")
            error.headers.replaceOrAdd(name: .retryAfter, value: "5")
            throw error
        }
        defer { waiting.withLock { $0 -= 1 } }
        return try await pool.runIfActive(work)
    }
}
