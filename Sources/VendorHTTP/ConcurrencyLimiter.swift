/// At most `limit` requests in flight at once; the rest wait their turn in order.
///
/// One limiter is shared by every client of a provider, so several analyses running at
/// once still respect the provider's rate limits together.
public actor ConcurrencyLimiter {
    public let limit: Int
    private var inUse = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []
    /// The most permits ever held at once; lets tests check the limit held.
    public private(set) var peak = 0

    public init(limit: Int) {
        self.limit = max(1, limit)
    }

    public func acquire() async {
        if inUse < limit {
            inUse += 1
            peak = max(peak, inUse)
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    public func release() {
        if waiters.isEmpty {
            inUse -= 1
        } else {
            // The permit passes straight to the next waiter: `inUse` stays the same.
            waiters.removeFirst().resume()
        }
    }

    /// Requests waiting for a permit now.
    public var waiting: Int { waiters.count }

    /// Waits for a permit; a task cancelled while it waited gives the permit back at once and
    /// throws, so a request whose client went away costs nothing when its turn comes.
    public nonisolated func acquireUnlessCancelled() async throws {
        await acquire()
        if Task.isCancelled {
            await release()
            throw CancellationError()
        }
    }

    /// Runs `body` holding one permit.
    public nonisolated func withPermit<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await acquireUnlessCancelled()
        do {
            let value = try await body()
            await release()
            return value
        } catch {
            await release()
            throw error
        }
    }
}
