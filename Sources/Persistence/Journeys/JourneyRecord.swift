import FluentKit
import Foundation

/// One journey: the trip's plan, how its story is told (style, voice, model), the story's
/// outline as far as it is written, and where the listener is.
public final class JourneyRecord: Model, @unchecked Sendable {
    public static let schema = "journeys"

    @ID(key: .id) public var id: UUID?
    @Parent(key: "owner_id") public var owner: UserRecord
    /// The story's title, once the model has named it.
    @OptionalField(key: "title") public var title: String?
    /// The `JourneyPlan` as JSON, with the place data's attribution.
    @Field(key: "plan_json") public var planJSON: String
    @Field(key: "style") public var style: String
    @OptionalField(key: "style_description") public var styleDescription: String?
    @Field(key: "voice") public var voice: String
    /// A model spec (`openai:gpt-4o-mini`) or `local`.
    @Field(key: "model") public var model: String
    /// `telling`, `complete` or `failed`.
    @Field(key: "status") public var status: String
    @OptionalField(key: "error_message") public var errorMessage: String?
    /// The `StoryOutline` as JSON, once the acts are written.
    @OptionalField(key: "outline_json") public var outlineJSON: String?
    @Field(key: "parts") public var parts: Int
    @Field(key: "parts_ready") public var partsReady: Int
    /// The pace the words of each part are counted for: the plan's, then the voice's as measured.
    @Field(key: "words_per_minute") public var wordsPerMinute: Double
    @Field(key: "playhead_part") public var playheadPart: Int
    @Field(key: "playhead_sentence") public var playheadSentence: Int
    /// The job telling the story now, if any: at most one at a time per journey.
    @OptionalField(key: "tell_job_id") public var tellJobID: UUID?
    @OptionalField(key: "export_job_id") public var exportJobID: UUID?
    /// The M4B, relative to the data directory, once exported.
    @OptionalField(key: "export_path") public var exportPath: String?
    @Field(key: "created_at") public var createdAt: Date
    @Field(key: "updated_at") public var updatedAt: Date

    public init() {}

    public init(
        id: UUID? = nil, ownerID: UUID, planJSON: String, parts: Int, wordsPerMinute: Double,
        style: String, styleDescription: String?, voice: String, model: String, now: Date
    ) {
        self.id = id
        self.$owner.id = ownerID
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
public final class JourneyPartRecord: Model, @unchecked Sendable {
    public static let schema = "journey_parts"

    @ID(key: .id) public var id: UUID?
    @Parent(key: "journey_id") public var journey: JourneyRecord
    /// From 1.
    @Field(key: "number") public var number: Int
    /// `writing` while sentences are still being added, `ready` once complete.
    @Field(key: "status") public var status: String
    @OptionalField(key: "beat") public var beat: String?
    /// True when the model failed and the part was told from its beat.
    @Field(key: "fallback") public var fallback: Bool
    /// The sentences as JSON: `[{"text", "file", "duration_s"}]`.
    @Field(key: "sentences_json") public var sentencesJSON: String
    /// Tries that failed so far (a later try resumes; enough failures, and the beat is told).
    @Field(key: "attempts") public var attempts: Int
    @Field(key: "created_at") public var createdAt: Date
    @Field(key: "updated_at") public var updatedAt: Date

    public init() {}

    public init(id: UUID? = nil, journeyID: UUID, number: Int, beat: String?, now: Date) {
        self.id = id
        self.$journey.id = journeyID
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
