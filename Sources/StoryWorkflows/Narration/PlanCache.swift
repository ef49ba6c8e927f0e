import Foundation

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

    private var entries: [Key: (lines: [PlannedUtterance], used: UInt64)] = [:]
    private var clock: UInt64 = 0
    private let capacity: Int

    public init(capacity: Int = 32) {
        self.capacity = capacity
    }

    public func lines(for key: Key) -> [PlannedUtterance]? {
        guard let entry = entries[key] else { return nil }
        clock += 1
        entries[key]?.used = clock
        return entry.lines
    }

    public func store(_ lines: [PlannedUtterance], for key: Key) {
        clock += 1
        // An older version of the same story is never asked for again.
        entries = entries.filter { $0.key.story != key.story || $0.key.voices != key.voices }
        entries[key] = (lines, clock)
        while entries.count > capacity, let oldest = entries.min(by: { $0.value.used < $1.value.used })?.key {
            entries[oldest] = nil
        }
    }
}
