import Foundation
import LanguageModels
import Testing
import TestSupport
import VendorHTTP

@Suite("Errors and retries")
struct ErrorTests {
    static let providers: [Provider] = [.openai, .anthropic, .gemini]

    @Test("HTTP statuses map to actionable errors", arguments: providers)
    func statusMapping(provider: Provider) async throws {
        let cases: [(Int, LanguageModelError.Kind, String)] = [
            (401, .invalidKey, "key was rejected"),
            (403, .noAccess(status: 403), "has no access to “test-model”"),
            (404, .noAccess(status: 404), "has no model “test-model”"),
            (400, .requestRejected(status: 400), "refused the request (HTTP 400)"),
        ]
        for (status, kind, phrase) in cases {
            try await LoopbackServer.withServer(handler: { _ in VendorWire.error(provider, status: status, message: "nope") }) { server in
                let error = try await #require(throws: LanguageModelError.self) {
                    try await makeModel(provider, server: server).complete(structuredRequest)
                }
                #expect(error.kind == kind)
                #expect(error.description.contains(phrase))
                #expect(error.description.contains(provider.displayName))
                // Not transient: sent once, never retried.
                #expect(server.requests.count == 1)
            }
        }
    }

    @Test("Gemini's answer to a bad key (400 INVALID_ARGUMENT, reason API_KEY_INVALID) is a rejected key")
    func geminiInvalidKey() async throws {
        try await LoopbackServer.withServer(handler: { _ in VendorWire.geminiInvalidKey() }) { server in
            let error = try await #require(throws: LanguageModelError.self) {
                try await makeModel(.gemini, server: server).complete(structuredRequest)
            }
            #expect(error.kind == .invalidKey)
            #expect(error.description.contains("key was rejected") && error.description.contains("GEMINI_API_KEY"))
            #expect(server.requests.count == 1)
        }
    }

    @Test("5xx and 429 are retried up to the limit, then reported", arguments: providers)
    func transientExhausted(provider: Provider) async throws {
        try await LoopbackServer.withServer(handler: { _ in VendorWire.error(provider, status: 503, message: "overloaded") }) { server in
            let error = try await #require(throws: LanguageModelError.self) {
                try await makeModel(provider, server: server).complete(structuredRequest)
            }
            #expect(error.kind == .providerError(status: 503))
            #expect(server.requests.count == 3)
        }
        try await LoopbackServer.withServer(handler: { _ in VendorWire.error(provider, status: 429, message: "slow down", retryAfter: "0") }) { server in
            let error = try await #require(throws: LanguageModelError.self) {
                try await makeModel(provider, server: server).complete(structuredRequest)
            }
            #expect(error.kind == .rateLimited(retryAfterSeconds: 0))
            #expect(error.description.contains("rate-limited"))
            #expect(server.requests.count == 3)
        }
    }

    @Test("A transient failure followed by success succeeds")
    func recovers() async throws {
        try await LoopbackServer.withServer(handler: answering(.openai, #"{"word":"ok","note":null}"#)) { server in
            server.enqueue(
                VendorWire.error(.openai, status: 429, message: "slow down", retryAfter: "0"),
                VendorWire.error(.openai, status: 500, message: "oops")
            )
            let response = try await makeModel(.openai, server: server).complete(structuredRequest)
            #expect(response.json?["word"] == "ok")
            #expect(server.requests.count == 3)
        }
    }

    @Test("Waits honour Retry-After, else back off exponentially with jitter")
    func waits() async throws {
        try await LoopbackServer.withServer(handler: answering(.openai, #"{"word":"ok","note":null}"#)) { server in
            server.enqueue(
                VendorWire.error(.openai, status: 429, message: "slow down", retryAfter: "1.5"),
                VendorWire.error(.openai, status: 503, message: "busy"),
                VendorWire.error(.openai, status: 502, message: "busy")
            )
            let waits = LockedValue<[Double]>([])
            let model = RemoteLanguageModel(
                provider: .openai, model: "gpt-4o-mini", baseURL: server.baseURL + "/v1", key: Secret(testKey),
                // A loaded machine's loopback can be slow to answer; a timeout would be retried
                // with a backoff and take the place of the Retry-After wait this test reads.
                timeout: loopbackTimeout,
                retry: RetryPolicy(maxAttempts: 4, baseDelay: 2, maxDelay: 3), limiter: ConcurrencyLimiter(limit: 1),
                sleep: { seconds in waits.withLock { $0.append(seconds) } }
            )
            let response = try await model.complete(structuredRequest)
            #expect(response.json?["word"] == "ok")
            let recorded = waits.value
            #expect(recorded.count == 3)
            #expect(recorded.first == 1.5)
            // After attempt 2 the ceiling is 4 s capped at 3: between 1.5 and 3 (half fixed, half jitter).
            #expect((1.5...3).contains(recorded[1]))
            #expect((1.5...3).contains(recorded[2]))
        }
    }

    @Test("Retry-After is honoured: a wait longer than the policy allows is not retried")
    func retryAfterHonoured() async throws {
        try await LoopbackServer.withServer(handler: { _ in VendorWire.error(.anthropic, status: 429, message: "later", retryAfter: "120") }) { server in
            let model = makeModel(.anthropic, server: server, retry: RetryPolicy(maxAttempts: 3, baseDelay: 0.01, maxRetryAfter: 30))
            let error = try await #require(throws: LanguageModelError.self) { try await model.complete(structuredRequest) }
            #expect(error.kind == .rateLimited(retryAfterSeconds: 120))
            #expect(error.description.contains("asked to wait 120 s"))
            #expect(server.requests.count == 1)
        }
        // An HTTP date in the past means "now": retried at once.
        try await LoopbackServer.withServer(handler: answering(.anthropic, #"{"word":"ok","note":null}"#)) { server in
            server.enqueue(VendorWire.error(.anthropic, status: 429, message: "later", retryAfter: "Wed, 21 Oct 2015 07:28:00 GMT"))
            let model = makeModel(.anthropic, server: server, retry: RetryPolicy(maxAttempts: 2, baseDelay: 60, maxRetryAfter: 30))
            // With a 60 s backoff, only the header's zero wait lets this finish promptly.
            let response = try await model.complete(structuredRequest)
            #expect(response.json?["word"] == "ok")
            #expect(server.requests.count == 2)
        }
    }

    @Test("A reply slower than the timeout is a timeout, retried, then reported", arguments: providers)
    func timeout(provider: Provider) async throws {
        try await LoopbackServer.withServer(handler: { request in
            VendorWire.success(provider, answer: #"{"word":"late","note":null}"#, for: request, delay: .seconds(3))
        }) { server in
            // The retry is counted by the wait before it, not by the server: under a loaded test run
            // the second 0.3 s attempt can time out before the starved server has read its request.
            let waits = LockedValue<[Double]>([])
            let model = RemoteLanguageModel(
                provider: provider, model: "test-model", baseURL: server.baseURL, key: Secret(testKey), timeout: 0.3,
                retry: RetryPolicy(maxAttempts: 2, baseDelay: 0.01), limiter: ConcurrencyLimiter(limit: 4),
                sleep: { seconds in waits.withLock { $0.append(seconds) } }
            )
            let error = try await #require(throws: LanguageModelError.self) { try await model.complete(structuredRequest) }
            guard case .timeout = error.kind else {
                Issue.record("expected a timeout, got \(error.kind)")
                return
            }
            #expect(error.description.contains("did not answer within 1 s"))
            #expect(waits.value.count == 1)
            #expect(server.requests.count >= 1)
        }
    }

    @Test("A refused connection says the server could not be reached")
    func connectionRefused() async throws {
        // Port 1 (tcpmux): nothing listens there, and no test server is ever given it. A port
        // that was just free could be handed to another test's loopback server meanwhile, which
        // then answered this request with the reply that test had queued for its own.
        let model = RemoteLanguageModel(
            provider: .openaiCompatible, model: "llama3", baseURL: "http://127.0.0.1:1/v1", key: nil, timeout: 2,
            retry: RetryPolicy(maxAttempts: 1), limiter: ConcurrencyLimiter(limit: 1)
        )
        let error = try await #require(throws: LanguageModelError.self) { try await model.complete(structuredRequest) }
        #expect(error.kind == .unreachable || error.kind == .timeout(seconds: 2))
        #expect(error.description.contains("could not reach") || error.description.contains("did not answer"))
    }

    @Test("A cut-off reply body is an unreadable answer", arguments: providers)
    func truncatedBody(provider: Provider) async throws {
        try await LoopbackServer.withServer(handler: { request in
            VendorWire.truncated(provider, answer: #"{"word":"hello","note":null}"#, for: request)
        }) { server in
            let error = try await #require(throws: LanguageModelError.self) {
                try await makeModel(provider, server: server).complete(structuredRequest)
            }
            #expect(error.kind == .unparseableAnswer)
            #expect(error.description.contains("could not be read"))
        }
    }

    @Test("An Anthropic answer without the forced tool is unreadable; other vendors pass the text on")
    func invalidJSONAnswer() async throws {
        try await LoopbackServer.withServer(handler: answering(.anthropic, "Sure! The word is hello.")) { server in
            let error = try await #require(throws: LanguageModelError.self) {
                try await makeModel(.anthropic, server: server).complete(structuredRequest)
            }
            #expect(error.kind == .unparseableAnswer)
        }
        try await LoopbackServer.withServer(handler: answering(.openai, "Sure! The word is hello.")) { server in
            let response = try await makeModel(.openai, server: server).complete(structuredRequest)
            #expect(response.json == nil)
        }
    }

    @Test("A missing key is reported before anything is sent")
    func missingKey() async throws {
        try await LoopbackServer.withServer(handler: answering(.openai, "{}")) { server in
            let factory = LanguageModelFactory(environment: ["OPENAI_BASE_URL": server.baseURL + "/v1"])
            let error = try #require(throws: LanguageModelError.self) { try factory.makeModel(ModelSpec(provider: .openai, model: "gpt-4o-mini")) }
            #expect(error.kind == .missingKey)
            #expect(error.description == "no OpenAI API key is set — add one in Settings or set OPENAI_API_KEY")
            let keyless = makeModel(.openai, server: server, key: nil)
            await #expect(throws: LanguageModelError.self) { try await keyless.complete(structuredRequest) }
            #expect(server.requests.isEmpty)
        }
    }

    @Test("Errors name the step and the story")
    func stepAndStory() {
        let error = LanguageModelError(.invalidKey, provider: .openai, model: "gpt-4o-mini")
        #expect(error.message(step: "Character extraction", story: "Emma") == "Character extraction failed for Emma: the OpenAI key was rejected — update it in Settings or OPENAI_API_KEY")
    }

    @Test("A request refused for its length says so, whoever refused it; other refusals do not")
    func tooLong() {
        func refused(_ status: Int, _ detail: String, _ provider: Provider = .openai) -> LanguageModelError {
            LanguageModelError(.requestRejected(status: status), provider: provider, model: "m", detail: detail)
        }
        #expect(refused(400, "the request needs about 4137 tokens (prompt and answer) and the local model reads at most 4096; shorten it", .local).isTooLong)
        #expect(refused(400, "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.").isTooLong)
        #expect(refused(400, "prompt is too long: 210000 tokens > 200000 maximum", .anthropic).isTooLong)
        #expect(refused(413, "Request Entity Too Large").isTooLong)
        #expect(!refused(400, "Invalid schema for response_format 'labels'").isTooLong)
        #expect(!LanguageModelError(.invalidKey, provider: .openai, model: "m").isTooLong)
    }
}
