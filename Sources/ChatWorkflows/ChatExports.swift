import ChatStories
import Foundation
import Jobs
import ObjectStorage
import Persistence
import Platform
import StoryModel

/// One user's chat story videos: start an export (a job, checked against their plan), follow
/// it, download it, share it.
public struct ChatExports: Sendable {
    let database: AppDatabase
    /// Where the videos are kept.
    let artifacts: any ArtifactStore
    let ownerID: UUID
    let now: @Sendable () -> Date

    public init(
        database: AppDatabase, artifacts: any ArtifactStore, ownerID: UUID, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.database = database
        self.artifacts = artifacts
        self.ownerID = ownerID
        self.now = now
    }

    var repository: ChatExportRepository { ChatExportRepository(database: database) }
    /// Where an export's job, and so its live state, is read.
    var jobs: JobQueue { JobQueue(database: database) }

    /// The user's plan and what they used of it today.
    public func allowance() async throws -> ChatAllowance {
        try await ChatEntitlements(database: database, ownerID: ownerID).allowance(now: now())
    }

    /// The user's plan, for use cases that check it (the generator).
    public func plan() async throws -> ChatPlan {
        try await ChatEntitlements(database: database, ownerID: ownerID).plan(now: now()).plan
    }

    /// Queues a video of the conversation as it is now, with `requested` settings as the
    /// user's plan allows them; refused with what to do when the conversation cannot be made
    /// into a video or the plan does not allow it.
    public func start(conversation id: UUID, settings requested: ChatExportSettings) async throws -> ChatExportView {
        let conversations = ChatConversations(database: database, artifacts: artifacts, ownerID: ownerID)
        let conversation = try await conversations.conversation(id)
        try ServiceError.rules {
            try conversation.validateForExport()
            _ = try requested.validated()
        }
        let at = now()
        let plan = try await plan()
        // The video's length is what it costs: refused before a frame is drawn.
        try plan.allow(videoOf: conversation, settings: requested)
        let (record, job) = try await database.transaction { database in
            let entitlements = ChatEntitlements(database: database, ownerID: ownerID)
            let repository = ChatExportRepository(database: database)
            // Two requests at once must not both take the day's last free export.
            try await repository.lockOwner(ownerID)
            let settings = try plan.exportSettings(
                for: conversation, requested: requested, exportsToday: try await entitlements.exportsToday(now: at), now: at)
            var record = ChatExportRow(
                id: UUID.random(), ownerID: ownerID, conversationID: id, title: conversation.title,
                conversationJSON: String(decoding: conversation.encodedFile(), as: UTF8.self),
                settingsJSON: String(decoding: try JSONEncoder().encode(settings), as: UTF8.self), now: at)
            try await repository.create(record)
            let job = try await JobQueue(database: database).enqueue(
                kind: ChatJobs.export, payload: ChatJobs.Payload(export_id: record.id), ownerID: ownerID,
                maxAttempts: ChatJobs.exportAttempts)
            let jobID = job.id
            record.jobID = jobID
            try await repository.attach(job: jobID, to: record.id)
            return (record, job)
        }
        return ChatExportView(record, job: job)
    }

    /// The user's exports (of one conversation), newest first.
    public func list(conversation: UUID? = nil) async throws -> [ChatExportView] {
        try await ChatExportView.views(try await repository.list(ownerID: ownerID, conversationID: conversation), queue: jobs)
    }

    public func export(_ id: UUID) async throws -> ChatExportView {
        try await ChatExportView.views([try await find(id)], queue: jobs)[0]
    }

    /// The finished video's key in the artifact store, and its title.
    public func video(_ id: UUID) async throws -> (key: String, title: String) {
        let record = try await find(id)
        let view = try await ChatExportView.views([record], queue: jobs)[0]
        return (try await Self.file(of: record, view: view, artifacts: artifacts), record.title)
    }

    /// Shares the finished video: anyone with the returned export's `share_url` may watch it,
    /// without signing in. Sharing again keeps the same link.
    public func share(_ id: UUID) async throws -> ChatExportView {
        let record = try await find(id)
        let view = try await ChatExportView.views([record], queue: jobs)[0]
        _ = try await Self.file(of: record, view: view, artifacts: artifacts)
        guard let shared = try await repository.share(id, ownerID: ownerID, token: ChatShareToken.make()) else {
            throw ServiceError.exportNotFound
        }
        return try await ChatExportView.views([shared], queue: jobs)[0]
    }

    /// Ends the share link: whoever has it can no longer watch. Sharing again makes a new one.
    public func unshare(_ id: UUID) async throws -> ChatExportView {
        guard let record = try await repository.unshare(id, ownerID: ownerID) else { throw ServiceError.exportNotFound }
        return try await ChatExportView.views([record], queue: jobs)[0]
    }

    /// The video shared under `token`, for anyone; not found for a token nobody shared.
    public static func shared(_ token: String, database: AppDatabase, artifacts: any ArtifactStore) async throws -> (key: String, title: String) {
        guard ChatShareToken.isWellFormed(token), let record = try await ChatExportRepository(database: database).find(shareToken: token),
              let path = record.filePath, record.status == ChatExportView.Status.succeeded.rawValue,
              try await artifacts.size(of: path) != nil else {
            throw ServiceError(.notFound, code: "share_not_found", "Nothing is shared at this link (it may have been ended, or deleted).")
        }
        return (path, record.title)
    }

    func find(_ id: UUID) async throws -> ChatExportRow {
        guard let record = try await repository.find(id, ownerID: ownerID) else { throw ServiceError.exportNotFound }
        return record
    }

    /// The video's key in `artifacts`, once it is made and kept.
    static func file(of record: ChatExportRow, view: ChatExportView, artifacts: any ArtifactStore) async throws -> String {
        switch view.status {
        case .queued, .running:
            throw ServiceError(.conflict, code: "export_not_ready",
                            "The video is still being made (\(Int(view.progress * 100))%). Follow its job, then try again.")
        case .failed, .cancelled:
            throw ServiceError(.conflict, code: "export_failed",
                            "This export did not finish\(view.error.map { ": \($0)" } ?? ".") Export the conversation again.")
        case .succeeded:
            guard let path = record.filePath, try await artifacts.size(of: path) != nil else {
                throw ServiceError(.notFound, code: "video_missing", "The video file is gone from the server. Export the conversation again.")
            }
            return path
        }
    }

}

/// The unguessable part of a share link: 32 random bytes, base64url.
enum ChatShareToken {
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static func isWellFormed(_ token: String) -> Bool {
        token.utf8.count == 43 && token.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") }
    }
}
