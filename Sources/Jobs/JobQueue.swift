import FluentKit
import FluentSQL
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
/// Every state change is one conditional UPDATE ... RETURNING, so on PostgreSQL several workers
/// in several processes can share the table; claims use `FOR UPDATE SKIP LOCKED` there.
public struct JobQueue: Sendable {
    public let database: any Database
    public let retry: JobRetryPolicy
    private let now: @Sendable () -> Date

    public init(database: any Database, retry: JobRetryPolicy = .standard, now: @escaping @Sendable () -> Date = { Date() }) {
        self.database = database
        self.retry = retry
        self.now = now
    }

    // MARK: Enqueue and read

    /// Adds a job that is due now (or at `runAt`).
    @discardableResult
    public func enqueue(
        kind: String, payload: String = "{}", ownerID: UUID, maxAttempts: Int? = nil, runAt: Date? = nil
    ) async throws -> JobRow {
        let record = JobRecord(
            ownerID: ownerID, kind: kind, payload: payload,
            maxAttempts: maxAttempts ?? retry.maxAttempts, runAt: runAt ?? now()
        )
        try await record.create(on: database)
        return try record.row()
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
        try await JobRecord.query(on: database)
            .filter(\.$id == id)
            .filter(\.$ownerID == ownerID)
            .first()?.row()
    }

    public func job(id: UUID) async throws -> JobRow? {
        try await JobRecord.find(id, on: database)?.row()
    }

