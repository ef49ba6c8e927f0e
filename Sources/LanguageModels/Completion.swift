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

/// One earlier turn of a conversation.
public struct ChatTurn: Sendable, Hashable, Codable {
    public enum Role: String, Sendable, Hashable, Codable {
        case user
        case assistant
    }

    public var role: Role
    public var text: String

    public init(_ role: Role, _ text: String) {
        self.role = role
        self.text = text
    }
}

/// One question to a language model: a system message, the conversation so far (if any), a
/// user message, and optionally the schema of a structured (JSON) answer.
public struct CompletionRequest: Sendable, Hashable {
    public var system: String
    /// Earlier turns, oldest first, between the system message and `user`.
    public var history: [ChatTurn]
    public var user: String
    public var schema: ResponseSchema?
    public var temperature: Double
    public var maxOutputTokens: Int
    /// Prose that must not go round in loops (a story read aloud): the model on this machine is
    /// then sampled with DRY, which makes each token that would go on repeating a run of the
    /// prompt or of the answer less likely the longer the run. A 1.5B model otherwise says a
    /// clause over and over, or reads its prompt back. Providers whose models do not loop so
    /// are sent nothing more.
    public var discouragesRepetition: Bool
    /// Who waits on the answer and by when: the model on this machine answers the most urgent
    /// request first (`ModelScheduler`). Not part of the answer: caches ignore it.
    public var priority: ModelPriority
    /// The answer so far, which the model goes on from: an assistant message at the end that
    /// llama.cpp continues (a request that stepped aside for a more urgent one resumes so).
    public var continuing: String?

    public init(
        system: String, history: [ChatTurn] = [], user: String, schema: ResponseSchema? = nil,
        temperature: Double = 0, maxOutputTokens: Int = 1024, discouragesRepetition: Bool = false,
        priority: ModelPriority = .background
    ) {
        self.system = system
        self.history = history
        self.user = user
        self.schema = schema
        self.temperature = temperature
        self.maxOutputTokens = maxOutputTokens
        self.discouragesRepetition = discouragesRepetition
        self.priority = priority
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
    /// The answer as it is written: text as it arrives, then the whole response. Cancelling
    /// the consuming task cancels the request (and, for a local model, frees it at once).
    func stream(_ request: CompletionRequest) -> AsyncThrowingStream<CompletionEvent, any Error>
}

/// What a streamed answer delivers: pieces of text, then the complete response.
public enum CompletionEvent: Sendable, Hashable {
    case text(String)
    case finished(CompletionResponse)
}

extension LanguageModel {
    /// A model that cannot stream answers all at once.
    public func stream(_ request: CompletionRequest) -> AsyncThrowingStream<CompletionEvent, any Error> {
        streamWhole(request)
    }

    /// The whole answer as one piece of text, then the response: streaming for a model (or a
    /// wire format) that answers all at once.
    public func streamWhole(_ request: CompletionRequest) -> AsyncThrowingStream<CompletionEvent, any Error> {
        .producing { yield in
            let response = try await complete(request)
            yield(.text(response.text))
            yield(.finished(response))
        }
    }
}

extension AsyncThrowingStream where Element: Sendable, Failure == any Error {
    /// A stream that `produce` feeds from a task of its own; the task is cancelled when the
    /// consumer stops listening, and what it throws ends the stream.
    public static func producing(
        _ produce: @escaping @Sendable (_ yield: @escaping @Sendable (Element) -> Void) async throws -> Void
    ) -> Self {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    try await produce { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

extension AsyncThrowingStream where Element == CompletionEvent, Failure == any Error {
    /// The complete response at the end of the stream.
    public func response() async throws -> CompletionResponse {
        for try await event in self {
            if case .finished(let response) = event { return response }
        }
        throw CancellationError()
    }
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
        approximate(request.system) + request.history.reduce(0) { $0 + approximate($1.text) } + approximate(request.user)
            + (request.schema.map { approximate($0.schema.canonicalText) } ?? 0)
    }
}
