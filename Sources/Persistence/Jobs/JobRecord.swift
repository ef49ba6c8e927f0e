import FluentKit
import Foundation

/// A unit of long work (render, export, analysis) waiting for or leased by a worker.
///
/// Claiming, heartbeats and completion go through `JobRepository` (for `JobQueue`), which updates
/// these columns with single conditional statements so two workers never hold one lease.
final class JobRecord: Model, @unchecked Sendable {
    static let schema = "jobs"

    @ID(key: .id) var id: UUID?
    /// The account the job works for (a foreign key to users, set by the migration).
    @Field(key: "owner_id") var ownerID: UUID
    @Field(key: "kind") var kind: String
    @Field(key: "payload") var payload: String
    @Field(key: "status") var statusRaw: String
    @Field(key: "attempts") var attempts: Int
    @Field(key: "max_attempts") var maxAttempts: Int
    @Field(key: "run_at") var runAt: Date
    @OptionalField(key: "lease_owner") var leaseOwner: String?
    @OptionalField(key: "lease_expires_at") var leaseExpiresAt: Date?
    @Field(key: "progress") var progress: Double
    @OptionalField(key: "progress_message") var progressMessage: String?
    @OptionalField(key: "result") var result: String?
    @OptionalField(key: "last_error") var lastError: String?
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date
    @OptionalField(key: "finished_at") var finishedAt: Date?

    init() {}

    init(id: UUID? = nil, ownerID: UUID, kind: String, payload: String, maxAttempts: Int, runAt: Date) {
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

    var status: JobStatus {
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
