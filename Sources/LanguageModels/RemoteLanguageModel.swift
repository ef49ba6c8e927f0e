import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import VendorHTTP

/// A live client for one model at one provider, speaking the provider's own HTTP API.
///
/// Every request goes through the provider's concurrency limiter, has a timeout, and is retried
/// with exponential backoff and jitter on 429, 5xx and timeouts (honouring `Retry-After`).
/// The key only ever goes into a request header; it is scrubbed from provider messages.
public struct RemoteLanguageModel: LanguageModel, CustomStringConvertible {
    public let provider: Provider
    public let model: String
    /// The base URL requests go to (no trailing slash).
    public let baseURL: String
    let key: Secret?
    let format: any WireFormat
    let transport: VendorTransport
    let logger: Logger

    /// - Parameters:
    ///   - timeout: seconds for one attempt, from sending to the last byte of the reply.
    ///   - limiter: share one per provider (``LanguageModelFactory`` does).
    ///   - sleep: waits between attempts, in seconds (injected so tests can see the waits).
    public init(
        provider: Provider, model: String, baseURL: String, key: Secret?, timeout: Double = 60,
        retry: RetryPolicy = .standard, limiter: ConcurrencyLimiter, httpClient: HTTPClient = .vendors,
        logger: Logger = Logger(label: "storyvoice.llm"),
        sleep: @escaping @Sendable (Double) async throws -> Void = { try await Task.sleep(for: .seconds($0)) }
    ) {
        self.provider = provider
        self.model = model
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
        self.key = key
        self.format = switch provider {
        case .openai: OpenAIChatFormat(compatible: false)
        case .openaiCompatible: OpenAIChatFormat(compatible: true)
        case .local: OpenAIChatFormat(compatible: true, llamaCpp: true)
        case .anthropic: AnthropicMessagesFormat()
        case .gemini: GeminiGenerateContentFormat()
        }
        self.transport = VendorTransport(key: key, timeout: timeout, retry: retry, limiter: limiter, httpClient: httpClient, sleep: sleep)
        self.logger = logger
    }

    /// `openai:gpt-4o-mini at https://api.openai.com/v1` — never the key.
    public var description: String { "\(provider.rawValue):\(model) at \(baseURL)" }

    public func complete(_ request: CompletionRequest) async throws -> CompletionResponse {
        let (outgoing, logger) = try prepare(format.body(for: request, model: model))
        let format = format
        do {
            let reply = try await transport.send(outgoing, logger: logger) { JSONValue(parsing: $0).flatMap(format.errorMessage) }
            return try parse(reply.body, request: request)
        } catch let failure as VendorFailure {
            throw LanguageModelError(failure.kind, provider: provider, model: model, detail: failure.detail)
        }
    }

    /// Streams the answer as server-sent events (OpenAI and compatible servers, Anthropic,
    /// Gemini); a wire format that cannot stream gives the whole answer at once.
    public func stream(_ request: CompletionRequest) -> AsyncThrowingStream<CompletionEvent, any Error> {
        guard let format = format as? any StreamingWireFormat, format.streams(request) else { return streamWhole(request) }
        return .producing { yield in
            let response = try await streamEvents(request, format: format) { yield(.text($0)) }
            yield(.finished(response))
        }
    }

    private func streamEvents(
        _ request: CompletionRequest, format: any StreamingWireFormat, text: (String) -> Void
    ) async throws -> CompletionResponse {
        let (outgoing, logger) = try prepare(format.streamingBody(for: request, model: model), url: format.streamingURL(base: baseURL, model: model))
        var answer = "", usage: TokenUsage?, answeringModel: String?, finishReason: String?
        do {
            try await transport.streamLines(outgoing, logger: logger, errorMessage: { JSONValue(parsing: $0).flatMap(format.errorMessage) }) { line in
                guard line.hasPrefix("data:") else { return }
                let payload = line.dropFirst(5).drop { $0 == " " }
                guard payload != "[DONE]" else { return }
                guard let json = JSONValue(parsing: Data(payload.utf8)) else {
                    throw LanguageModelError(.unparseableAnswer, provider: provider, model: model, detail: "an event of the stream is not JSON")
                }
                let chunk: StreamChunk
                do {
                    chunk = try format.chunk(json)
                } catch let error as WireFormatError {
                    throw LanguageModelError(.unparseableAnswer, provider: provider, model: model, detail: scrub(error.reason))
                }
                if let piece = chunk.text, !piece.isEmpty {
                    answer += piece
                    text(piece)
                }
                usage = Self.merged(usage, chunk.usage)
                answeringModel = chunk.model ?? answeringModel
                finishReason = chunk.finishReason ?? finishReason
            }
        } catch let failure as VendorFailure {
            throw LanguageModelError(failure.kind, provider: provider, model: model, detail: failure.detail)
        }
        if finishReason == "length" {
            throw LanguageModelError(.unparseableAnswer, provider: provider, model: model, detail: "the answer was cut off at the output token limit")
        }
        guard finishReason != nil else {
            throw LanguageModelError(.unparseableAnswer, provider: provider, model: model, detail: "the stream ended before the answer did")
        }
        let counted = usage ?? TokenUsage(inputTokens: TokenCount.approximate(request), outputTokens: TokenCount.approximate(answer))
        return CompletionResponse(text: answer, usage: counted, model: answeringModel ?? model, provider: provider)
    }

    /// Usage reported in parts (Anthropic: input tokens at the start, output at the end): a
    /// count a later event leaves at zero keeps its earlier value.
    static func merged(_ earlier: TokenUsage?, _ later: TokenUsage?) -> TokenUsage? {
        guard let later else { return earlier }
        guard let earlier else { return later }
        return TokenUsage(inputTokens: later.inputTokens > 0 ? later.inputTokens : earlier.inputTokens,
                          outputTokens: later.outputTokens > 0 ? later.outputTokens : earlier.outputTokens)
    }

    /// The HTTP request carrying `body` (to `url`, default the format's), and a logger naming
    /// the model; refuses a missing key.
    private func prepare(_ body: JSONValue, url: String? = nil) throws -> (VendorRequest, Logger) {
        if provider.requiresKey, key?.value.isEmpty ?? true {
            throw LanguageModelError(.missingKey, provider: provider, model: model)
        }
        var logger = logger
        logger[metadataKey: "provider"] = "\(provider.rawValue)"
        logger[metadataKey: "model"] = "\(model)"
        var headers = format.headers(key: key)
        // llama.cpp closes idle keep-alive connections; a POST sent on a pooled one it has just
        // closed fails and cannot be retried safely. A new loopback connection costs nothing.
        if provider == .local { headers.append(("connection", "close")) }
        let outgoing = VendorRequest(url: url ?? format.url(base: baseURL, model: model), headers: headers, body: body.canonicalData)
        return (outgoing, logger)
    }

    private func parse(_ data: Data, request: CompletionRequest) throws -> CompletionResponse {
        guard let reply = JSONValue(parsing: data) else {
            throw LanguageModelError(.unparseableAnswer, provider: provider, model: model, detail: "the reply is not JSON")
        }
        do {
            let parsed = try format.parse(reply, request: request)
            return CompletionResponse(text: parsed.text, usage: parsed.usage, model: parsed.model ?? model, provider: provider)
        } catch {
            throw LanguageModelError(.unparseableAnswer, provider: provider, model: model, detail: scrub(error.reason))
        }
    }

    /// Removes the key from text that came from outside, so it can be logged or shown.
    func scrub(_ text: String) -> String { transport.scrub(text) }
}
