import VendorHTTP

/// A JSON schema the answer must follow, named as the vendors' structured-output APIs want.
public struct ResponseSchema: Sendable, Hashable {
    /// `[a-zA-Z0-9_-]{1,64}`: used as OpenAI's schema name and Anthropic's tool name.
    public var name: String
    /// A JSON Schema (the subset every vendor accepts: object, array, string, number,
    /// integer, boolean, enum, required, `additionalProperties: false`).
    public var schema: JSONValue

    public init(name: String, schema: JSONValue) {
        self.name = name
        self.schema = schema
    }
}

/// One question to a language model: a system message, a user message, and optionally the
/// schema of a structured (JSON) answer.
public struct CompletionRequest: Sendable, Hashable {
    public var system: String
    public var user: String
    public var schema: ResponseSchema?
    public var temperature: Double
    public var maxOutputTokens: Int

    public init(system: String, user: String, schema: ResponseSchema? = nil, temperature: Double = 0, maxOutputTokens: Int = 1024) {
        self.system = system
        self.user = user
        self.schema = schema
        self.temperature = temperature
        self.maxOutputTokens = maxOutputTokens
    }
}

/// Tokens a request consumed, as the provider reported them.
public struct TokenUsage: Sendable, Hashable, Codable {
    public var inputTokens: Int
    public var outputTokens: Int

    public init(inputTokens: Int, outputTokens: Int) {
        self.inputTokens = inputTokens
        self.outputTokens = outputTokens
    }

    public static let zero = TokenUsage(inputTokens: 0, outputTokens: 0)

    public static func + (lhs: TokenUsage, rhs: TokenUsage) -> TokenUsage {
        TokenUsage(inputTokens: lhs.inputTokens + rhs.inputTokens, outputTokens: lhs.outputTokens + rhs.outputTokens)
    }
}

/// A model's answer.
public struct CompletionResponse: Sendable, Hashable, Codable {
    /// The answer's text; for a structured request, the JSON document as text.
    public var text: String
    public var usage: TokenUsage
    /// The model that answered, as the provider names it.
    public var model: String
    public var provider: Provider
    /// True when the answer came from the response cache and cost nothing.
    public var cached: Bool

    public init(text: String, usage: TokenUsage, model: String, provider: Provider, cached: Bool = false) {
        self.text = text
        self.usage = usage
        self.model = model
        self.provider = provider
        self.cached = cached
    }

    /// The answer parsed as JSON; nil when it is not JSON (for example cut off mid-way).
    public var json: JSONValue? { JSONValue(parsing: text) }
}

/// Something that answers completion requests: a live client, a cache in front of one, a test double.
public protocol LanguageModel: Sendable {
    var provider: Provider { get }
    /// The model's name as the provider knows it (`gpt-4o-mini`).
    var model: String { get }
    func complete(_ request: CompletionRequest) async throws -> CompletionResponse
}

/// The rough token count StoryVoice plans with: one token per four Unicode scalars, rounded up.
///
/// Vendors' tokenizers differ; for English prose they land near four characters a token, which
/// is close enough to say what a run will cost before it starts. The loopback test servers
/// report usage the same way, so estimates and recorded usage can be compared honestly.
public enum TokenCount {
    public static func approximate(_ text: String) -> Int {
        (text.unicodeScalars.count + 3) / 4
    }

    /// The input tokens of a request: its messages and its schema.
    public static func approximate(_ request: CompletionRequest) -> Int {
        approximate(request.system) + approximate(request.user) + (request.schema.map { approximate($0.schema.canonicalText) } ?? 0)
    }
}
