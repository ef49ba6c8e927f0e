import AsyncHTTPClient
import Logging
import VendorHTTP

/// Where the model on this machine answers once it runs: a llama.cpp server bound to 127.0.0.1
/// with a key generated for this run.
public struct LocalEndpoint: Sendable, Hashable {
    public var baseURL: String
    public var key: Secret
    /// The model's name as the server reports it.
    public var model: String
    /// Tokens the server reads at most: prompt and answer together.
    public var contextTokens: Int

    public init(baseURL: String, key: Secret, model: String, contextTokens: Int) {
        self.baseURL = baseURL
        self.key = key
        self.model = model
        self.contextTokens = contextTokens
    }
}

/// Runs the model on this machine on demand (`LocalModel.LocalModelServer` is the live one).
public protocol LocalModelHost: Sendable {
    /// The model's name (`qwen2.5-coder-1.5b`).
    var modelName: String { get }
    /// The running server, started (and waited for) if it is not running.
    func endpoint() async throws -> LocalEndpoint
    /// A request found `endpoint` gone: the next `endpoint()` starts another server.
    func serverFailed(_ endpoint: LocalEndpoint) async
}

/// The model on this machine behind the `LanguageModel` interface: requests queue for the one
/// server (two at once would only halve each other's speed on a small machine), a request whose
/// caller went away leaves the queue, and a server that died is restarted for the next request.
public struct LocalLanguageModel: LanguageModel, CustomStringConvertible {
    public let provider = Provider.local
    public var model: String { host.modelName }
    let host: any LocalModelHost
    let limiter: ConcurrencyLimiter
    let timeout: Double
    let httpClient: HTTPClient
    let logger: Logger

    public init(host: any LocalModelHost, limiter: ConcurrencyLimiter, timeout: Double = 600, httpClient: HTTPClient = .vendors,
                logger: Logger = Logger(label: "storyvoice.llm")) {
        self.host = host
        self.limiter = limiter
        self.timeout = timeout
        self.httpClient = httpClient
        self.logger = logger
    }

    public var description: String { "local:\(model) on this machine" }

    public func complete(_ request: CompletionRequest) async throws -> CompletionResponse {
        try await stream(request).response()
    }

    public func stream(_ request: CompletionRequest) -> AsyncThrowingStream<CompletionEvent, any Error> {
        .producing { yield in try await answer(request, yield) }
    }

    /// Asks the server; when it turns out to be gone before a word came back, starts another
    /// and asks once more.
    private func answer(_ request: CompletionRequest, _ yield: (CompletionEvent) -> Void) async throws {
        for attempt in 1...2 {
            let endpoint = try await host.endpoint()
            let request = Self.describingSchema(request)
            try checkFits(request, endpoint)
            var yieldedText = false
            do {
                for try await event in client(endpoint).stream(request) {
                    if case .text = event { yieldedText = true }
                    yield(event)
                }
                return
            } catch let error as LanguageModelError where Self.serverGone(error) {
                await host.serverFailed(endpoint)
                guard attempt == 1, !yieldedText else { throw error }
                logger.warning("the local model server was gone; starting another", metadata: ["detail": "\(error.detail ?? "")"])
            }
        }
    }

    /// A small model held to a JSON schema by grammar alone can fill the whitespace the grammar
    /// allows until the token limit; told what to write, it writes it. So the schema is also
    /// put in words, after the user's message: requests that share their opening (a journey's
    /// outline requests, each with a schema of its own) then share it in the server's prompt
    /// cache too. In the system message, it made every such request read its whole prompt again.
    static func describingSchema(_ request: CompletionRequest) -> CompletionRequest {
        guard let schema = request.schema else { return request }
        var described = request
        described.user += "\n\nAnswer with one JSON object only, no other text, following this JSON schema:\n" + schema.schema.canonicalText
        return described
    }

    /// A prompt the server cannot read whole is refused here, in words, before it queues.
    private func checkFits(_ request: CompletionRequest, _ endpoint: LocalEndpoint) throws {
        let needed = TokenCount.approximate(request) + request.maxOutputTokens
        guard needed <= endpoint.contextTokens else {
            throw LanguageModelError(
                .requestRejected(status: 400), provider: .local, model: model,
                detail: "the request needs about \(needed) tokens (prompt and answer) and the local model reads at most \(endpoint.contextTokens); shorten it")
        }
    }

    private func client(_ endpoint: LocalEndpoint) -> RemoteLanguageModel {
        // No retries: a local server that failed will not do better a second later, and the
        // caller is waiting; a dead one is restarted above instead.
        RemoteLanguageModel(
            provider: .local, model: endpoint.model, baseURL: endpoint.baseURL, key: endpoint.key, timeout: timeout,
            retry: .none, limiter: limiter, httpClient: httpClient, logger: logger)
    }

    static func serverGone(_ error: LanguageModelError) -> Bool {
        switch error.kind {
        case .unreachable: true
        case .unparseableAnswer: error.detail == "the connection closed mid-answer"
        default: false
        }
    }
}

/// How fast the model on this machine reads and writes, for "roughly how long" before a run:
/// Qwen2.5-Coder-1.5B (Q4_K_M, one thread) on a busy two-core machine (docs/local-model.md).
public enum LocalModelSpeed {
    public static let promptTokensPerSecond = 12.0
    public static let outputTokensPerSecond = 6.0

    public static func seconds(inputTokens: Int, outputTokens: Int) -> Double {
        (Double(inputTokens) / promptTokensPerSecond + Double(outputTokens) / outputTokensPerSecond).rounded(.up)
    }
}
