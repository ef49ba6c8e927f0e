import Foundation
import Testing

/// `storyvoice serve` builds its parts through the one bootstrap: the prices an operator sets
/// (`STORYVOICE_PRICES`) are the ones its estimates use (the server once rebuilt its model access
/// after reading them, and priced with the built-in table).
struct ServePricesTests {
    struct Estimates: Decodable {
        struct Estimate: Decodable { var mode: String; var input_tokens: Int; var cost_usd: Double }
        var estimates: [Estimate]
    }
    struct Stories: Decodable { struct Story: Decodable { var id: UUID }; var stories: [Story] }

    @Test func theServersEstimatesUseTheOperatorsPrices() async throws {
        let scratch = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        // A dollar per input token and nothing for output: each estimate costs its input tokens.
        let prices = scratch.appendingPathComponent("prices.json")
        try Data(#"{"openai:gpt-4o-mini": {"input": 1000000, "output": 0}}"#.utf8).write(to: prices)
        let server = ServerProcess(
            dataDirectory: scratch.appendingPathComponent("data"), environment: ["STORYVOICE_ENGINES": "espeak-ng", "STORYVOICE_PRICES": prices.path])
        try await server.start()
        defer { server.kill() }
        let token = try await server.register("reader@example.com")
        let story = try #require(try await server.get("/api/stories", token: token, as: Stories.self).stories.first).id
        let estimates = try await server.post("/api/stories/\(story)/analyze/estimate", json: #"{"llm":"openai:gpt-4o-mini"}"#, token: token, as: Estimates.self)
        #expect(!estimates.estimates.isEmpty)
        for estimate in estimates.estimates where estimate.input_tokens > 0 {
            #expect(abs(estimate.cost_usd - Double(estimate.input_tokens)) < 0.01, "\(estimate.mode): \(estimate.cost_usd) for \(estimate.input_tokens) tokens")
        }
        #expect(estimates.estimates.contains { $0.input_tokens > 0 })
    }
}
