import FluentKit
import FluentSQL
import Foundation

/// The jobs table, for `JobQueue`: reads return values, and every change to a leased job is one
/// conditional UPDATE that only the lease's holder can make, so several workers in several
/// processes share the table on PostgreSQL (claims use `FOR UPDATE SKIP LOCKED` there).
public struct JobRepository: Sendable {
    let database: any Database

    public init(database: AppDatabase) {
        self.database = database.fluent
    }

    /// A job a claim took: what the worker needs to run it.
    public struct Claim: Sendable {
        public var id: UUID
        public var kind: String
        public var payload: String
        public var ownerID: UUID
        /// 1 for the first run, 2 for the first retry, ...
        public var attempt: Int
        public var maxAttempts: Int
    }

    // MARK: Add and read

    @discardableResult
    public func create(kind: String, payload: String, ownerID: UUID, maxAttempts: Int, runAt: Date) async throws -> JobRow {
        let record = JobRecord(ownerID: ownerID, kind: kind, payload: payload, maxAttempts: maxAttempts, runAt: runAt)
        try await record.create(on: database)
        return try record.row()
    }

    /// The job if `ownerID` owns it; nil otherwise (so other users' jobs look absent).
    public func find(id: UUID, ownerID: UUID) async throws -> JobRow? {
        try await JobRecord.query(on: database).filter(\.$id == id).filter(\.$ownerID == ownerID).first()?.row()
    }

    public func find(id: UUID) async throws -> JobRow? {
        try await JobRecord.find(id, on: database)?.row()
    }

    public func find(ids: [UUID]) async throws -> [JobRow] {
        guard !ids.isEmpty else { return [] }
        return try await JobRecord.query(on: database).filter(\.$id ~~ ids).all().map { try $0.row() }
    }

    /// The owner's jobs, newest first.
    public func list(ownerID: UUID, limit: Int) async throws -> [JobRow] {
        try await JobRecord.query(on: database)
            .filter(\.$ownerID == ownerID)
            .sort(\.$createdAt, .descending)
            .limit(limit)
            .all()
            .map { try $0.row() }
    }

    /// Ends the owner's job as cancelled if it is queued or running (its lease is dropped).
    public func cancel(id: UUID, ownerID: UUID, at: Date) async throws {
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
    }

    // MARK: Claim

    /// Takes the oldest due job of one of `kinds` (any kind when nil) for `token` until
    /// `leaseExpiresAt`: a queued job whose time has come, or a running job whose lease has
    /// expired, counting the attempt. Nil when none is due.
    public func claim(token: String, kinds: [String]?, at: Date, leaseExpiresAt: Date) async throws -> Claim? {
        if let kinds, kinds.isEmpty { return nil }
        let sql = try database.requireSQL()
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
            lease_expires_at = \(bind: leaseExpiresAt), attempts = attempts + 1, \
            updated_at = \(bind: at) \
            WHERE id = (SELECT id FROM jobs WHERE \(due)\(kindFilter) ORDER BY \(running), run_at, created_at LIMIT 1\(lock)) \
            AND \(due) \
            RETURNING id, kind, payload, owner_id, attempts, max_attempts
            """
        guard let row = try await sql.raw(query).first() else { return nil }
        return Claim(
            id: try row.decode(column: "id", as: UUID.self),
            kind: try row.decode(column: "kind", as: String.self),
            payload: try row.decode(column: "payload", as: String.self),
            ownerID: try row.decode(column: "owner_id", as: UUID.self),
            attempt: try row.decode(column: "attempts", as: Int.self),
            maxAttempts: try row.decode(column: "max_attempts", as: Int.self)
        )
    }

    // MARK: A held job
    // Each returns false when `token` no longer holds the running job (it was cancelled,
    // finished or claimed again), and then changes nothing.

    /// Whether `token` holds the running job.
    public func isHeld(id: UUID, token: String) async throws -> Bool {
        try await JobRecord.query(on: database)
            .filter(\.$id == id)
            .filter(\.$leaseOwner == token)
            .filter(\.$statusRaw == JobStatus.running.rawValue)
            .count() > 0
    }

    public func extendLease(id: UUID, token: String, until expiry: Date, at: Date) async throws -> Bool {
        try await updateHeld(id: id, token: token) {
            $0.set("lease_expires_at", to: expiry).set("updated_at", to: at)
        }
    }

    /// Progress (0...1) and a message for clients to read.
    public func reportProgress(id: UUID, token: String, fraction: Double, message: String?, at: Date) async throws -> Bool {
        try await updateHeld(id: id, token: token) {
            $0.set("progress", to: fraction).set("progress_message", to: message).set("updated_at", to: at)
        }
    }

    /// Queues the job again at `runAt`, keeping `error` for clients; `countingAttempt: false`
    /// gives the attempt back (a worker shutting down hands the job on).
    public func requeue(id: UUID, token: String, runAt: Date, error: String?, countingAttempt: Bool, at: Date) async throws -> Bool {
        try await updateHeld(id: id, token: token) {
            var builder = $0.set("status", to: JobStatus.queued.rawValue)
                .set("run_at", to: runAt)
                .set("lease_owner", to: String?.none)
                .set("lease_expires_at", to: Date?.none)
                .set("updated_at", to: at)
            if !countingAttempt { builder = builder.set("attempts", to: SQLRaw("attempts - 1")) }
            if let error { builder = builder.set("last_error", to: error) }
            return builder
        }
    }

    /// Ends the job as `status` (succeeded or failed) with its result or error.
    public func finish(id: UUID, token: String, status: JobStatus, result: String?, error: String?, at: Date) async throws -> Bool {
        try await updateHeld(id: id, token: token) {
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

    private func updateHeld(id: UUID, token: String, _ change: (SQLUpdateBuilder) -> SQLUpdateBuilder) async throws -> Bool {
        let builder = change(try database.requireSQL().update(JobRecord.schema))
            .where("id", .equal, id)
            .where("lease_owner", .equal, token)
            .where("status", .equal, JobStatus.running.rawValue)
        return try await !builder.returning("id").all().isEmpty
    }
}
