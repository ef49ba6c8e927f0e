import FluentKit
import NIOCore
import NIOPosix

/// SQLite connections of one database on a thread pool of their own, with a thread more than
/// there are connections.
///
/// SQLiteNIO runs every statement on a thread pool and answers a lock held by another
/// connection by retrying at once, on that thread, until the lock is free. Shared by every
/// database (`NIOThreadPool.singleton`, two threads on two cores), connections waiting for
/// locks could take every thread while the connections holding those locks, in the middle of a
/// transaction, waited for a thread: each test process's databases then stood still, spinning,
/// for good (seen in `make test`). With a pool per database and a thread to spare, the
/// connection holding a lock always finds a thread to finish on.
struct SQLiteThreadPoolConfiguration: DatabaseConfiguration {
    var base: any DatabaseConfiguration

    var middleware: [any AnyModelMiddleware] {
        get { base.middleware }
        set { base.middleware = newValue }
    }

    func makeDriver(for databases: Databases) -> any DatabaseDriver {
        // The driver keeps one connection per event loop.
        let connections = databases.eventLoopGroup.makeIterator().reduce(0) { count, _ in count + 1 }
        let pool = NIOThreadPool(numberOfThreads: connections + 1)
        pool.start()
        let own = Databases(threadPool: pool, on: databases.eventLoopGroup)
        return Driver(base: base.makeDriver(for: own), pool: pool)
    }

    struct Driver: DatabaseDriver {
        let base: any DatabaseDriver
        let pool: NIOThreadPool

        func makeDatabase(with context: DatabaseContext) -> any Database {
            base.makeDatabase(with: context)
        }

        func shutdown() {
            base.shutdown()
            try? pool.syncShutdownGracefully()
        }

        func shutdownAsync() async {
            await base.shutdownAsync()
            try? await pool.shutdownGracefully()
        }
    }
}
