/// Probability that a speaker is right, by the kind of evidence that chose it: the accuracy
/// measured for that evidence, end to end (the quote found and given to the right character),
/// on the thirteen PDNC development novels by `bench/attribution-calibration.py`
/// (docs/analysis.md, "Accuracy by confidence band"; leave-one-novel-out ECE 0.008, 2026-12-02).
/// Each kind has a value of its own, so the benchmark can tell the kinds apart in
/// `analyze --format json`; re-run it after changing the rules and copy its values here.
/// Hybrid labelling's threshold (`LabellingOptions.confidenceThreshold`, 0.77) sends every kind
/// below turn-taking in a two-party run.
enum Confidence {
    static func value(for evidence: AttributionEvidence) -> Double {
        switch evidence {
        case .script: return 0.97  // "NAME: line" in a play script; no such lines in the novels, not measured
        case .namedTag: return 0.93  // 12,626 lines
        case .pronounTag: return 0.84  // 2,840
        case .turnTaking: return 0.77  // 2,466
        case .action: return 0.78  // 510
        case .addressee: return 0.76  // 1,290
        case .continuation: return 0.68  // 339
        case .crowdedTurn: return 0.64  // 2,543
        case .fallback: return 0.62  // 1,614
        case .pronounTagClose: return 0.63  // 548
        case .guess: return 0.59  // 85
        case .none, .notSpeech: return 0
        }
    }
}
