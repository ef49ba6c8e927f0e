import FluentKit
import Foundation

/// An imported story and what is known about it, as `StoryRepository` reads and writes it.
///
/// Short texts live in `text`; long ones are written once to a content-addressed file in the
/// data directory and `textPath` names it (relative to the data directory). Analysis and cast
/// are stored as JSON text so SQLite and PostgreSQL share one schema.
public struct StoryRow: Sendable, Equatable {
    public var id: UUID
    public var ownerID: UUID
    public var title: String
    public var author: String?
    public var text: String?
    public var textPath: String?
    public var textSHA256: String
    public var characterCount: Int
    public var importedAt: Date
    public var analysisJSON: String?
    /// The user's voice choices (`CastOverrides` JSON); the rest of the cast is chosen anew.
    public var castJSON: String?
    /// The latest finished render (`StoryRender` JSON).
    public var renderJSON: String?
    public var analysisState: AnalysisState
    public var durationSeconds: Double?
    /// The chapters found at import (`[Chapter]` JSON); nil for stories imported before they
    /// were kept, whose chapters are detected from the text.
    public var chaptersJSON: String?
    /// Bumped by every `StoryRepository.modify`: the analysis and voices as of that version.
    public var version: Int
    /// Set by the database on every write (nil until the first).
    public internal(set) var updatedAt: Date?

    public init(
        id: UUID, ownerID: UUID, title: String, author: String?,
        text: String?, textPath: String?, textSHA256: String, characterCount: Int, importedAt: Date
    ) {
        self.id = id
        self.ownerID = ownerID
        self.title = title
        self.author = author
        self.text = text
        self.textPath = textPath
        self.textSHA256 = textSHA256
        self.characterCount = characterCount
        self.importedAt = importedAt
        self.analysisState = .notAnalyzed
        self.version = 0
    }
}

/// The Fluent model of `stories`, kept inside Persistence.
final class StoryRecord: Model, @unchecked Sendable {
    static let schema = "stories"

    @ID(key: .id) var id: UUID?
    @Parent(key: "owner_id") var owner: UserRecord
    @Field(key: "title") var title: String
    @OptionalField(key: "author") var author: String?
    @OptionalField(key: "text") var text: String?
    @OptionalField(key: "text_path") var textPath: String?
    @Field(key: "text_sha256") var textSHA256: String
    @Field(key: "character_count") var characterCount: Int
    @Field(key: "imported_at") var importedAt: Date
    @OptionalField(key: "analysis_json") var analysisJSON: String?
    @OptionalField(key: "cast_json") var castJSON: String?
    @OptionalField(key: "render_json") var renderJSON: String?
    @Field(key: "analysis_state") var analysisStateRaw: String
    @OptionalField(key: "duration_seconds") var durationSeconds: Double?
    @OptionalField(key: "chapters_json") var chaptersJSON: String?
    @Field(key: "version") var version: Int
    @Timestamp(key: "updated_at", on: .update) var updatedAt: Date?

    init() {}

    init(_ row: StoryRow) {
        id = row.id
        $owner.id = row.ownerID
        title = row.title
        textSHA256 = row.textSHA256
        characterCount = row.characterCount
        importedAt = row.importedAt
        text = row.text
        textPath = row.textPath
        version = row.version
        apply(row)
    }

    func row() throws -> StoryRow {
        var row = StoryRow(
            id: try requireID(), ownerID: $owner.id, title: title, author: author, text: text, textPath: textPath,
            textSHA256: textSHA256, characterCount: characterCount, importedAt: importedAt)
        row.analysisJSON = analysisJSON
        row.castJSON = castJSON
        row.renderJSON = renderJSON
        row.analysisState = AnalysisState(rawValue: analysisStateRaw) ?? .notAnalyzed
        row.durationSeconds = durationSeconds
        row.chaptersJSON = chaptersJSON
        row.version = version
        row.updatedAt = updatedAt
        return row
    }

    /// The columns a story's life changes, where `row` differs (ChangedFields); its text, owner
    /// and version are written elsewhere (the version only by `StoryRepository.modify`).
    func apply(_ row: StoryRow) {
        $title.assign(row.title)
        $author.assign(row.author)
        $analysisJSON.assign(row.analysisJSON)
        $castJSON.assign(row.castJSON)
        $renderJSON.assign(row.renderJSON)
        $analysisStateRaw.assign(row.analysisState.rawValue)
        $durationSeconds.assign(row.durationSeconds)
        $chaptersJSON.assign(row.chaptersJSON)
    }
}

/// Where a story's analysis stands.
public enum AnalysisState: String, Codable, Sendable, CaseIterable {
    case notAnalyzed = "not_analyzed"
    case analyzing
    case analyzed
    case failed
}
