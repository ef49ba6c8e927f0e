import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1

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
    let timeout: Double
    let retry: RetryPolicy
    let limiter: ConcurrencyLimiter
    let httpClient: HTTPClient
    let logger: Logger
    let sleep: @Sendable (Double) async throws -> Void

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
        self.timeout = timeout
        self.retry = retry
        self.limiter = limiter
        self.httpClient = httpClient
        self.logger = logger
        self.sleep = sleep
    }

    /// `openai:gpt-4o-mini at https://api.openai.com/v1` — never the key.
    public var description: String { "\(provider.rawValue):\(model) at \(baseURL)" }

    public func complete(_ request: CompletionRequest) async throws -> CompletionResponse {
        if provider.requiresKey, key?.value.isEmpty ?? true {
            throw LanguageModelError(.missingKey, provider: provider, model: model)
        }
        let url = format.url(base: baseURL, model: model)
        let body = format.body(for: request, model: model).canonicalData
        var logger = logger
        logger[metadataKey: "provider"] = "\(provider.rawValue)"
        logger[metadataKey: "model"] = "\(model)"

        var attempt = 0
        while true {
            attempt += 1
            logger.debug("sending completion request", metadata: ["attempt": "\(attempt)", "url": "\(url)", "bytes": "\(body.count)"])
            let outcome = await send(url: url, body: body, logger: logger)
            switch outcome {
            case .reply(let status, let retryAfter, let data):
                logger.debug("completion reply", metadata: ["attempt": "\(attempt)", "status": "\(status)", "bytes": "\(data.count)"])
                if status == 200 { return try parse(data, request: request) }
                let error = classify(status: status, retryAfter: retryAfter, data: data)
                guard error.isTransient, attempt < retry.maxAttempts else { throw error }
                if let retryAfter, retryAfter > retry.maxRetryAfter { throw error }
                let wait = retryAfter ?? retry.backoff(afterAttempt: attempt)
                logger.info("retrying after a transient failure", metadata: ["status": "\(status)", "wait_s": "\(wait)"])
                try await sleep(wait)
            case .failed(let error):
                logger.debug("completion request failed", metadata: ["attempt": "\(attempt)", "error": "\(error.description)"])
                // A timed-out request may have been slow by chance; a refused connection will not change.
                guard case .timeout = error.kind, attempt < retry.maxAttempts else { throw error }
                try await sleep(retry.backoff(afterAttempt: attempt))
            }
        }
    }

    private enum Outcome {
        case reply(status: Int, retryAfter: Double?, body: Data)
        case failed(LanguageModelError)
    }

    private func send(url: String, body: Data, logger: Logger) async -> Outcome {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        for header in format.headers(key: key) { request.headers.add(name: header.name, value: header.value) }
        request.body = .bytes(ByteBuffer(bytes: body))
        let prepared = request
        do {
            return try await limiter.withPermit {
                let deadline = NIODeadline.now() + .milliseconds(Int64(timeout * 1000))
                let response = try await httpClient.execute(prepared, deadline: deadline)
                let buffer = try await response.body.collect(upTo: 32 << 20)
                let retryAfter = response.headers.first(name: "retry-after").flatMap { RetryPolicy.retryAfterSeconds($0) }
                return .reply(status: Int(response.status.code), retryAfter: retryAfter, body: Data(buffer.readableBytesView))
            }
        } catch let error as HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .writeTimeout:
                return .failed(LanguageModelError(.timeout(seconds: timeout), provider: provider, model: model))
            case .connectTimeout:
                return .failed(LanguageModelError(.unreachable, provider: provider, model: model, detail: "connection timed out"))
            case .remoteConnectionClosed:
                return .failed(LanguageModelError(.unparseableAnswer, provider: provider, model: model, detail: "the connection closed mid-answer"))
            default:
                return .failed(LanguageModelError(.unreachable, provider: provider, model: model, detail: scrub("\(error)")))
            }
        } catch is CancellationError {
            return .failed(LanguageModelError(.timeout(seconds: timeout), provider: provider, model: model, detail: "cancelled"))
        } catch {
            return .failed(LanguageModelError(.unreachable, provider: provider, model: model, detail: scrub(Self.describe(error))))
        }
    }

    private static func describe(_ error: any Error) -> String {
        let text = "\(error)"
        if text.contains("connectionRefused") || text.contains("ECONNREFUSED") || text.contains("Connection refused") {
            return "connection refused"
        }
        return text
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

    private func classify(status: Int, retryAfter: Double?, data: Data) -> LanguageModelError {
        let detail = JSONValue(parsing: data).flatMap(format.errorMessage).map(scrub)
        let kind: LanguageModelError.Kind = switch status {
        case 401: .invalidKey
        case 403, 404: .noAccess(status: status)
        case 429: .rateLimited(retryAfterSeconds: retryAfter)
        case 500...599: .providerError(status: status)
        default: .requestRejected(status: status)
        }
        return LanguageModelError(kind, provider: provider, model: model, detail: detail)
    }

    /// Removes the key (and anything that looks like a bearer token) from text that came from
    /// outside, so it can be logged or shown. Some vendors echo part of a rejected key.
    func scrub(_ text: String) -> String {
        var text = String(text.prefix(500))
        if let key = key?.value, key.count >= 4 {
            text = text.replacingOccurrences(of: key, with: "<redacted>")
            // Vendors sometimes echo a shortened key ("sk-abc***xyz"): drop any 8-character
            // run that also appears in the key.
            let characters = Array(key)
            if characters.count >= 8 {
                for start in 0...(characters.count - 8) {
                    let piece = String(characters[start..<(start + 8)])
                    text = text.replacingOccurrences(of: piece, with: "<redacted>")
                }
            }
        }
        return text
    }
}
