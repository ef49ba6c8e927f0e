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

/// Handlers by job kind. Workers claim only the kinds they have handlers for.
public struct JobHandlerRegistry: Sendable {
    private var handlers: [String: any JobHandler] = [:]

    public init() {}

    public mutating func register(_ kind: String, _ handler: any JobHandler) {
        handlers[kind] = handler
    }

    public mutating func register(_ kind: String, _ body: @escaping @Sendable (ClaimedJob, JobContext) async throws -> String?) {
        handlers[kind] = ClosureJobHandler(body)
    }

    public func handler(for kind: String) -> (any JobHandler)? {
        handlers[kind]
    }

    public var kinds: [String] { handlers.keys.sorted() }

    /// The handlers of the kinds `include` keeps.
    public func filter(_ include: (String) -> Bool) -> JobHandlerRegistry {
        var kept = JobHandlerRegistry()
        kept.handlers = handlers.filter { include($0.key) }
        return kept
    }
}
