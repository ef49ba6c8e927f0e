import Analysis
import Foundation
import Jobs
import LanguageModels

/// What a model-assisted analysis reports as its job result: labels, notes, tokens and cost.
struct ModelRunSummary: Encodable {
    var characters = 0
    var segments = 0
    var model_labelled: Int
    var fallbacks: Int
    var notes: [String]
    var requests: Int
    var input_tokens: Int
    var output_tokens: Int
    var cost_usd: Double?

    init(_ labelled: LabelledAnalysis) {
        model_labelled = labelled.modelLabelled.count
        fallbacks = labelled.fallbacks.count
        notes = labelled.notes
        requests = labelled.usage.requests
        input_tokens = labelled.usage.usage.inputTokens
        output_tokens = labelled.usage.usage.outputTokens
        cost_usd = labelled.usage.cost
    }

    func json(characters: Int, segments: Int) throws -> String {
        var summary = self
        summary.characters = characters
        summary.segments = segments
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(summary), as: UTF8.self)
    }

    /// A model step's failure as the job sees it: worth retrying later (rate limit, provider
    /// error, timeout, no network), or permanent with the user's message (a rejected or missing
    /// key, no access to the model).
    static func failure(_ error: AnalysisError) -> any Error {
        error.underlying.isTransient ? error : PermanentJobFailure(error.description)
    }

    /// Runs a model step of a job, mapping its failures as `failure(_:)` does.
    static func modelStep<T>(_ step: String, story: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as LanguageModelError {
            throw failure(AnalysisError(step: step, story: story, underlying: error))
        } catch let error as AnalysisError {
            throw failure(error)
        }
    }
}
