import ChatStories
import Foundation
import Jobs
import Persistence

/// An export as the API shows it. While it is under way its state is read from its job, which
/// also knows what the export row cannot: a worker that died on every attempt, a cancel.
public struct ChatExportView: Sendable, Codable, Equatable {
    public enum Status: String, Sendable, Codable {
        case queued, running, succeeded, failed, cancelled
    }

    public var id: UUID
    public var conversationID: UUID
    public var title: String
    public var status: Status
    public var progress: Double
    /// Why it failed, in words for the user.
    public var error: String?
    public var settings: ChatExportSettings
    public var jobID: UUID?
    public var durationMS: Int?
    /// Where the owner downloads the MP4 once it is made.
    public var videoURL: String?
    /// Where anyone may watch it, once shared.
    public var shareURL: String?
    public var createdAt: Date
    public var finishedAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, title, status, progress, error, settings
        case conversationID = "conversation_id"
        case jobID = "job_id"
        case durationMS = "duration_ms"
        case videoURL = "video_url"
        case shareURL = "share_url"
        case createdAt = "created_at"
        case finishedAt = "finished_at"
    }

    /// Writes every key, nulls included, so a client reads one shape in every state.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(conversationID, forKey: .conversationID)
        try container.encode(title, forKey: .title)
        try container.encode(status, forKey: .status)
        try container.encode(progress, forKey: .progress)
        try container.encode(error, forKey: .error)
        try container.encode(settings, forKey: .settings)
        try container.encode(jobID, forKey: .jobID)
        try container.encode(durationMS, forKey: .durationMS)
        try container.encode(videoURL, forKey: .videoURL)
        try container.encode(shareURL, forKey: .shareURL)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(finishedAt, forKey: .finishedAt)
    }

    init(_ record: ChatExportRow, job: JobRow?) {
        let id = record.id
        self.id = id
        conversationID = record.conversationID
        title = record.title
        status = Status(rawValue: record.status) ?? .failed
        progress = record.progress
        error = record.errorMessage
        settings = (try? JSONDecoder().decode(ChatExportSettings.self, from: Data(record.settingsJSON.utf8))) ?? ChatExportSettings()
        jobID = record.jobID
        durationMS = record.durationMS
        createdAt = record.createdAt
        finishedAt = record.finishedAt
        if !status.isFinished, let job {
            switch job.status {
            case .failed, .cancelled:
                status = job.status == .failed ? .failed : .cancelled
                error = record.errorMessage ?? job.lastError
                finishedAt = job.finishedAt
            case .queued, .running:
                status = job.status == .queued ? .queued : .running
                progress = max(progress, job.progress)
            case .succeeded:
                break
            }
        }
        let path = id.uuidString.lowercased()
        videoURL = status == .succeeded ? "/api/chat/exports/\(path)/video" : nil
        shareURL = record.shareToken.map { "/share/chat/\($0)" }
    }

    /// The jobs of the exports not yet finished, by id, in one query.
    static func jobs(of records: [ChatExportRow], queue: JobQueue) async throws -> [UUID: JobRow] {
        try await queue.jobs(ids: records.filter { !(Status(rawValue: $0.status)?.isFinished ?? true) }.compactMap(\.jobID))
    }

    static func views(_ records: [ChatExportRow], queue: JobQueue) async throws -> [ChatExportView] {
        let jobs = try await jobs(of: records, queue: queue)
        return records.map { ChatExportView($0, job: $0.jobID.flatMap { jobs[$0] }) }
    }
}

extension ChatExportView.Status {
    public var isFinished: Bool { self != .queued && self != .running }
}
