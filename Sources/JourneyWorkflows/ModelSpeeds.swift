import Foundation
import Journeys

/// How fast each model has been making journeys' parts in this process (`ModelPace`), measured
/// on every part told: the queue, the prompt, the writing and the voice, as a listener waits on
/// them. Shared by every journey: the model on this machine is one, so what one journey measured
/// holds for the next, and a teller started for a moved playhead does not begin from a guess.
public actor ModelSpeeds {
    public static let shared = ModelSpeeds()

    private var paces: [String: ModelPace] = [:]

    public init() {}

    /// The pace measured for `model`, or `ModelPace.assumed` before any.
    public func pace(for model: String) -> ModelPace {
        paces[model] ?? .assumed
    }

    public func record(_ sample: ModelPace, for model: String) {
        paces[model] = paces[model].map { $0.updated(with: sample) } ?? sample
    }
}
