import Foundation
import Journeys

/// One spoken sentence of a part.
public struct PartSentence: Sendable, Hashable, Codable {
    public var text: String
    /// The WAV's file name, in the journey's folder.
    public var file: String
    public var durationSeconds: Double
    /// The journey's spoken title (`JourneyAnnouncement`), before part 1's story: heard, not
    /// part of the story's text.
    public var isAnnouncement: Bool

    public init(text: String, file: String, durationSeconds: Double, isAnnouncement: Bool = false) {
        self.text = text
        self.file = file
        self.durationSeconds = durationSeconds
        self.isAnnouncement = isAnnouncement
    }

    private enum CodingKeys: String, CodingKey {
        case text, file
        case durationSeconds = "duration_s"
        case isAnnouncement = "announcement"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        text = try container.decode(String.self, forKey: .text)
        file = try container.decode(String.self, forKey: .file)
        durationSeconds = try container.decode(Double.self, forKey: .durationSeconds)
        // Sentences kept before there were announcements have no such key.
        isAnnouncement = try container.decodeIfPresent(Bool.self, forKey: .isAnnouncement) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(text, forKey: .text)
        try container.encode(file, forKey: .file)
        try container.encode(durationSeconds, forKey: .durationSeconds)
        if isAnnouncement { try container.encode(true, forKey: .isAnnouncement) }
    }
}

/// One part of a journey's story, as far as it is made.
public struct JourneyPart: Sendable, Hashable {
    public enum Status: String, Sendable, Hashable, Codable {
        case writing
        case ready
    }

    public var number: Int
    public var status: Status
    public var beat: String?
    public var fallback: Bool
    public var sentences: [PartSentence]
    public var attempts: Int

    public init(number: Int, status: Status = .writing, beat: String? = nil, fallback: Bool = false, sentences: [PartSentence] = [], attempts: Int = 0) {
        self.number = number
        self.status = status
        self.beat = beat
        self.fallback = fallback
        self.sentences = sentences
        self.attempts = attempts
    }

    /// The story's sentences: all but the announcement.
    public var storySentences: [PartSentence] { sentences.filter { !$0.isAnnouncement } }
    public var text: String { storySentences.map(\.text).joined(separator: " ") }
    /// Seconds of audio, the announcement included (it takes the listener's time too).
    public var durationSeconds: Double { sentences.reduce(0) { $0 + $1.durationSeconds } }
    /// Seconds of the story's own sentences: what the voice's pace is measured on.
    public var storySeconds: Double { storySentences.reduce(0) { $0 + $1.durationSeconds } }
    public var words: Int { SpokenProse.wordCount(text) }
}

/// Where a journey's story is kept while it is told: the database for the server, memory and a
/// folder for `storyvoice journey tell`.
public protocol JourneyStore: Sendable {
    func outline() async throws -> StoryOutline?
    func save(_ outline: StoryOutline) async throws
    func part(_ number: Int) async throws -> JourneyPart?
    /// Every part kept so far, in order.
    func parts() async throws -> [JourneyPart]
    func save(_ part: JourneyPart) async throws
    /// Keeps a sentence's audio; returns the file name to record in the part.
    func writeAudio(_ wav: Data, part: Int, sentence: Int) async throws -> String
    /// Removes audio written for sentences that were thrown away (a part written again).
    func removeAudio(_ files: [String]) async throws
}
