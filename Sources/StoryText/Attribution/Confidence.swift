/// Probability that a speaker is right, by the kind of evidence that chose it: the accuracy
/// measured for that evidence, end to end (the quote found and given to the right character),
/// on the thirteen PDNC development novels by `bench/attribution-calibration.py`
/// (docs/analysis.md, "Accuracy by confidence band"; 2026-12-06); re-run it after changing the
/// rules and copy its values here.
/// A line's shipped confidence is the learned one (`LearnedConfidence`), which weighs these
/// kinds with the rest of what is known about the line; these values remain for a play
/// script's `NAME:`, a line with no speaker, and every line if the learned weights no longer
/// fit the features. They are also the baseline `bench/attribution-learn.py` judges against.
enum Confidence {
    static func value(for evidence: AttributionEvidence) -> Double {
        switch evidence {
        case .script: return 0.97  // "NAME: line" in a play script; no such lines in the novels, not measured
        case .namedTag: return 0.96  // 11,933 lines
        case .pronounTag: return 0.86  // 2,788
        case .turnTaking: return 0.79  // 2,407
        case .action: return 0.81  // 522
        case .addressee: return 0.80  // 1,192
        case .continuation: return 0.72  // 324
        case .crowdedTurn: return 0.65  // 2,476
        case .fallback: return 0.63  // 1,585
        case .pronounTagClose: return 0.66  // 509
        case .guess: return 0.62  // 86
        case .none, .notSpeech: return 0
        }
    }

    /// A speaker the book gives a small share of its lines is less certain than the evidence
    /// that chose it: a role of under 1 % of the lines ("the stranger", "the voice") is often
    /// a named character not recognised (Monks) or no one a reader would count; a name of under
    /// 0.2 % is often a duplicate of someone or a word taken for a name. Shares, not counts, so a
    /// short story's few speakers keep their evidence's confidence. Each is measured over every
    /// kind of evidence, so hybrid sends these lines (issue 48: entity uncertainty).
    enum Standing {
        case minorRole, minorName
    }

    /// The standing of a speaker with `lines` of the book's `total` dialogue lines, if it lowers
    /// the confidence; nil otherwise.
    static func standing(isRole: Bool, lines: Int, of total: Int) -> Standing? {
        let share = Double(lines) / Double(max(total, 1))
        if isRole { return share < 0.01 ? .minorRole : nil }
        return share < 0.002 ? .minorName : nil
    }

    /// The value for a line chosen by `evidence` for `speaker`, who has `lines` of the book's
    /// `total`: the lower of the evidence's value and the speaker's standing's.
    static func value(for evidence: AttributionEvidence, speaker: Entity?, lines: Int, of total: Int) -> Double {
        // A play script's "NAME:" is as sure of a minor speaker as of any other.
        guard evidence != .script, let speaker,
              let standing = standing(isRole: speaker.kind == .role, lines: lines, of: total) else {
            return value(for: evidence)
        }
        return min(value(for: evidence), value(for: standing))
    }

    /// A tag whose name fits two or more people ("said Mr. Bertram" beside Tom and Edmund
    /// Bertram, `AmbiguousTags`): the likelier is kept, at about even odds, so that hybrid sends
    /// the line. Written, not fitted: the thirteen novels have three such lines.
    static let ambiguousName = 0.5

    static func value(for standing: Standing) -> Double {
        switch standing {
        case .minorRole: return 0.36  // 861
        case .minorName: return 0.58  // 178
        }
    }
}
