import Foundation
import LanguageModels
import Testing
import TestSupport
import VendorHTTP

@Suite("Cache, ledger, prices, concurrency")
struct CacheAndLimitTests {
    @Test("A cache hit sends no request and costs nothing")
    func cacheHit() async throws {
        try await LoopbackServer.withServer(handler: answering(.openai, #"{"word":"hello","note":null}"#)) { server in
            let directory = temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let ledger = UsageLedger()
            let metered = MeteredModel(makeModel(.openai, server: server, model: "gpt-4o-mini"), cache: try ResponseCache(directory: directory), ledger: ledger)
            let first = try await metered.complete(structuredRequest, step: "test")
            let second = try await metered.complete(structuredRequest, step: "test")
            #expect(server.requests.count == 1)
            #expect(!first.cached)
            #expect(second.cached)
            #expect(second.text == first.text)
            // A different temperature is a different question.
            var warmer = structuredRequest
            warmer.temperature = 0.9
            _ = try await metered.complete(warmer, step: "test")
            #expect(server.requests.count == 2)

            let summary = await ledger.summary
            #expect(summary.requests == 2)
            #expect(summary.cachedRequests == 1)
            #expect(summary.usage == first.usage + first.usage)
            let expected = ModelPrice(input: 0.15, output: 0.60).cost(of: summary.usage)
            #expect(abs((summary.cost ?? -1) - expected) < 1e-12)
        }
    }

    @Test("Cache keys cover provider, model, messages, schema and temperature only")
    func cacheKeys() {
        let base = ResponseCache.key(for: structuredRequest, provider: .openai, model: "a")
        #expect(base == ResponseCache.key(for: structuredRequest, provider: .openai, model: "a"))
        #expect(base != ResponseCache.key(for: structuredRequest, provider: .anthropic, model: "a"))
        #expect(base != ResponseCache.key(for: structuredRequest, provider: .openai, model: "b"))
        var other = structuredRequest
        other.user += " "
        #expect(base != ResponseCache.key(for: other, provider: .openai, model: "a"))
        other = structuredRequest
        other.schema = nil
        #expect(base != ResponseCache.key(for: other, provider: .openai, model: "a"))
        other = structuredRequest
        other.maxOutputTokens = 999
        #expect(base == ResponseCache.key(for: other, provider: .openai, model: "a"))
    }

    @Test("No more requests in flight than the provider's limit")
    func concurrencyLimit() async throws {
        try await LoopbackServer.withServer(handler: { request in
            VendorWire.success(.openai, answer: #"{"word":"x","note":null}"#, for: request, delay: .milliseconds(150))
        }) { server in
            let limiter = ConcurrencyLimiter(limit: 2)
            let model = makeModel(.openai, server: server, limiter: limiter)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        var request = structuredRequest
                        request.user = "Say hello \(index)."
                        _ = try await model.complete(request)
                    }
                }
                try await group.waitForAll()
            }
            #expect(server.requests.count == 8)
            #expect(server.peakInFlight <= 2)
            #expect(await limiter.peak <= 2)
        }
    }

    @Test("Prices: built in, prefix match for dated models, overrides from a file")
    func prices() throws {
        let table = PriceTable.builtIn
        #expect(table.price(provider: .openai, model: "gpt-4o-mini") == ModelPrice(input: 0.15, output: 0.60))
        #expect(table.price(provider: .openai, model: "gpt-4o-mini-2024-07-18") == ModelPrice(input: 0.15, output: 0.60))
        #expect(table.price(provider: .openai, model: "gpt-4o-2024-08-06") == ModelPrice(input: 2.50, output: 10.00))
        #expect(table.price(provider: .anthropic, model: "claude-3-5-haiku-latest") == ModelPrice(input: 0.80, output: 4.00))
        #expect(table.price(provider: .openaiCompatible, model: "llama3") == ModelPrice(input: 0, output: 0))
        #expect(table.price(provider: .openai, model: "some-future-model") == nil)
        #expect(ModelPrice(input: 2, output: 8).cost(of: TokenUsage(inputTokens: 1_000_000, outputTokens: 500_000)) == 6)

        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("prices.json")
        try Data(#"{"openai:gpt-4o-mini": {"input": 1, "output": 2}, "my-model": {"input": 3, "output": 4}}"#.utf8).write(to: file)
        let loaded = try PriceTable.loading(overridesFrom: file)
        #expect(loaded.price(provider: .openai, model: "gpt-4o-mini") == ModelPrice(input: 1, output: 2))
        #expect(loaded.price(provider: .openaiCompatible, model: "my-model") == ModelPrice(input: 3, output: 4))
        #expect(loaded.price(provider: .gemini, model: "gemini-2.0-flash") == ModelPrice(input: 0.10, output: 0.40))

        // The configured table: STORYVOICE_PRICES wins, else a default file when it exists.
        #expect(try PriceTable.configured(environment: [:]) == .builtIn)
        #expect(try PriceTable.configured(environment: [:], defaultFile: directory.appendingPathComponent("absent.json")) == .builtIn)
        #expect(try PriceTable.configured(environment: [:], defaultFile: file) == loaded)
        #expect(try PriceTable.configured(environment: ["STORYVOICE_PRICES": file.path]) == loaded)
        let broken = directory.appendingPathComponent("broken.json")
        try Data(#"{"openai:gpt-4o-mini": 0.15}"#.utf8).write(to: broken)
        let error = try #require(throws: PriceFileError.self) {
            try PriceTable.configured(environment: ["STORYVOICE_PRICES": broken.path], defaultFile: file)
        }
        #expect(error.description.contains(broken.path) && error.description.contains("not a price table"))
        #expect(throws: PriceFileError.self) { try PriceTable.configured(environment: ["STORYVOICE_PRICES": directory.appendingPathComponent("gone.json").path]) }
    }
}
