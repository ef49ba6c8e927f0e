import FluentKit
import Foundation

/// A unit of long work (render, export, analysis) waiting for or leased by a worker.
///
/// Claiming, heartbeats and completion go through `JobQueue` in the Jobs module, which updates
/// these columns with single conditional statements so two workers never hold one lease.
public final class JobRecord: Model, @unchecked Sendable {
    public static let schema = "jobs"

    @ID(key: .id) public var id: UUID?
    /// The account the job works for (a foreign key to users, set by the migration).
    @Field(key: "owner_id") public var ownerID: UUID
    @Field(key: "kind") public var kind: String
    @Field(key: "payload") public var payload: String
    @Field(key: "status") public var statusRaw: String
    @Field(key: "attempts") public var attempts: Int
    @Field(key: "max_attempts") public var maxAttempts: Int
    @Field(key: "run_at") public var runAt: Date
    @OptionalField(key: "lease_owner") public var leaseOwner: String?
    @OptionalField(key: "lease_expires_at") public var leaseExpiresAt: Date?
    @Field(key: "progress") public var progress: Double
    @OptionalField(key: "progress_message") public var progressMessage: String?
    @OptionalField(key: "result") public var result: String?
    @OptionalField(key: "last_error") public var lastError: String?
    @Field(key: "created_at") public var createdAt: Date
    @Field(key: "updated_at") public var updatedAt: Date
    @OptionalField(key: "finished_at") public var finishedAt: Date?

    public init() {}

    public init(id: UUID? = nil, ownerID: UUID, kind: String, payload: String, maxAttempts: Int, runAt: Date) {
        self.id = id
        self.ownerID = ownerID
        self.kind = kind
        self.payload = payload
        self.statusRaw = JobStatus.queued.rawValue
        self.attempts = 0
        self.maxAttempts = maxAttempts
        self.runAt = runAt
        self.progress = 0
        self.createdAt = runAt
        self.updatedAt = runAt
    }

    public var status: JobStatus {
        JobStatus(rawValue: statusRaw) ?? .failed
    }
}

/// A job's lifecycle: queued → running → (succeeded | failed), or back to queued for a retry.
public enum JobStatus: String, Codable, Sendable, CaseIterable {
    case queued
    case running
    case succeeded
    case failed
    /// Stopped by its owner before it finished.
    case cancelled

    /// Whether the job will change no more.
    public var isFinished: Bool { self != .queued && self != .running }
}
