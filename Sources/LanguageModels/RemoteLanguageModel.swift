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
        retry: RetryPolicy = .standard, limiter: ConcurrencyLimiter, httpClient: HTTPClient = .shared,
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
        case .anthropic: AnthropicMessagesFormat()
        case .gemini: GeminiGenerateContentFormat()
        }
        self.transport = VendorTransport(key: key, timeout: timeout, retry: retry, limiter: limiter, httpClient: httpClient, sleep: sleep)
        self.logger = logger
    }

    /// `openai:gpt-4o-mini at https://api.openai.com/v1` — never the key.
    public var description: String { "\(provider.rawValue):\(model) at \(baseURL)" }

    public func complete(_ request: CompletionRequest) async throws -> CompletionResponse {
        if provider.requiresKey, key?.value.isEmpty ?? true {
            throw LanguageModelError(.missingKey, provider: provider, model: model)
        }
        var logger = logger
        logger[metadataKey: "provider"] = "\(provider.rawValue)"
        logger[metadataKey: "model"] = "\(model)"
        let outgoing = VendorRequest(
            url: format.url(base: baseURL, model: model), headers: format.headers(key: key),
            body: format.body(for: request, model: model).canonicalData
        )
        let format = format
        do {
            let reply = try await transport.send(outgoing, logger: logger) { JSONValue(parsing: $0).flatMap(format.errorMessage) }
            return try parse(reply.body, request: request)
        } catch let failure as VendorFailure {
            throw LanguageModelError(failure.kind, provider: provider, model: model, detail: failure.detail)
        }
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
