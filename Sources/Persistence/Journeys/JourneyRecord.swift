import FluentKit
import Foundation

/// One journey, as `JourneyRepository` reads and writes it: the trip's plan, how its story is
/// told (style, voice, model), the story's outline as far as it is written, and where the
/// listener is.
public struct JourneyRow: Sendable, Equatable {
    public var id: UUID
    public var ownerID: UUID
    /// The story's title, once the model has named it.
    public var title: String?
    /// The `JourneyPlan` as JSON, with the place data's attribution.
    public var planJSON: String
    public var style: String
    public var styleDescription: String?
    public var voice: String
    /// A model spec (`openai:gpt-4o-mini`) or `local`.
    public var model: String
    /// `telling`, `complete` or `failed`.
    public var status: String
    public var errorMessage: String?
    /// The `StoryOutline` as JSON, once the acts are written.
    public var outlineJSON: String?
    public var parts: Int
    public var partsReady: Int
    /// The pace the words of each part are counted for: the plan's, then the voice's as measured.
    public var wordsPerMinute: Double
    public var playheadPart: Int
    public var playheadSentence: Int
    /// The job telling the story now, if any: at most one at a time per journey.
    public var tellJobID: UUID?
    public var exportJobID: UUID?
    /// The M4B, relative to the data directory, once exported.
    public var exportPath: String?
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: UUID, ownerID: UUID, planJSON: String, parts: Int, wordsPerMinute: Double,
        style: String, styleDescription: String?, voice: String, model: String, now: Date
    ) {
        self.id = id
        self.ownerID = ownerID
        self.planJSON = planJSON
        self.parts = parts
        self.partsReady = 0
        self.wordsPerMinute = wordsPerMinute
        self.style = style
        self.styleDescription = styleDescription
        self.voice = voice
        self.model = model
        self.status = "telling"
        self.playheadPart = 1
        self.playheadSentence = 0
        self.createdAt = now
        self.updatedAt = now
    }
}

/// One part of a journey's story: its beat, its text, and its sentences as they are voiced.
public struct JourneyPartRow: Sendable, Equatable {
    public var id: UUID
    public var journeyID: UUID
    /// From 1.
    public var number: Int
    /// `writing` while sentences are still being added, `ready` once complete.
    public var status: String
    public var beat: String?
    /// True when the model failed and the part was told from its beat.
    public var fallback: Bool
    /// The sentences as JSON: `[{"text", "file", "duration_s"}]`.
    public var sentencesJSON: String
    /// Tries that failed so far (a later try resumes; enough failures, and the beat is told).
    public var attempts: Int
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: UUID, journeyID: UUID, number: Int, beat: String?, now: Date) {
        self.id = id
        self.journeyID = journeyID
        self.number = number
        self.status = "writing"
        self.beat = beat
        self.fallback = false
        self.sentencesJSON = "[]"
        self.attempts = 0
        self.createdAt = now
        self.updatedAt = now
    }
}

/// The Fluent model of `journeys`, kept inside Persistence.
final class JourneyRecord: Model, @unchecked Sendable {
    static let schema = "journeys"

    @ID(key: .id) var id: UUID?
    @Parent(key: "owner_id") var owner: UserRecord
    @OptionalField(key: "title") var title: String?
    @Field(key: "plan_json") var planJSON: String
    @Field(key: "style") var style: String
    @OptionalField(key: "style_description") var styleDescription: String?
    @Field(key: "voice") var voice: String
    @Field(key: "model") var model: String
    @Field(key: "status") var status: String
    @OptionalField(key: "error_message") var errorMessage: String?
    @OptionalField(key: "outline_json") var outlineJSON: String?
    @Field(key: "parts") var parts: Int
    @Field(key: "parts_ready") var partsReady: Int
    @Field(key: "words_per_minute") var wordsPerMinute: Double
    @Field(key: "playhead_part") var playheadPart: Int
    @Field(key: "playhead_sentence") var playheadSentence: Int
    @OptionalField(key: "tell_job_id") var tellJobID: UUID?
    @OptionalField(key: "export_job_id") var exportJobID: UUID?
    @OptionalField(key: "export_path") var exportPath: String?
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    init(_ row: JourneyRow) {
        id = row.id
        set(row)
    }

    /// The columns where `row` differs (ChangedFields: an update writes only those).
    func set(_ row: JourneyRow) {
        $owner.$id.assign(row.ownerID)
        $title.assign(row.title)
        $planJSON.assign(row.planJSON)
        $style.assign(row.style)
        $styleDescription.assign(row.styleDescription)
        $voice.assign(row.voice)
        $model.assign(row.model)
        $status.assign(row.status)
        $errorMessage.assign(row.errorMessage)
        $outlineJSON.assign(row.outlineJSON)
        $parts.assign(row.parts)
        $partsReady.assign(row.partsReady)
        $wordsPerMinute.assign(row.wordsPerMinute)
        $playheadPart.assign(row.playheadPart)
        $playheadSentence.assign(row.playheadSentence)
        $tellJobID.assign(row.tellJobID)
        $exportJobID.assign(row.exportJobID)
        $exportPath.assign(row.exportPath)
        $createdAt.assign(row.createdAt)
        $updatedAt.assign(row.updatedAt)
    }

    func row() throws -> JourneyRow {
        var row = JourneyRow(
            id: try requireID(), ownerID: $owner.id, planJSON: planJSON, parts: parts, wordsPerMinute: wordsPerMinute,
            style: style, styleDescription: styleDescription, voice: voice, model: model, now: createdAt)
        row.title = title
        row.status = status
        row.errorMessage = errorMessage
        row.outlineJSON = outlineJSON
        row.partsReady = partsReady
        row.playheadPart = playheadPart
        row.playheadSentence = playheadSentence
        row.tellJobID = tellJobID
        row.exportJobID = exportJobID
        row.exportPath = exportPath
        row.updatedAt = updatedAt
        return row
    }
}

/// The Fluent model of `journey_parts`, kept inside Persistence.
final class JourneyPartRecord: Model, @unchecked Sendable {
    static let schema = "journey_parts"

    @ID(key: .id) var id: UUID?
    @Parent(key: "journey_id") var journey: JourneyRecord
    @Field(key: "number") var number: Int
    @Field(key: "status") var status: String
    @OptionalField(key: "beat") var beat: String?
    @Field(key: "fallback") var fallback: Bool
    @Field(key: "sentences_json") var sentencesJSON: String
    @Field(key: "attempts") var attempts: Int
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    init(id: UUID) {
        self.id = id
    }

    /// The columns where `row` differs (ChangedFields: an update writes only those).
    func set(_ row: JourneyPartRow) {
        $journey.$id.assign(row.journeyID)
        $number.assign(row.number)
        $status.assign(row.status)
        $beat.assign(row.beat)
        $fallback.assign(row.fallback)
        $sentencesJSON.assign(row.sentencesJSON)
        $attempts.assign(row.attempts)
        $createdAt.assign(row.createdAt)
        $updatedAt.assign(row.updatedAt)
    }

    func row() throws -> JourneyPartRow {
        var row = JourneyPartRow(id: try requireID(), journeyID: $journey.id, number: number, beat: beat, now: createdAt)
        row.status = status
        row.fallback = fallback
        row.sentencesJSON = sentencesJSON
        row.attempts = attempts
        row.updatedAt = updatedAt
        return row
    }
}
