import FluentKit
import Foundation

/// One video export of a chat story. It keeps the conversation as it was when the export was
/// asked for (`conversationJSON`) with the settings the server allowed (`settingsJSON`), so the
/// video shows what the user pressed Export on, and a retried job makes the same video.
public final class ChatExportRecord: Model, @unchecked Sendable {
    public static let schema = "chat_exports"

    @ID(key: .id) public var id: UUID?
    @Parent(key: "owner_id") public var owner: UserRecord
    @Field(key: "conversation_id") public var conversationID: UUID
    /// The conversation's title when exported.
    @Field(key: "title") public var title: String
    @Field(key: "conversation_json") public var conversationJSON: String
    @Field(key: "settings_json") public var settingsJSON: String
    /// `queued`, `running`, `succeeded`, `failed` or `cancelled` (a job's states).
    @Field(key: "status") public var status: String
    @Field(key: "progress") public var progress: Double
    @OptionalField(key: "error_message") public var errorMessage: String?
    /// The MP4, relative to the data directory, once made.
    @OptionalField(key: "file_path") public var filePath: String?
    @OptionalField(key: "duration_ms") public var durationMS: Int?
    /// Set once the owner shares the video: anyone with it may watch.
    @OptionalField(key: "share_token") public var shareToken: String?
    @OptionalField(key: "job_id") public var jobID: UUID?
    @Field(key: "created_at") public var createdAt: Date
    @Field(key: "updated_at") public var updatedAt: Date
    @OptionalField(key: "finished_at") public var finishedAt: Date?

    public init() {}

    public init(
        id: UUID? = nil, ownerID: UUID, conversationID: UUID, title: String, conversationJSON: String, settingsJSON: String, now: Date
    ) {
        self.id = id
        self.$owner.id = ownerID
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
