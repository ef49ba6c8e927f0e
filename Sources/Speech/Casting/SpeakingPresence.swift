import StoryModel

/// Where and how much each character speaks: the facts casting works from.
struct SpeakingPresence: Sendable {
    /// Character id → indices (into the analysis's chapters) of chapters where they speak.
    /// A segment belongs to the chapter containing its start; text before the first chapter,
    /// or a story without chapters, counts as chapter 0.
    var chapters: [String: Set<Int>] = [:]
    /// Character id → number of segments they speak.
    var lines: [String: Int] = [:]
    /// Character id → Unicode scalars they speak.
    var spokenLength: [String: Int] = [:]
    /// Character id → chapter index → segments they speak there.
    var linesByChapter: [String: [Int: Int]] = [:]

    init(_ analysis: StoryAnalysis) {
        let starts = analysis.chapters.map(\.start).sorted()
        for segment in analysis.segments {
            guard let speaker = segment.speaker else { continue }
            let chapter = Self.chapter(containing: segment.start, starts: starts)
            chapters[speaker, default: []].insert(chapter)
            linesByChapter[speaker, default: [:]][chapter, default: 0] += 1
            lines[speaker, default: 0] += 1
            spokenLength[speaker, default: 0] += segment.length
        }
    }

    /// The index of the last chapter starting at or before `offset` (binary search), or 0.
    static func chapter(containing offset: Int, starts: [Int]) -> Int {
        var low = 0, high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] <= offset { low = middle + 1 } else { high = middle }
        }
        return max(0, low - 1)
    }

    /// How much two characters are heard side by side: over their shared chapters, the lines
    /// of the quieter of the two. The narrator (`nil`) is heard everywhere, so a character's
    /// weight with the narrator is all their lines.
    func interplay(_ a: String, with b: String?) -> Int {
        guard let mine = linesByChapter[a] else { return 0 }
        guard let b else { return lines[a] ?? 0 }
        guard let theirs = linesByChapter[b] else { return 0 }
        return mine.reduce(0) { total, entry in total + min(entry.value, theirs[entry.key] ?? 0) }
    }

    func shareAChapter(_ a: String, _ b: String) -> Bool {
        guard let first = chapters[a], let second = chapters[b] else { return false }
        return !first.isDisjoint(with: second)
    }
}
