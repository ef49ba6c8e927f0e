import Foundation
import Synchronization

/// The order in which the model on this machine takes requests: whoever waits goes first.
///
/// The model answers `capacity` requests at once (one: on two cores a second request only
/// halves the speed of the first). Waiting requests are taken by urgency: live turns first, in
/// the order they came; then parts due within `dueHorizon`, earliest first; then everything
/// else, in turn across owners (the owner served longest ago goes next), so one user's long
/// queue does not hold up another's. A request more urgent than one that is running asks that
/// one to step aside (`Grant.preemption`): its holder stops it, gives the grant back and asks
/// again, keeping its place in its class, and goes on from where it stopped once its turn
/// comes (`LocalLanguageModel` resumes the answer from the text written so far).
public actor ModelScheduler {
    /// The right to run one request until it is given back or asked to step aside.
    public struct Grant: Sendable {
        let id: UInt64
        /// Becomes requested when a more urgent request waits for this one's place.
        public let preemption: Preemption
    }

    /// A request to stop and give the grant back, so that a more urgent request can run.
    public final class Preemption: Sendable {
        private let requested = Mutex(false)
        private let signal: AsyncStream<Void>.Continuation
        private let stream: AsyncStream<Void>

        init() {
            (stream, signal) = AsyncStream.makeStream(of: Void.self)
        }

        public var isRequested: Bool { requested.withLock { $0 } }

        func request() {
            let first = requested.withLock { was in
                defer { was = true }
                return !was
            }
            if first { signal.finish() }
        }

        /// Returns once this grant is asked to step aside, or when the waiting task is cancelled.
        public func wait() async {
            for await _ in stream {}
        }
    }

    /// What the scheduler is doing, for tests, logs and benchmarks.
    public struct Snapshot: Sendable {
        public var running: [ModelPriority]
        public var waiting: [ModelPriority]
        /// Requests asked to step aside since the scheduler started.
        public var preemptions: Int
    }

    private struct Waiter {
        var id: UInt64
        var priority: ModelPriority
        /// Arrival order; a request that stepped aside keeps its first arrival.
        var order: UInt64
        var continuation: CheckedContinuation<Grant, any Error>
    }

    private struct Holder {
        var priority: ModelPriority
        var order: UInt64
        var preemption: Preemption
    }

    public let capacity: Int
    /// A request due further ahead than this is background work until it comes nearer.
    public let dueHorizon: TimeInterval
    private let now: @Sendable () -> Date
    private var holders: [UInt64: Holder] = [:]
    private var waiters: [Waiter] = []
    /// When each owner was last given a grant (a count of grants), for turns across owners.
    private var lastTurn: [String: UInt64] = [:]
    private var counter: UInt64 = 0
    private var grants: UInt64 = 0
    private var preemptions = 0

    public init(capacity: Int = 1, dueHorizon: TimeInterval = 180, now: @escaping @Sendable () -> Date = { Date() }) {
        self.capacity = max(1, capacity)
        self.dueHorizon = dueHorizon
        self.now = now
    }

    /// Waits for a turn. `order` is the arrival a request that stepped aside keeps (the value
    /// `arrival` gave it); a cancelled wait leaves the queue and throws `CancellationError`.
    public func acquire(_ priority: ModelPriority, order: UInt64? = nil) async throws -> Grant {
        try Task.checkCancellation()
        counter += 1
        let id = counter
        let order = order ?? id
        if holders.count < capacity, waiters.isEmpty {
            return grant(id: id, priority: priority, order: order)
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // Cancelled before it queued: `leave` ran already and found nothing to remove.
                guard !Task.isCancelled else { return continuation.resume(throwing: CancellationError()) }
                waiters.append(Waiter(id: id, priority: priority, order: order, continuation: continuation))
                preemptIfMoreUrgent(priority)
                dispatch()
            }
        } onCancel: {
            Task { await self.leave(id) }
        }
    }

    /// A new arrival number, for a request that may step aside and come back (`acquire(_:order:)`).
    public func arrival() -> UInt64 {
        counter += 1
        return counter
    }

    /// Gives the grant back; the most urgent waiting request runs next.
    public func release(_ grant: Grant) {
        holders[grant.id] = nil
        dispatch()
    }

    public var snapshot: Snapshot {
        Snapshot(running: holders.values.sorted { $0.order < $1.order }.map(\.priority),
                 waiting: waiters.sorted { key($0.priority, $0.order) < key($1.priority, $1.order) }.map(\.priority),
                 preemptions: preemptions)
    }

    private func grant(id: UInt64, priority: ModelPriority, order: UInt64) -> Grant {
        grants += 1
        if let owner = priority.owner { lastTurn[owner] = grants }
        let preemption = Preemption()
        holders[id] = Holder(priority: priority, order: order, preemption: preemption)
        return Grant(id: id, preemption: preemption)
    }

    private func dispatch() {
        while holders.count < capacity, let best = waiters.indices.min(by: { key(waiters[$0].priority, waiters[$0].order) < key(waiters[$1].priority, waiters[$1].order) }) {
            let waiter = waiters.remove(at: best)
            waiter.continuation.resume(returning: grant(id: waiter.id, priority: waiter.priority, order: waiter.order))
        }
    }

    private func leave(_ id: UInt64) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume(throwing: CancellationError())
    }

    /// Asks the least urgent running request to step aside when `priority` is of a more urgent
    /// class (live over due over background; requests of one class never push each other out).
    /// A part due beyond the horizon is looked at again when it comes within it.
    private func preemptIfMoreUrgent(_ priority: ModelPriority) {
        if case .due(let date) = priority.urgency, rank(priority) == 2 {
            let wait = date.timeIntervalSince(now()) - dueHorizon
            Task { [weak self] in
                try? await Task.sleep(for: .seconds(max(0, wait) + 0.05))
                await self?.dueCameNear(priority)
            }
        }
        guard holders.count >= capacity else { return }
        let rank = self.rank(priority)
        let candidates = holders.values.filter { self.rank($0.priority) > rank && !$0.preemption.isRequested }
        guard let victim = candidates.max(by: { key($0.priority, $0.order) < key($1.priority, $1.order) }) else { return }
        preemptions += 1
        victim.preemption.request()
    }

    /// A waiting request due beyond the horizon has come within it: it may now make background
    /// work step aside, as it would had it arrived now.
    private func dueCameNear(_ priority: ModelPriority) {
        guard waiters.contains(where: { $0.priority == priority }), rank(priority) == 1 else { return }
        preemptIfMoreUrgent(priority)
    }

    /// 0 live, 1 due within the horizon, 2 everything else.
    private func rank(_ priority: ModelPriority) -> Int {
        switch priority.urgency {
        case .live: 0
        case .due(let date): date.timeIntervalSince(now()) <= dueHorizon ? 1 : 2
        case .background: 2
        }
    }

    /// Smaller goes first: class, then the due time (due) or the owner's last turn (background),
    /// then arrival.
    private func key(_ priority: ModelPriority, _ order: UInt64) -> SortKey {
        let rank = self.rank(priority)
        switch (rank, priority.urgency) {
        case (1, .due(let date)): return SortKey(rank: rank, within: date.timeIntervalSinceReferenceDate, order: order)
        case (2, _): return SortKey(rank: rank, within: Double(priority.owner.flatMap { lastTurn[$0] } ?? 0), order: order)
        default: return SortKey(rank: rank, within: 0, order: order)
        }
    }

    private struct SortKey: Comparable {
        var rank: Int
        var within: Double
        var order: UInt64

        static func < (lhs: SortKey, rhs: SortKey) -> Bool {
            (lhs.rank, lhs.within, lhs.order) < (rhs.rank, rhs.within, rhs.order)
        }
    }
}
