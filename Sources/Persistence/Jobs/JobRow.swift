import Foundation

/// A job as the rest of the server sees it: what `JobQueue` returns.
public struct JobRow: Sendable, Equatable {
    public var id: UUID
    public var ownerID: UUID
    public var kind: String
    public var payload: String
    public var status: JobStatus
    public var attempts: Int
    public var maxAttempts: Int
    public var runAt: Date
    public var leaseOwner: String?
    public var leaseExpiresAt: Date?
    public var progress: Double
    public var progressMessage: String?
    public var result: String?
    public var lastError: String?
    public var createdAt: Date
    public var updatedAt: Date
    public var finishedAt: Date?
}

extension JobRecord {
    func row() throws -> JobRow {
        JobRow(
            id: try requireID(), ownerID: ownerID, kind: kind, payload: payload, status: status, attempts: attempts,
            maxAttempts: maxAttempts, runAt: runAt, leaseOwner: leaseOwner, leaseExpiresAt: leaseExpiresAt, progress: progress,
            progressMessage: progressMessage, result: result, lastError: lastError, createdAt: createdAt, updatedAt: updatedAt,
            finishedAt: finishedAt)
    }
}
