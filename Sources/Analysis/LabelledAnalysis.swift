import LanguageModels
import StoryModel

/// The offline analysis with the model's labels applied: the same segments over the same
/// text, with new speakers where the model disagreed, characters it found appended, and
/// character metadata it could back with a quotation.
public struct LabelledAnalysis: Sendable, Hashable, Codable {
    public var analysis: StoryAnalysis
    /// Evidence-backed metadata per character, from the enrichment pass.
    public var profiles: [CharacterProfile]
    /// Indices of segments labelled by the model (changed or confirmed).
    public var modelLabelled: [Int]
    /// Segments sent to the model whose offline label stands because no usable answer came.
    public var fallbacks: [Int]
    /// What a user should know: answers that were unusable, labels dropped for lack of evidence.
    public var notes: [String]
    /// Tokens and cost this run actually spent (cache hits are free).
    public var usage: UsageSummary

    public init(analysis: StoryAnalysis, profiles: [CharacterProfile], modelLabelled: [Int], fallbacks: [Int], notes: [String], usage: UsageSummary) {
        self.analysis = analysis
        self.profiles = profiles
        self.modelLabelled = modelLabelled
        self.fallbacks = fallbacks
        self.notes = notes
        self.usage = usage
    }
}

/// How far a labelling run has got, for progress bars.
public struct LabellingProgress: Sendable, Hashable {
    public var step: String
    public var completedRequests: Int
    public var totalRequests: Int

    public init(step: String, completedRequests: Int, totalRequests: Int) {
        self.step = step
        self.completedRequests = completedRequests
        self.totalRequests = totalRequests
    }
}
