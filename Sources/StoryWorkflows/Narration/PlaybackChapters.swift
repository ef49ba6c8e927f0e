import Foundation
import Platform
import StoryModel

/// A page of the player's lines, with what it needs to show them: their texts, the total, the
/// speakers' names and the chapters over the whole plan.
public struct PlaybackPage: Sendable {
    public var story: UUID
    public var lines: [PlannedUtterance]
    /// `lines`' texts, in order.
    public var texts: [String]
    public var total: Int
    public var speakerNames: [String: String]
    public var chapters: PlaybackChapters
}

/// The story's chapters laid over its planned lines: which line each chapter starts at, and
/// which chapter a line is in. Lines are in text order, so both are binary searches.
public struct PlaybackChapters: Sendable {
    public struct Entry: Sendable, Hashable {
        public var index: Int
        public var title: String
        public var firstLine: Int
        public var lineCount: Int
    }

    public let entries: [Entry]
    private let starts: [Int]

    public init(chapters: [Chapter], lines: [PlannedUtterance]) {
        let sorted = chapters.sorted { $0.start < $1.start }
        starts = sorted.map(\.start)
        let lineStarts = lines.map(\.start)
        let firstLines = sorted.map { Self.firstIndex(in: lineStarts, atLeast: $0.start) }
        entries = sorted.enumerated().map { index, chapter in
            let next = index + 1 < firstLines.count ? firstLines[index + 1] : lines.count
            return Entry(index: index, title: chapter.title, firstLine: firstLines[index], lineCount: max(0, next - firstLines[index]))
        }
    }

    /// The chapter holding text offset `start`, or nil before the first chapter.
    public func chapter(containing start: Int) -> Int? {
        let after = Self.firstIndex(in: starts, atLeast: start + 1)
        return after == 0 ? nil : after - 1
    }

    /// The first index of sorted `values` whose value is at least `bound` (`values.count` if none).
    static func firstIndex(in values: [Int], atLeast bound: Int) -> Int {
        var low = 0, high = values.count
        while low < high {
            let middle = (low + high) / 2
            if values[middle] < bound { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension StoryContent {
    /// The chapters the player shows: the analysis's (what was narrated), else the importer's.
    public var playbackChapters: [Chapter] {
        if let chapters = analysis?.chapters, !chapters.isEmpty { return chapters }
        return document.chapters
    }
}
