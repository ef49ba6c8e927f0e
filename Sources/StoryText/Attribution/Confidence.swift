/// Probability that a speaker is right, by the kind of evidence that chose it: the accuracy
/// measured for that evidence, end to end (the quote found and given to the right character),
/// on the thirteen PDNC development novels by `bench/attribution-calibration.py`
/// (docs/analysis.md, "Accuracy by confidence band"; leave-one-novel-out ECE 0.004, 2026-12-04).
/// Each kind has a value of its own, so the benchmark can tell the kinds apart in
/// `analyze --format json`; re-run it after changing the rules and copy its values here.
/// Hybrid labelling's threshold (`LabellingOptions.confidenceThreshold`, 0.77) sends every kind
/// below turn-taking in a two-party run.
enum Confidence {
    static func value(for evidence: AttributionEvidence) -> Double {
        switch evidence {
        case .script: return 0.97  // "NAME: line" in a play script; no such lines in the novels, not measured
        case .namedTag: return 0.94  // 12,647 lines
        case .pronounTag: return 0.85  // 2,854
        case .turnTaking: return 0.79  // 2,449
        case .action: return 0.78  // 532
        case .addressee: return 0.76  // 1,287
        case .continuation: return 0.70  // 334
        case .crowdedTurn: return 0.64  // 2,549
        case .fallback: return 0.62  // 1,596
        case .pronounTagClose: return 0.65  // 530
        case .guess: return 0.59  // 83
        case .none, .notSpeech: return 0
        }
    }
}
