import Foundation
import LanguageModels
import Logging
import TestSupport
import VendorHTTP

/// A key that must never show up anywhere but a request header.
let testKey = "sk-loopback-7f3a9c21d4e8b6051234"

func makeModel(
    _ provider: Provider, server: LoopbackServer, model: String = "test-model", key: String? = testKey,
    timeout: Double = loopbackTimeout, retry: RetryPolicy = RetryPolicy(maxAttempts: 3, baseDelay: 0.01, maxDelay: 0.05),
    limiter: ConcurrencyLimiter = ConcurrencyLimiter(limit: 4), logger: Logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
) -> RemoteLanguageModel {
    let base = provider == .openai || provider == .openaiCompatible ? server.baseURL + "/v1" : server.baseURL
    return RemoteLanguageModel(
        provider: provider, model: model, baseURL: base, key: key.map(Secret.init), timeout: timeout,
        retry: retry, limiter: limiter, logger: logger
    )
}

let answerSchema = ResponseSchema(name: "answer", schema: [
    "type": "object",
    "properties": ["word": ["type": "string"], "note": ["type": ["string", "null"]]],
    "required": ["word", "note"],
    "additionalProperties": false,
])

let structuredRequest = CompletionRequest(system: "You answer in one word.", user: "Say hello.", schema: answerSchema, temperature: 0.2, maxOutputTokens: 64)

func temporaryDirectory() -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("storyvoice-llm-tests-\(UUID().uuidString)", isDirectory: true)
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A handler answering every request with `answer` in the provider's format.
func answering(_ provider: Provider, _ answer: String) -> LoopbackServer.Handler {
    { request in VendorWire.success(provider, answer: answer, for: request) }
}
