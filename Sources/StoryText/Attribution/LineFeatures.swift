import Foundation
import StoryModel

/// What is known about one line of dialogue and the speaker chosen for it, as numbers: the
/// input of the learned confidence (`LearnedConfidence`, issue 48 item 2). Each is something
/// that made lines wrong on some novel — the kind of evidence, the speaker's standing in the
/// book, a name another speaker shares, a line far from other speech — and the weights that say
/// how much each counts are fitted across the development novels by
/// `bench/attribution-learn.py`, judged on the novels each fold left out.
struct LineFeatures: Sendable {
    /// The speaker's entity, everything about the book it is weighed against, and the line.
    struct Context {
        var evidence: AttributionEvidence
        var entity: Entity
        var estimate: GenderAgeInference.Estimate
        var lines: Int
        var allLines: Int
        var speakers: Int
        var sharesSurname: Bool
        var sharesGivenName: Bool
        var words: Int
        var quotesInParagraph: Int
        var sameAsPrevious: Bool
        var sameAsNext: Bool
        var beforeFirstMention: Bool
        /// The turn model's chance for the speaker it chose, if it weighed the line.
        var turnProbability: Double?
        /// The turn model gave the line another speaker than the rules.
        var movedByModel: Bool
        /// Lines of other quotes to the nearest one a tag names (named or pronoun), capped.
        var tagDistance: Int
        /// Different speakers among the four lines either side.
        var nearbySpeakers: Int
        /// The speaker of two lines back is this one, and the line between is someone else's.
        var alternates: Bool
    }

    /// The features' names, in the order of `values`; the weights file lists them too, so a
    /// change of order or of meaning is caught (`LearnedConfidenceTests`).
    static let names: [String] = evidenceKinds.map { "evidence.\($0)" } + [
        "speaker.role", "speaker.narrator", "speaker.group",
        "speaker.log10Share", "speaker.minorRole", "speaker.minorName",
        "speaker.sharesSurname", "speaker.sharesGivenName", "speaker.log2Forms", "speaker.titles",
        "speaker.genderConfidence", "speaker.genderUnknown",
        "line.log2Words", "line.crowdedParagraph", "line.sameAsPrevious", "line.sameAsNext",
        "line.beforeFirstMention",
        "book.log10Lines", "book.log2Speakers",
        "role.namedTag", "role.pronounTag",
        "line.log2TagDistance", "line.nearbySpeakers", "line.alternates",
        "turn.log2TagDistance", "turn.nearbySpeakers", "turn.alternates",
        "turn.modelProbability", "turn.movedByModel",
    ]

    /// The kinds of evidence a learned confidence weighs; a play script's `NAME:` keeps its
    /// written value and is no feature.
    static let evidenceKinds: [String] = ["guess", "crowdedTurn", "fallback", "turnTaking", "addressee", "action",
                                          "continuation", "pronounTagClose", "pronounTag", "namedTag"]

    var values: [Double]

    init(_ c: Context) {
        let kind = Self.evidenceKinds.map { c.evidence.name == $0 ? 1.0 : 0 }
        let share = Double(max(c.lines, 1)) / Double(max(c.allLines, 1))
        let role = c.entity.kind == .role
        func flag(_ value: Bool) -> Double { value ? 1 : 0 }
        values = kind + [
            flag(role), flag(c.entity.kind == .narrator), flag(c.entity.isGroup),
            log10(share), flag(role && share < 0.01), flag(!role && share < 0.002),
            flag(c.sharesSurname), flag(c.sharesGivenName), log2(Double(1 + c.entity.formCounts.count)),
            flag(c.entity.titles.count > 1),
            c.estimate.genderConfidence, flag(c.estimate.gender == .unknown),
            log2(Double(1 + c.words)), flag(c.quotesInParagraph > 1), flag(c.sameAsPrevious), flag(c.sameAsNext),
            flag(c.beforeFirstMention),
            log10(Double(max(c.allLines, 1))), log2(Double(max(c.speakers, 1))),
            flag(role && c.evidence == .namedTag), flag(role && c.evidence == .pronounTag),
            log2(Double(1 + c.tagDistance)), Double(c.nearbySpeakers), flag(c.alternates),
        ]
        // How far the turn is from its tag and how many talk around it count for the kinds
        // that follow the turns, not for a tag.
        let turn = [.turnTaking, .crowdedTurn, .fallback, .addressee, .guess].contains(c.evidence) ? 1.0 : 0
        values += [turn * log2(Double(1 + c.tagDistance)), turn * Double(c.nearbySpeakers), turn * flag(c.alternates)]
        values += [c.turnProbability ?? 0, flag(c.movedByModel)]
    }
}

extension AttributionEvidence {
    /// The case's name, as `analyze --features` and the weights file write it.
    var name: String {
        switch self {
        case .notSpeech: "notSpeech"
        case .none: "none"
        case .guess: "guess"
        case .crowdedTurn: "crowdedTurn"
        case .fallback: "fallback"
        case .turnTaking: "turnTaking"
        case .addressee: "addressee"
        case .action: "action"
        case .continuation: "continuation"
        case .pronounTagClose: "pronounTagClose"
        case .pronounTag: "pronounTag"
        case .namedTag: "namedTag"
        case .script: "script"
        }
    }
}

/// One dialogue line's evidence and features, as `analyze --features` writes them for the
/// benchmark that fits and judges the learned confidence.
public struct ExplainedLine: Codable, Sendable, Equatable {
    /// Index of the line's segment in `StoryAnalysis.segments`.
    public var segment: Int
    public var evidence: String
    public var features: [Double]
    /// For a line a turn rule attributed: the people talking nearby the turn model weighed,
    /// each with its features (`TurnCandidates`); the rules' choice has `rule` = 1.
    public var candidates: [Candidate]?

    public struct Candidate: Codable, Sendable, Equatable {
        /// The character's id; nil for one left with no line.
        public var speaker: String?
        public var features: [Double]
    }

    /// The names of `features`, in order.
    public static var featureNames: [String] { LineFeatures.names }
    /// The names of a candidate's features, in order.
    public static var candidateFeatureNames: [String] { TurnCandidates.names }
}
