import Foundation
import Platform
import StoryModel

/// A story's planned performance and what the player shows of it, decoded and sliced once.
public struct StoryPlan: Sendable {
    public var lines: [PlannedUtterance]
    /// Each line's text, as the story has it.
    public var texts: [String]
    /// Character id → display name.
    public var speakerNames: [String: String]
    public var chapters: PlaybackChapters
    /// The user's voice choices and lexicon the plan was made with.
    public var overrides: CastOverrides

    init(_ content: StoryContent, analysis: StoryAnalysis, lines: [PlannedUtterance]) {
        self.lines = lines
        // Indexed once: slicing the String per line walked it from the start each time (quadratic).
        let text = ScalarText(content.document.text)
        texts = lines.map { text.string($0.start, $0.end) }
        speakerNames = Dictionary(analysis.characters.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        chapters = PlaybackChapters(chapters: content.playbackChapters, lines: lines)
        overrides = content.overrides
    }
}

/// Stories' plans (cast and utterances) kept while the story and the user's voices stay the
/// same: playing a line then costs a dictionary look-up, not a re-plan of the whole book.
/// Bounded: the least recently used plans go first.
public actor PlanCache {
    public struct Key: Hashable, Sendable {
        public var story: UUID
        /// The story row's last change: any edit of text, analysis or voices moves it.
        public var version: Date
        /// Which voices the user's keys unlock (`UserNarration.forUser`).
        public var voices: String

        public init(story: UUID, version: Date, voices: String) {
            self.story = story
            self.version = version
            self.voices = voices
        }
    }

    private var entries: [Key: (plan: StoryPlan, used: UInt64)] = [:]
    private var clock: UInt64 = 0
    private let capacity: Int

    public init(capacity: Int = 32) {
        self.capacity = capacity
    }

    public func plan(for key: Key) -> StoryPlan? {
        guard let entry = entries[key] else { return nil }
        clock += 1
        entries[key]?.used = clock
        return entry.plan
    }

    public func store(_ plan: StoryPlan, for key: Key) {
        clock += 1
        // An older version of the same story is never asked for again.
        entries = entries.filter { $0.key.story != key.story || $0.key.voices != key.voices }
        entries[key] = (plan, clock)
        while entries.count > capacity, let oldest = entries.min(by: { $0.value.used < $1.value.used })?.key {
            entries[oldest] = nil
        }
    }
}
