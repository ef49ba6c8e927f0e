import LanguageModels

/// Which dialogue segments a language model is asked about.
public enum LabellingMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Only dialogue whose offline speaker confidence is below the threshold.
    case hybrid
    /// Every dialogue segment.
    case full
}

/// Knobs of the labelling pipeline. The defaults suit cloud models with large context windows.
public struct LabellingOptions: Sendable, Hashable {
    /// The default options for `provider`'s models. The model on this machine (a 1.5B model)
    /// labels worse than the offline analysis at every confidence, so by default hybrid sends it
    /// no line and it only describes the characters. Measured 2026-12-06, the lines hybrid at
    /// 0.80 sent it: The Awakening 0.80 right offline → 0.63 with its labels (234 lines), Daisy
    /// Miller 0.60 → 0.43 (157 lines), Alice 0.52 → 0.36 (89 lines) (docs/llm.md).
    /// Full mode still sends it every line when asked. A cloud model gets 0.85.
    public static func defaults(for provider: Provider) -> LabellingOptions {
        var options = LabellingOptions()
        if provider == .local { options.confidenceThreshold = 0 }
        return options
    }

    /// Hybrid mode sends dialogue whose confidence is below this (missing confidence counts as 0).
    /// Offline confidences are probabilities that the speaker is right, learned across the
    /// development novels (StoryText's `LearnedConfidence`); the default, 0.85, sends the lines
    /// less than 85 % likely right: about 32 % of the dialogue on the thirteen development novels,
    /// more of a book the analysis reads badly (docs/analysis.md, "learned across the novels"; docs/llm.md).
    public var confidenceThreshold: Double
    /// At most this many spans in one request.
    public var maxSpansPerRequest: Int
    /// A request's passage is closed once its estimated input reaches this many tokens.
    public var inputTokenBudget: Int
    /// Characters of surrounding text shown on each side of a span, unnumbered.
    public var contextCharacters: Int
    /// Requests in flight at once (the provider's own limiter also applies). New characters
    /// found by one wave of requests are in the roster of the next.
    public var concurrency: Int
    /// Also ask for character metadata (gender, age, accent, personality, description).
    public var enrichCharacters: Bool
    /// Characters per enrichment request, most frequent speakers first.
    public var charactersPerEnrichmentRequest: Int
    /// Characters enriched at most (the most frequent speakers).
    public var maxEnrichedCharacters: Int
    /// Sample lines shown per character in the enrichment pass.
    public var linesPerCharacter: Int

    public init(
        confidenceThreshold: Double = 0.85, maxSpansPerRequest: Int = 40, inputTokenBudget: Int = 6000,
        contextCharacters: Int = 120, concurrency: Int = 4, enrichCharacters: Bool = true,
        charactersPerEnrichmentRequest: Int = 10, maxEnrichedCharacters: Int = 30, linesPerCharacter: Int = 3
    ) {
        self.confidenceThreshold = confidenceThreshold
        self.maxSpansPerRequest = max(1, maxSpansPerRequest)
        self.inputTokenBudget = inputTokenBudget
        self.contextCharacters = contextCharacters
        self.concurrency = max(1, concurrency)
        self.enrichCharacters = enrichCharacters
        self.charactersPerEnrichmentRequest = max(1, charactersPerEnrichmentRequest)
        self.maxEnrichedCharacters = maxEnrichedCharacters
        self.linesPerCharacter = max(1, linesPerCharacter)
    }
}
