import FluentKit
import Foundation

/// One video export of a chat story, as `ChatExportRepository` reads and writes it. It keeps
/// the conversation as it was when the export was asked for (`conversationJSON`) with the
/// settings the server allowed (`settingsJSON`), so the video shows what the user pressed
/// Export on, and a retried job makes the same video.
public struct ChatExportRow: Sendable, Equatable {
    public var id: UUID
    public var ownerID: UUID
    public var conversationID: UUID
    /// The conversation's title when exported.
    public var title: String
    public var conversationJSON: String
    public var settingsJSON: String
    /// `queued`, `running`, `succeeded`, `failed` or `cancelled` (a job's states).
    public var status: String
    public var progress: Double
    public var errorMessage: String?
    /// The MP4, relative to the data directory, once made.
    public var filePath: String?
    public var durationMS: Int?
    /// Set once the owner shares the video: anyone with it may watch.
    public var shareToken: String?
    public var jobID: UUID?
    public var createdAt: Date
    public var updatedAt: Date
    public var finishedAt: Date?

    public init(id: UUID, ownerID: UUID, conversationID: UUID, title: String, conversationJSON: String, settingsJSON: String, now: Date) {
        self.id = id
        self.ownerID = ownerID
        self.conversationID = conversationID
        self.title = title
        self.conversationJSON = conversationJSON
        self.settingsJSON = settingsJSON
        self.status = "queued"
        self.progress = 0
        self.createdAt = now
        self.updatedAt = now
    }
}

/// The Fluent model of `chat_exports`, kept inside Persistence.
final class ChatExportRecord: Model, @unchecked Sendable {
    static let schema = "chat_exports"

    @ID(key: .id) var id: UUID?
    @Parent(key: "owner_id") var owner: UserRecord
    @Field(key: "conversation_id") var conversationID: UUID
    @Field(key: "title") var title: String
    @Field(key: "conversation_json") var conversationJSON: String
    @Field(key: "settings_json") var settingsJSON: String
    @Field(key: "status") var status: String
    @Field(key: "progress") var progress: Double
    @OptionalField(key: "error_message") var errorMessage: String?
    @OptionalField(key: "file_path") var filePath: String?
    @OptionalField(key: "duration_ms") var durationMS: Int?
    @OptionalField(key: "share_token") var shareToken: String?
    @OptionalField(key: "job_id") var jobID: UUID?
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date
    @OptionalField(key: "finished_at") var finishedAt: Date?

    init() {}

    init(_ row: ChatExportRow) {
        id = row.id
        set(row)
    }

    /// The columns where `row` differs (ChangedFields: an update writes only those).
    func set(_ row: ChatExportRow) {
        $owner.$id.assign(row.ownerID)
        $conversationID.assign(row.conversationID)
        $title.assign(row.title)
        $conversationJSON.assign(row.conversationJSON)
        $settingsJSON.assign(row.settingsJSON)
        $status.assign(row.status)
        $progress.assign(row.progress)
        $errorMessage.assign(row.errorMessage)
        $filePath.assign(row.filePath)
        $durationMS.assign(row.durationMS)
        $shareToken.assign(row.shareToken)
        $jobID.assign(row.jobID)
        $createdAt.assign(row.createdAt)
        $updatedAt.assign(row.updatedAt)
        $finishedAt.assign(row.finishedAt)
    }

    func row() throws -> ChatExportRow {
        var row = ChatExportRow(
            id: try requireID(), ownerID: $owner.id, conversationID: conversationID, title: title,
            conversationJSON: conversationJSON, settingsJSON: settingsJSON, now: createdAt)
        row.status = status
        row.progress = progress
        row.errorMessage = errorMessage
        row.filePath = filePath
        row.durationMS = durationMS
        row.shareToken = shareToken
        row.jobID = jobID
        row.updatedAt = updatedAt
        row.finishedAt = finishedAt
        return row
    }
}
