import Foundation
import Persistence
import StoryModel

/// A claimed job's lease: only the holder of `token` may heartbeat, report or finish it.
public struct JobLease: Sendable, Hashable {
    public let jobID: UUID
    public let token: String
}

/// A job handed to a worker.
public struct ClaimedJob: Sendable {
    public let id: UUID
    public let kind: String
    public let payload: String
    public let ownerID: UUID
    /// 1 for the first run, 2 for the first retry, ...
    public let attempt: Int
    public let maxAttempts: Int
    public let lease: JobLease

    /// The payload decoded as JSON.
    public func decodePayload<T: Decodable>(as type: T.Type = T.self) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(payload.utf8))
        } catch {
            throw JobError.invalidPayload("\(error)")
        }
    }
}

/// The database-backed job queue. At-least-once: a job whose worker dies is claimed again once
/// its lease expires, so handlers must be able to resume (the narration cache makes that cheap).
///
/// Every state change is one conditional statement of `JobRepository`, so several workers in
/// several processes can share the table; this type adds the policy (retries and their backoff,
/// leases, payloads).
public struct JobQueue: Sendable {
    /// The database the queue is kept in; handlers reach their own data through it.
    public let database: AppDatabase
    public let retry: JobRetryPolicy
    private let jobs: JobRepository
    private let now: @Sendable () -> Date

    public init(database: AppDatabase, retry: JobRetryPolicy = .standard, now: @escaping @Sendable () -> Date = { Date() }) {
        self.database = database
        self.jobs = JobRepository(database: database)
        self.retry = retry
        self.now = now
    }

    // MARK: Enqueue and read

    /// Adds a job that is due now (or at `runAt`).
    @discardableResult
    public func enqueue(
        kind: String, payload: String = "{}", ownerID: UUID, maxAttempts: Int? = nil, runAt: Date? = nil
    ) async throws -> JobRow {
        try await jobs.create(kind: kind, payload: payload, ownerID: ownerID, maxAttempts: maxAttempts ?? retry.maxAttempts, runAt: runAt ?? now())
    }

    /// Adds a job whose payload is `payload` encoded as JSON.
    @discardableResult
    public func enqueue<Payload: Encodable>(
        kind: String, payload: Payload, ownerID: UUID, maxAttempts: Int? = nil
    ) async throws -> JobRow {
        let data = try JSONEncoder().encode(payload)
        return try await enqueue(kind: kind, payload: String(decoding: data, as: UTF8.self), ownerID: ownerID, maxAttempts: maxAttempts)
    }

    /// The job if `ownerID` owns it; nil otherwise (so other users' jobs look absent).
    public func job(id: UUID, ownerID: UUID) async throws -> JobRow? {
        try await jobs.find(id: id, ownerID: ownerID)
    }

    public func job(id: UUID) async throws -> JobRow? {
        try await jobs.find(id: id)
    }

    /// The jobs with these ids, by id, in one query.
    public func jobs(ids: [UUID]) async throws -> [UUID: JobRow] {
        Dictionary(try await jobs.find(ids: ids).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The owner's jobs, newest first.
    public func jobs(ownerID: UUID, limit: Int = 50) async throws -> [JobRow] {
        try await jobs.list(ownerID: ownerID, limit: limit)
    }

    /// Stops the owner's job if it has not finished: a queued job never runs, a running one
    /// loses its lease (its worker notices within `cancelCheckInterval` and stops the handler).
    /// Returns the job as it is now, or nil when `ownerID` has no such job.
    public func cancel(id: UUID, ownerID: UUID) async throws -> JobRow? {
        try await jobs.cancel(id: id, ownerID: ownerID, at: now())
        return try await job(id: id, ownerID: ownerID)
    }

    // MARK: Claim

    /// Claims the oldest due job of one of `kinds` (any kind when nil): a queued job whose time
    /// has come, or a running job whose lease has expired. Returns nil when none is due.
    public func claim(workerID: String, kinds: [String]? = nil, leaseDuration: TimeInterval) async throws -> ClaimedJob? {
        // A job re-claimed after its worker died on every attempt is failed, not run again.
        while true {
            let at = now()
            let token = "\(workerID)/\(UUID.random().uuidString)"
            guard let claim = try await jobs.claim(token: token, kinds: kinds, at: at, leaseExpiresAt: at.addingTimeInterval(leaseDuration)) else {
                return nil
            }
            let claimed = ClaimedJob(
                id: claim.id, kind: claim.kind, payload: claim.payload, ownerID: claim.ownerID,
                attempt: claim.attempt, maxAttempts: claim.maxAttempts, lease: JobLease(jobID: claim.id, token: token))
            if claimed.attempt <= claimed.maxAttempts { return claimed }
            try await finish(
                claimed.lease, status: .failed, result: nil,
                error: "The job's worker stopped responding on each of its \(claimed.maxAttempts) attempts."
            )
        }
    }

    // MARK: While running

    /// Extends the lease. Throws `JobError.leaseLost` when the job is no longer ours.
    public func heartbeat(_ lease: JobLease, leaseDuration: TimeInterval) async throws {
        let at = now()
        try held(await jobs.extendLease(id: lease.jobID, token: lease.token, until: at.addingTimeInterval(leaseDuration), at: at))
    }

    /// Stores progress (0...1, clamped) and an optional message for clients to read.
    public func reportProgress(_ lease: JobLease, fraction: Double, message: String?) async throws {
        let clamped = min(1, max(0, fraction.isFinite ? fraction : 0))
        try held(await jobs.reportProgress(id: lease.jobID, token: lease.token, fraction: clamped, message: message, at: now()))
    }

    /// Whether `lease` still holds the running job (false once it was cancelled or re-claimed).
    public func isHeld(_ lease: JobLease) async throws -> Bool {
        try await jobs.isHeld(id: lease.jobID, token: lease.token)
    }

    // MARK: Finish

    /// Marks the job succeeded with an optional JSON result.
    public func complete(_ lease: JobLease, result: String? = nil) async throws {
        try await finish(lease, status: .succeeded, result: result, error: nil)
    }

    /// Records a failed attempt. Retries after the policy's backoff while attempts remain and
    /// the failure is retryable; otherwise the job fails for good. Returns the new status.
    @discardableResult
    public func fail(_ lease: JobLease, error message: String, retryable: Bool = true) async throws -> JobStatus {
        guard let job = try await jobs.find(id: lease.jobID), job.leaseOwner == lease.token else {
            throw JobError.leaseLost
        }
        guard retryable, job.attempts < job.maxAttempts else {
            try await finish(lease, status: .failed, result: nil, error: message)
            return .failed
        }
        let at = now()
        let runAt = at.addingTimeInterval(retry.delay(afterAttempt: job.attempts))
        try held(await jobs.requeue(id: lease.jobID, token: lease.token, runAt: runAt, error: message, countingAttempt: true, at: at))
        return .queued
    }

    /// Gives the job back without counting the attempt (the worker is shutting down):
    /// it is queued again at once, and the next worker resumes it.
    public func release(_ lease: JobLease) async throws {
        let at = now()
        try held(await jobs.requeue(id: lease.jobID, token: lease.token, runAt: at, error: nil, countingAttempt: false, at: at))
    }

    private func finish(_ lease: JobLease, status: JobStatus, result: String?, error: String?) async throws {
        try held(await jobs.finish(id: lease.jobID, token: lease.token, status: status, result: result, error: error, at: now()))
    }

    /// Throws `leaseLost` when a change found the job no longer held by its lease.
    private func held(_ changed: Bool) throws {
        if !changed { throw JobError.leaseLost }
    }
}
