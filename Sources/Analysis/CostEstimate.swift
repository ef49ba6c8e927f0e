import LanguageModels

/// What a run will send and cost, known before anything is sent.
public struct CostEstimate: Sendable, Hashable, Codable {
    public var provider: Provider
    public var model: String
    public var mode: LabellingMode
    /// Requests to send (answers already in the response cache are not counted).
    public var requests: Int
    /// Requests whose answers are already cached: free.
    public var cachedRequests: Int
    public var inputTokens: Int
    /// Expected answer tokens (the answers' typical size; a model may write more or less).
    public var outputTokens: Int
    /// USD; nil when the model's price is unknown.
    public var cost: Double?
    /// Dialogue segments in the story, and how many are sent to the model.
    public var dialogueSegments: Int
    public var spansSent: Int

    public var usage: TokenUsage { TokenUsage(inputTokens: inputTokens, outputTokens: outputTokens) }
}
