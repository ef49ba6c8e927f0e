import Foundation
import Persistence
import StoryModel

/// A job as clients see it: the shape of `GET /api/jobs/:id` and of each progress event.
public struct JobSnapshot: Codable, Sendable, Equatable {
    public var id: UUID
    public var kind: String
    public var status: JobStatus
    public var progress: Double
    public var message: String?
    public var attempts: Int
    public var maxAttempts: Int
    public var error: String?
    public var result: String?
    public var createdAt: Date
    public var updatedAt: Date
    public var finishedAt: Date?

    public init(_ record: JobRow) {
        self.id = record.id
        self.kind = record.kind
        self.status = record.status
        self.progress = record.progress
        self.message = record.progressMessage
        self.attempts = record.attempts
        self.maxAttempts = record.maxAttempts
        self.error = record.lastError
        self.result = record.result
        self.createdAt = record.createdAt
        self.updatedAt = record.updatedAt
        self.finishedAt = record.finishedAt
    }

    enum CodingKeys: String, CodingKey {
        case id, kind, status, progress, message, attempts, error, result
        case maxAttempts = "max_attempts"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case finishedAt = "finished_at"
    }
}
