import Foundation

/// Runs jobs of one kind. Handlers may run more than once for the same job (at-least-once), so
/// they resume from what earlier runs left behind instead of starting over.
public protocol JobHandler: Sendable {
    /// Does the work and returns an optional JSON result. Throw `PermanentJobFailure` for errors
    /// that retrying cannot fix; any other error is retried with backoff.
    func run(_ job: ClaimedJob, context: JobContext) async throws -> String?
}

/// A handler from a closure.
public struct ClosureJobHandler: JobHandler {
    private let body: @Sendable (ClaimedJob, JobContext) async throws -> String?

    public init(_ body: @escaping @Sendable (ClaimedJob, JobContext) async throws -> String?) {
        self.body = body
    }

    public func run(_ job: ClaimedJob, context: JobContext) async throws -> String? {
        try await body(job, context)
    }
}

/// What a handler may do while it runs.
public struct JobContext: Sendable {
    public let queue: JobQueue
    public let lease: JobLease

    /// Publishes progress (0...1) and a short message such as "Rendering segment 12 of 80".
    public func reportProgress(_ fraction: Double, message: String? = nil) async throws {
        try await queue.reportProgress(lease, fraction: fraction, message: message)
    }
}

/// Which workers run a kind of job: whoever waits on it should not wait behind longer work.
public enum JobLane: String, Sendable, CaseIterable {
    /// A listener is waiting on it (a journey's next part): workers of their own.
    case live
    /// Short, and someone is looking at the page (an analysis, a call to place): never behind
    /// an hour-long render or a video.
    case quick
    /// Renders and exports.
    case long
}

/// Handlers by job kind, with each kind's lane and time limit. Workers claim only the kinds
/// they have handlers for.
public struct JobHandlerRegistry: Sendable {
    private struct Entry: Sendable {
        var handler: any JobHandler
        var lane: JobLane
        var timeLimit: Duration?
    }

    private var entries: [String: Entry] = [:]

    public init() {}

    /// - Parameter timeLimit: a run that takes longer is stopped and fails for good, saying so.
    public mutating func register(_ kind: String, _ handler: any JobHandler, lane: JobLane = .long, timeLimit: Duration? = nil) {
        entries[kind] = Entry(handler: handler, lane: lane, timeLimit: timeLimit)
    }

    public mutating func register(
        _ kind: String, lane: JobLane = .long, timeLimit: Duration? = nil, _ body: @escaping @Sendable (ClaimedJob, JobContext) async throws -> String?
    ) {
        register(kind, ClosureJobHandler(body), lane: lane, timeLimit: timeLimit)
    }

    public func handler(for kind: String) -> (any JobHandler)? {
        entries[kind]?.handler
    }

    public func timeLimit(for kind: String) -> Duration? {
        entries[kind]?.timeLimit
    }

    public func lane(of kind: String) -> JobLane? {
        entries[kind]?.lane
    }

    public var kinds: [String] { entries.keys.sorted() }

    /// The handlers of the kinds `include` keeps.
    public func filter(_ include: (String) -> Bool) -> JobHandlerRegistry {
        var kept = JobHandlerRegistry()
        kept.entries = entries.filter { include($0.key) }
        return kept
    }

    /// The handlers of one lane.
    public func lane(_ lane: JobLane) -> JobHandlerRegistry {
        filter { entries[$0]?.lane == lane }
    }
}
