import Foundation

/// The shape of a whole story across its parts, fixed by code so that every story, however
/// long, has a beginning, a middle and an end, and ends as the trip does. The model fills each
/// stage with events; it never decides where the story stands.
public enum StoryStage: String, Sendable, Hashable, Codable, CaseIterable {
    /// One part that is the whole story (a trip of a minute).
    case whole
    case opening
    case rising
    case midpoint
    case crisis
    case climax
    case resolution

    /// What a part in this stage does, for the model.
    public var guidance: String {
        switch self {
        case .whole: "tell a complete little story: a beginning, a turn, and a satisfying end"
        case .opening: "set the scene, introduce the main character and what they want, and hint at the trouble ahead"
        case .rising: "complications build: new obstacles, clues or companions; the stakes grow"
        case .midpoint: "a turning point: a surprise or revelation changes what the hero thought they knew"
        case .crisis: "things are at their worst: a loss or a hard choice; the way forward looks closed"
        case .climax: "the decisive confrontation or moment of truth, with the highest tension"
        case .resolution: "wind down: settle what happened, show how the hero has changed, and end warmly as the journey ends"
        }
    }

    public var name: String {
        switch self {
        case .whole: "the whole story"
        case .opening: "opening"
        case .rising: "rising action"
        case .midpoint: "midpoint"
        case .crisis: "crisis"
        case .climax: "climax"
        case .resolution: "resolution"
        }
    }
}

/// A run of consecutive parts in one stage.
public struct StoryAct: Sendable, Hashable, Codable {
    public var stage: StoryStage
    public var parts: ClosedRange<Int>

    public init(stage: StoryStage, parts: ClosedRange<Int>) {
        self.stage = stage
        self.parts = parts
    }
}

/// The arc as pure functions of the number of parts.
public enum StoryArc {
    /// The classic proportions of a story's stages (Freytag's pyramid as screenwriters use it:
    /// a short setup, a long rise, a turn at the middle, a fall to the crisis, a brief climax
    /// and a short ending).
    static let proportions: [(StoryStage, Double)] = [
        (.opening, 0.12), (.rising, 0.38), (.midpoint, 0.10), (.crisis, 0.20), (.climax, 0.10), (.resolution, 0.10),
    ]

    /// The stages for stories too short for all six: the end and the beginning matter most.
    static let shortArcs: [Int: [StoryStage]] = [
        1: [.whole],
        2: [.opening, .resolution],
        3: [.opening, .climax, .resolution],
        4: [.opening, .rising, .climax, .resolution],
        5: [.opening, .rising, .crisis, .climax, .resolution],
    ]

    /// The acts of a story of `parts` parts (at least 1), in order, covering 1…parts.
    public static func acts(parts: Int) -> [StoryAct] {
        let total = max(1, parts)
        let counts: [(StoryStage, Int)]
        if let stages = shortArcs[total] {
            counts = stages.map { ($0, 1) }
        } else {
            counts = apportion(total)
        }
        var acts: [StoryAct] = []
        var next = 1
        for (stage, count) in counts {
            acts.append(StoryAct(stage: stage, parts: next...(next + count - 1)))
            next += count
        }
        return acts
    }

    /// The stage of part `part` in a story of `parts` parts.
    public static func stage(ofPart part: Int, parts: Int) -> StoryStage {
        act(ofPart: part, parts: parts).stage
    }

    public static func act(ofPart part: Int, parts: Int) -> StoryAct {
        let acts = acts(parts: parts)
        return acts.first { $0.parts.contains(part) } ?? acts[acts.count - 1]
    }

    /// Parts per stage by the largest remainder, each stage at least one part.
    private static func apportion(_ total: Int) -> [(StoryStage, Int)] {
        let spare = total - proportions.count
        let shares = proportions.map { Double(spare) * $0.1 }
        var counts = shares.map { 1 + Int($0) }
        var left = total - counts.reduce(0, +)
        let byRemainder = shares.indices.sorted { (shares[$0] - shares[$0].rounded(.down), $1) > (shares[$1] - shares[$1].rounded(.down), $0) }
        for index in byRemainder where left > 0 {
            counts[index] += 1
            left -= 1
        }
        return zip(proportions.map(\.0), counts).map { ($0, $1) }
    }
}
