import FluentKit
import Foundation

/// An imported story and what is known about it.
///
/// Short texts live in `text`; long ones are written once to a content-addressed file in the
/// data directory and `textPath` names it (relative to the data directory). Analysis and cast
/// are stored as JSON text so SQLite and PostgreSQL share one schema.
public final class StoryRecord: Model, @unchecked Sendable {
    public static let schema = "stories"

    @ID(key: .id) public var id: UUID?
    @Parent(key: "owner_id") public var owner: UserRecord
    @Field(key: "title") public var title: String
    @OptionalField(key: "author") public var author: String?
    @OptionalField(key: "text") public var text: String?
    @OptionalField(key: "text_path") public var textPath: String?
    @Field(key: "text_sha256") public var textSHA256: String
    @Field(key: "character_count") public var characterCount: Int
    @Field(key: "imported_at") public var importedAt: Date
    @OptionalField(key: "analysis_json") public var analysisJSON: String?
    /// The user's voice choices (`CastOverrides` JSON); the rest of the cast is chosen anew.
    @OptionalField(key: "cast_json") public var castJSON: String?
    /// The latest finished render (`StoryRender` JSON).
    @OptionalField(key: "render_json") public var renderJSON: String?
    @Field(key: "analysis_state") public var analysisStateRaw: String
    @OptionalField(key: "duration_seconds") public var durationSeconds: Double?
    /// The chapters found at import (`[Chapter]` JSON); nil for stories imported before they
    /// were kept, whose chapters are detected from the text.
    @OptionalField(key: "chapters_json") public var chaptersJSON: String?
    /// Bumped by every `StoryRepository.modify`: the analysis and voices as of that version.
    @Field(key: "version") public var version: Int
    @Timestamp(key: "updated_at", on: .update) public var updatedAt: Date?

    public init() {}

    public init(
        id: UUID? = nil, ownerID: UUID, title: String, author: String?,
        text: String?, textPath: String?, textSHA256: String, characterCount: Int, importedAt: Date
    ) {
        self.id = id
        self.$owner.id = ownerID
        self.title = title
        self.author = author
        self.text = text
        self.textPath = textPath
        self.textSHA256 = textSHA256
        self.characterCount = characterCount
        self.importedAt = importedAt
        self.analysisStateRaw = AnalysisState.notAnalyzed.rawValue
        self.version = 0
    }

    public var analysisState: AnalysisState {
        get { AnalysisState(rawValue: analysisStateRaw) ?? .notAnalyzed }
        set { analysisStateRaw = newValue.rawValue }
    }
}

/// Where a story's analysis stands.
public enum AnalysisState: String, Codable, Sendable, CaseIterable {
    case notAnalyzed = "not_analyzed"
    case analyzing
    case analyzed
    case failed
}
