import AsyncHTTPClient
import Synchronization
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

/// The model on this machine behind the `LanguageModel` interface: requests take turns at the
/// one server by who waits on them (`ModelScheduler`), a request whose caller went away leaves
/// the queue, one asked to step aside for a more urgent one stops and later goes on from the
/// text it had written, and a server that died is restarted (the answer, again, going on from
/// where it stopped).
public struct LocalLanguageModel: LanguageModel, CustomStringConvertible {
    public let provider = Provider.local
    public var model: String { host.modelName }
    let host: any LocalModelHost
    let scheduler: ModelScheduler
    let timeout: Double
    let httpClient: HTTPClient
    let logger: Logger

    public init(host: any LocalModelHost, scheduler: ModelScheduler, timeout: Double = 600, httpClient: HTTPClient = .vendors,
                logger: Logger = Logger(label: "storyvoice.llm")) {
        self.host = host
        self.scheduler = scheduler
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

    /// What one turn at the server ended with.
    private enum Turn: Sendable {
        case finished(CompletionResponse)
        case steppedAside
    }

    /// Asks the server in turns: a turn ends with the answer, or when a more urgent request
    /// needs the model (the next turn goes on from the text so far). A server found gone is
    /// started again, once, and the answer goes on there.
    private func answer(_ request: CompletionRequest, _ yield: @escaping @Sendable (CompletionEvent) -> Void) async throws {
        let written = WrittenSoFar()
        let arrival = await scheduler.arrival()
        var restarted = false
        while true {
            let grant = try await scheduler.acquire(request.priority, order: arrival)
            let turn: Turn
            do {
                turn = try await self.turn(request, written: written, grant: grant, yield)
                await scheduler.release(grant)
            } catch let error as LanguageModelError where Self.serverGone(error) && !restarted && !Task.isCancelled {
                await scheduler.release(grant)
                restarted = true
                logger.warning("the local model server was gone; starting another", metadata: ["detail": "\(error.detail ?? "")"])
                continue
            } catch {
                await scheduler.release(grant)
                throw error
            }
            switch turn {
            case .finished(let response):
                yield(.finished(response))
                return
            case .steppedAside:
                logger.debug("a request stepped aside for a more urgent one", metadata: ["priority": "\(request.priority)", "words_so_far": "\(written.text.split(separator: " ").count)"])
            }
        }
    }

    /// One turn: the answer streamed from where it stands until it ends or the grant is asked
    /// to step aside (then the request is cancelled, which stops the server at its next token).
    private func turn(
        _ request: CompletionRequest, written: WrittenSoFar, grant: ModelScheduler.Grant, _ yield: @escaping @Sendable (CompletionEvent) -> Void
    ) async throws -> Turn {
        let endpoint = try await host.endpoint()
        let asked = try Self.resumed(Self.describingSchema(request), from: written)
        try checkFits(asked, endpoint)
        let client = self.client(endpoint)
        return try await withThrowingTaskGroup(of: Turn.self) { group in
            group.addTask {
                do {
                    for try await event in client.stream(asked) {
                        switch event {
                        case .text(let piece):
                            written.add(piece)
                            yield(.text(piece))
                        case .finished(let response):
                            return .finished(written.response(from: response))
                        }
                    }
                    throw CancellationError()
                } catch let error as LanguageModelError where Self.serverGone(error) {
                    await host.serverFailed(endpoint)
                    throw error
                }
            }
            group.addTask {
                await grant.preemption.wait()
                return .steppedAside
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }

    /// `request` going on from the answer written so far, with the tokens it has left.
    static func resumed(_ request: CompletionRequest, from written: WrittenSoFar) throws -> CompletionRequest {
        let (text, tokens) = written.state
        guard !text.isEmpty else { return request }
        var resumed = request
        resumed.continuing = text
        resumed.maxOutputTokens = request.maxOutputTokens - tokens
        guard resumed.maxOutputTokens > 0 else {
            throw LanguageModelError(.unparseableAnswer, provider: .local, model: "", detail: "the answer was cut off at the output token limit")
        }
        return resumed
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
        // caller is waiting; a dead one is restarted above instead. The scheduler, not the
        // transport's limiter, decides what runs.
        RemoteLanguageModel(
            provider: .local, model: endpoint.model, baseURL: endpoint.baseURL, key: endpoint.key, timeout: timeout,
            retry: .none, limiter: Self.unlimited, httpClient: httpClient, logger: logger)
    }

    private static let unlimited = ConcurrencyLimiter(limit: 1024)

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

/// The answer a request has written across its turns at the server, and the tokens it took.
final class WrittenSoFar: Sendable {
    private let storage = Mutex((text: "", tokens: 0, inputTokens: 0))

    var state: (text: String, tokens: Int) { storage.withLock { ($0.text, $0.tokens) } }
    var text: String { storage.withLock { $0.text } }

    /// llama.cpp streams one token per event.
    func add(_ piece: String) {
        storage.withLock {
            $0.text += piece
            $0.tokens += 1
        }
    }

    /// The whole answer, however many turns it took: the text of every turn and the tokens
    /// written in all of them (the prompt counted once, as read last).
    func response(from last: CompletionResponse) -> CompletionResponse {
        storage.withLock { state in
            var response = last
            response.text = state.text
            response.usage = TokenUsage(inputTokens: last.usage.inputTokens, outputTokens: max(state.tokens, last.usage.outputTokens))
            return response
        }
    }
}
