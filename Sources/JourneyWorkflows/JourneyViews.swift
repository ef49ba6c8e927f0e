import Foundation
import Journeys
import Persistence

/// A plan as the API shows it: `JourneyPlan`'s own fields, and what its places must credit.
public struct JourneyPlanView: Sendable, Codable, Equatable {
    public var plan: JourneyPlan
    public var attribution: String?

    public init(plan: JourneyPlan, attribution: String?) {
        self.plan = plan
        self.attribution = attribution
    }

    private enum CodingKeys: String, CodingKey { case attribution }

    public init(from decoder: any Decoder) throws {
        plan = try JourneyPlan(from: decoder)
        attribution = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(String.self, forKey: .attribution)
    }

    public func encode(to encoder: any Encoder) throws {
        try plan.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(attribution, forKey: .attribution)
    }
}

/// A story style to choose from.
public struct JourneyStyleView: Sendable, Codable, Equatable {
    public var id: String
    public var name: String
    public var description: String

    public static var all: [JourneyStyleView] {
        StoryStyle.Kind.allCases.map { kind in
            // A custom style's summary does not depend on its description.
            let style = (try? StoryStyle(kind, description: kind == .custom ? "x" : nil))!
            return JourneyStyleView(id: kind.rawValue, name: style.name, description: style.summary)
        }
    }
}

public struct Playhead: Sendable, Codable, Equatable {
    public var part: Int
    public var sentence: Int

    public init(part: Int, sentence: Int = 0) {
        self.part = part
        self.sentence = sentence
    }
}

/// A journey as the player sees it.
public struct JourneyView: Sendable, Codable, Equatable {
    public var id: UUID
    public var createdAt: Date
    public var updatedAt: Date
    public var title: String?
    public var plan: JourneyPlanView
    public var style: String
    public var styleDescription: String?
    public var voice: String
    public var model: String
    public var status: String
    public var error: String?
    public var playhead: Playhead
    public var waiting: Bool
    public var readyAhead: Int
    public var parts: [PartView]

    public struct PartView: Sendable, Codable, Equatable {
        public var number: Int
        public var status: JourneyPart.Status
        public var beat: String?
        public var fallback: Bool
        public var durationSeconds: Double
        public var sentences: [SentenceView]

        enum CodingKeys: String, CodingKey {
            case number, status, beat, fallback, sentences
            case durationSeconds = "duration_s"
        }
    }

    public struct SentenceView: Sendable, Codable, Equatable {
        public var index: Int
        public var text: String
        public var durationSeconds: Double
        public var audioURL: String
        /// True for the journey's spoken title before part 1's story; absent otherwise.
        public var isAnnouncement: Bool?

        enum CodingKeys: String, CodingKey {
            case index, text
            case durationSeconds = "duration_s"
            case audioURL = "audio_url"
            case isAnnouncement = "announcement"
        }
    }

    enum CodingKeys: String, CodingKey {
        case id, title, plan, style, voice, model, status, error, playhead, waiting, parts
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case styleDescription = "style_description"
        case readyAhead = "ready_ahead"
    }

    init(_ record: JourneyRow, parts: [JourneyPart], buffer: BufferPolicy) throws {
        let id = record.id
        self.id = id
        createdAt = record.createdAt
        updatedAt = record.updatedAt
        title = record.title
        plan = try JSONDecoder().decode(JourneyPlanView.self, from: Data(record.planJSON.utf8))
        style = record.style
        styleDescription = record.styleDescription
        voice = record.voice
        model = record.model
        status = record.status
        error = record.errorMessage
        playhead = Playhead(part: record.playheadPart, sentence: record.playheadSentence)
        let ready = Set(parts.filter { $0.status == .ready }.map(\.number))
        let current = parts.first { $0.number == record.playheadPart }
        waiting = record.status == "telling" && (current.map { record.playheadSentence >= $0.sentences.count && $0.status != .ready } ?? true)
        readyAhead = buffer.readyAhead(playhead: record.playheadPart, ready: ready, total: record.parts)
        let base = "/api/journeys/\(id.uuidString.lowercased())/parts"
        self.parts = parts.map { part in
            PartView(
                number: part.number, status: part.status, beat: part.beat, fallback: part.fallback, durationSeconds: part.durationSeconds,
                sentences: part.sentences.enumerated().map { index, sentence in
                    SentenceView(
                        index: index, text: sentence.text, durationSeconds: sentence.durationSeconds, audioURL: "\(base)/\(part.number)/sentences/\(index)/audio",
                        isAnnouncement: sentence.isAnnouncement ? true : nil)
                })
        }
    }
}

/// A journey in the history.
public struct JourneySummaryView: Sendable, Codable, Equatable {
    public var id: UUID
    public var createdAt: Date
    public var title: String?
    public var start: String
    public var end: String
    public var mode: TravelMode
    public var parts: Int
    public var partsReady: Int
    public var status: String
    public var playhead: Playhead
    public var durationSeconds: Double

    enum CodingKeys: String, CodingKey {
        case id, title, start, end, mode, parts, status, playhead
        case createdAt = "created_at"
        case partsReady = "parts_ready"
        case durationSeconds = "duration_s"
    }

    init(_ record: JourneyRow) throws {
        let plan = try JSONDecoder().decode(JourneyPlan.self, from: Data(record.planJSON.utf8))
        id = record.id
        createdAt = record.createdAt
        title = record.title
        start = plan.start.name
        end = plan.end.name
        mode = plan.mode
        parts = record.parts
        partsReady = record.partsReady
        status = record.status
        playhead = Playhead(part: record.playheadPart, sentence: record.playheadSentence)
        durationSeconds = plan.route.durationSeconds
    }
}