    /// The jobs with these ids, by id, in one query.
    public func jobs(ids: [UUID]) async throws -> [UUID: JobRow] {
        guard !ids.isEmpty else { return [:] }
        let jobs = try await JobRecord.query(on: database).filter(\.$id ~~ ids).all().map { try $0.row() }
        return Dictionary(jobs.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The owner's jobs, newest first.
    public func jobs(ownerID: UUID, limit: Int = 50) async throws -> [JobRow] {
        try await JobRecord.query(on: database)
            .filter(\.$ownerID == ownerID)
            .sort(\.$createdAt, .descending)
            .limit(limit)
            .all()
            .map { try $0.row() }
    }

    /// Stops the owner's job if it has not finished: a queued job never runs, a running one
    /// loses its lease (its worker notices within `cancelCheckInterval` and stops the handler).
    /// Returns the job as it is now, or nil when `ownerID` has no such job.
    public func cancel(id: UUID, ownerID: UUID) async throws -> JobRow? {
        let at = now()
        try await database.requireSQL().update(JobRecord.schema)
            .set("status", to: JobStatus.cancelled.rawValue)
            .set("lease_owner", to: String?.none)
            .set("lease_expires_at", to: Date?.none)
            .set("last_error", to: "Cancelled.")
            .set("finished_at", to: at)
            .set("updated_at", to: at)
            .where("id", .equal, id)
            .where("owner_id", .equal, ownerID)
            .where("status", .in, [JobStatus.queued.rawValue, JobStatus.running.rawValue])
            .run()
        return try await job(id: id, ownerID: ownerID)
    }

    // MARK: Claim

    /// Claims the oldest due job of one of `kinds` (any kind when nil): a queued job whose time
    /// has come, or a running job whose lease has expired. Returns nil when none is due.
    public func claim(workerID: String, kinds: [String]? = nil, leaseDuration: TimeInterval) async throws -> ClaimedJob? {
        // A job re-claimed after its worker died on every attempt is failed, not run again.
        while true {
            guard let claimed = try await claimOne(workerID: workerID, kinds: kinds, leaseDuration: leaseDuration) else {
                return nil
            }
            if claimed.attempt <= claimed.maxAttempts { return claimed }
            try await finish(
                claimed.lease, status: .failed, result: nil,
                error: "The job's worker stopped responding on each of its \(claimed.maxAttempts) attempts."
            )
        }
    }

    private func claimOne(workerID: String, kinds: [String]?, leaseDuration: TimeInterval) async throws -> ClaimedJob? {
        if let kinds, kinds.isEmpty { return nil }
        let sql = try database.requireSQL()
        let at = now()
        let token = "\(workerID)/\(UUID.random().uuidString)"
        let isPostgres = sql.dialect.name == "postgresql"
        // SQLite serialises writers, so the inner SELECT and the UPDATE cannot interleave with
        // another claim. PostgreSQL skips rows another claimer has locked, and the outer WHERE
        // repeats the condition so a row changed under us is not taken twice.
        let lock: SQLQueryString = isPostgres ? " FOR UPDATE SKIP LOCKED" : ""
        var kindFilter: SQLQueryString = ""
        if let kinds { kindFilter = " AND kind IN (\(binds: kinds))" }
        let due: SQLQueryString = """
            ((status = \(bind: JobStatus.queued.rawValue) AND run_at <= \(bind: at)) \
            OR (status = \(bind: JobStatus.running.rawValue) AND lease_expires_at < \(bind: at)))
            """
        // Fair between users: the due job of whoever has the fewest jobs running goes first, so
        // one user's queue of long or failing jobs never holds up everyone else's.
        let running: SQLQueryString = """
            (SELECT COUNT(*) FROM jobs AS held WHERE held.owner_id = jobs.owner_id \
            AND held.status = \(bind: JobStatus.running.rawValue) AND held.lease_expires_at >= \(bind: at))
            """
        let query: SQLQueryString = """
            UPDATE jobs SET status = \(bind: JobStatus.running.rawValue), lease_owner = \(bind: token), \
            lease_expires_at = \(bind: at.addingTimeInterval(leaseDuration)), attempts = attempts + 1, \
            updated_at = \(bind: at) \
            WHERE id = (SELECT id FROM jobs WHERE \(due)\(kindFilter) ORDER BY \(running), run_at, created_at LIMIT 1\(lock)) \
            AND \(due) \
            RETURNING id, kind, payload, owner_id, attempts, max_attempts
            """
        guard let row = try await sql.raw(query).first() else { return nil }
        let id = try row.decode(column: "id", as: UUID.self)
        return ClaimedJob(
            id: id,
            kind: try row.decode(column: "kind", as: String.self),
            payload: try row.decode(column: "payload", as: String.self),
            ownerID: try row.decode(column: "owner_id", as: UUID.self),
            attempt: try row.decode(column: "attempts", as: Int.self),
            maxAttempts: try row.decode(column: "max_attempts", as: Int.self),
            lease: JobLease(jobID: id, token: token)
        )
    }

    // MARK: While running

    /// Extends the lease. Throws `JobError.leaseLost` when the job is no longer ours.
    public func heartbeat(_ lease: JobLease, leaseDuration: TimeInterval) async throws {
        let at = now()
        try await updateHeld(lease) {
            $0.set("lease_expires_at", to: at.addingTimeInterval(leaseDuration)).set("updated_at", to: at)
        }
    }

    /// Stores progress (0...1, clamped) and an optional message for clients to read.
    public func reportProgress(_ lease: JobLease, fraction: Double, message: String?) async throws {
        let clamped = min(1, max(0, fraction.isFinite ? fraction : 0))
        let at = now()
        try await updateHeld(lease) {
            $0.set("progress", to: clamped).set("progress_message", to: message).set("updated_at", to: at)
        }
    }

    /// Whether `lease` still holds the running job (false once it was cancelled or re-claimed).
    public func isHeld(_ lease: JobLease) async throws -> Bool {
        try await JobRecord.query(on: database)
            .filter(\.$id == lease.jobID)
            .filter(\.$leaseOwner == lease.token)
            .filter(\.$statusRaw == JobStatus.running.rawValue)
            .count() > 0
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
        guard let record = try await JobRecord.find(lease.jobID, on: database), record.leaseOwner == lease.token else {
            throw JobError.leaseLost
        }
        guard retryable, record.attempts < record.maxAttempts else {
            try await finish(lease, status: .failed, result: nil, error: message)
            return .failed
        }
        let at = now()
        let runAt = at.addingTimeInterval(retry.delay(afterAttempt: record.attempts))
        try await updateHeld(lease) {
            $0.set("status", to: JobStatus.queued.rawValue)
                .set("run_at", to: runAt)
                .set("lease_owner", to: String?.none)
                .set("lease_expires_at", to: Date?.none)
                .set("last_error", to: message)
                .set("updated_at", to: at)
        }
        return .queued
    }

    /// Gives the job back without counting the attempt (the worker is shutting down):
    /// it is queued again at once, and the next worker resumes it.
    public func release(_ lease: JobLease) async throws {
        let at = now()
        try await updateHeld(lease) {
            $0.set("status", to: JobStatus.queued.rawValue)
                .set("run_at", to: at)
                .set("attempts", to: SQLRaw("attempts - 1"))
                .set("lease_owner", to: String?.none)
                .set("lease_expires_at", to: Date?.none)
                .set("updated_at", to: at)
        }
    }

    private func finish(_ lease: JobLease, status: JobStatus, result: String?, error: String?) async throws {
        let at = now()
        try await updateHeld(lease) {
            var builder = $0.set("status", to: status.rawValue)
                .set("result", to: result)
                .set("lease_owner", to: String?.none)
                .set("lease_expires_at", to: Date?.none)
                .set("finished_at", to: at)
                .set("updated_at", to: at)
            if status == .succeeded { builder = builder.set("progress", to: 1.0) }
            if let error { builder = builder.set("last_error", to: error) }
            return builder
        }
    }

    /// Applies `change` only while `lease` still holds the running job; throws `leaseLost` otherwise.
    private func updateHeld(_ lease: JobLease, _ change: (SQLUpdateBuilder) -> SQLUpdateBuilder) async throws {
        let sql = try database.requireSQL()
        let builder = change(sql.update(JobRecord.schema))
            .where("id", .equal, lease.jobID)
            .where("lease_owner", .equal, lease.token)
            .where("status", .equal, JobStatus.running.rawValue)
        let rows = try await builder.returning("id").all()
        if rows.isEmpty { throw JobError.leaseLost }
    }
}
