import Foundation

/// The learned confidence of a line: a logistic model of `LineFeatures`, its weights fitted on
/// the development novels by `bench/attribution-learn.py`, which writes `LearnedWeights.swift`.
/// Nil while no weights are shipped: the line then takes its evidence's measured value.
enum LearnedConfidence {
    static func value(_ features: LineFeatures) -> Double? {
        guard LearnedWeights.names == LineFeatures.names, LearnedWeights.weights.count == features.values.count else { return nil }
        var z = LearnedWeights.bias
        for (weight, value) in zip(LearnedWeights.weights, features.values) { z += weight * value }
        // Four places are all a threshold needs, and keep the analysis's JSON short.
        return (10_000 / (1 + exp(-z))).rounded() / 10_000
    }
}
