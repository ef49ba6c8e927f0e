import Foundation

/// A journey's story as planned so far: its title, what happens in each act, and one beat (a
/// line saying what happens) per part. The acts are written once, after the opening; beats are
/// written a few parts at a time ahead of the listener, so a four-hour story never waits for a
/// four-hour outline.
public struct StoryOutline: Sendable, Hashable, Codable {
    public var title: String
    /// One summary per act of `StoryArc.acts(parts:)`, in order.
    public var actSummaries: [String]
    /// Beats by part number.
    public var beats: [Int: String]
    /// Parts whose beat the model wrote unusably (`SpokenProse.isPlanLine`): told from their
    /// stage and the story so far, and not asked for again (a model that failed at a window
    /// would fail again, at a planning request's cost before every part).
    public var unplanned: Set<Int>

    public init(title: String, actSummaries: [String], beats: [Int: String] = [:], unplanned: Set<Int> = []) {
        self.title = title
        self.actSummaries = actSummaries
        self.beats = beats
        self.unplanned = unplanned
    }

    /// Beats are written this many parts at a time: a short request the model on this machine
    /// answers in seconds, long enough to keep the parts in one act connected.
    public static let beatWindow = 6

    /// The parts whose beats to write so that `part` has one: from the first part without a
    /// beat in `part`'s act, up to `beatWindow` parts, never past the act's end (the next act's
    /// summary guides its own beats). Empty when `part` already has its beat.
    public func beatsToWrite(for part: Int, parts: Int) -> ClosedRange<Int>? {
        guard isOpen(part) else { return nil }
        let act = StoryArc.act(ofPart: part, parts: parts)
        let first = (act.parts.lowerBound...part).first(where: isOpen) ?? part
        let last = min(act.parts.upperBound, max(part, first + Self.beatWindow - 1))
        return first...last
    }

    /// Whether `part`'s beat is still to be asked for.
    private func isOpen(_ part: Int) -> Bool {
        beats[part] == nil && !unplanned.contains(part)
    }

    /// The summary of the act `part` is in, when written.
    public func actSummary(ofPart part: Int, parts: Int) -> String? {
        let acts = StoryArc.acts(parts: parts)
        guard let index = acts.firstIndex(where: { $0.parts.contains(part) }), index < actSummaries.count else { return nil }
        return actSummaries[index]
    }

    /// The beats just before `part`, oldest first: what the model needs of the story so far.
    public func recentBeats(before part: Int, count: Int = 4) -> [(part: Int, beat: String)] {
        stride(from: part - 1, through: max(1, part - count), by: -1).compactMap { number in beats[number].map { (number, $0) } }.reversed()
    }

    private enum CodingKeys: String, CodingKey {
        case title
        case actSummaries = "acts"
        case beats
        case unplanned
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        actSummaries = try container.decode([String].self, forKey: .actSummaries)
        let byKey = try container.decode([String: String].self, forKey: .beats)
        beats = Dictionary(uniqueKeysWithValues: byKey.compactMap { key, value in Int(key).map { ($0, value) } })
        // Outlines kept before unusable lines were told apart have none.
        unplanned = try container.decodeIfPresent(Set<Int>.self, forKey: .unplanned) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(actSummaries, forKey: .actSummaries)
        try container.encode(Dictionary(uniqueKeysWithValues: beats.map { (String($0), $1) }), forKey: .beats)
        if !unplanned.isEmpty { try container.encode(unplanned.sorted(), forKey: .unplanned) }
    }
}
