import Analysis
import Foundation
import Jobs
import LanguageModels
import Platform
import StoryWorkflows
import Vapor

/// `/api/stories/:id/analyze`, `…/analysis`, `…/analyze/estimate`, `…/cast/suggest`: the
/// analysis, what a model pass would cost, and the jobs that run the analysis and voice
/// suggestions.
struct AnalysisController: Sendable {
    let config: ServerConfig

    func register(routes: any RoutesBuilder) {
        let story = routes.grouped("stories", ":id")
        story.post("analyze", use: analyze)
        story.post("analyze", "estimate", use: estimate)
        story.post("cast", "suggest", use: suggestVoices)
        story.get("analysis", use: analysis)
    }

    /// The user's model for analysis or voice suggestions, and for analysis the mode.
    struct ModelRequest: Decodable { var llm: String?; var mode: LabellingMode? }

    struct ModeEstimate: Content {
        var mode: LabellingMode
        var dialogue_lines: Int
        var lines_sent: Int
        var requests: Int
        var input_tokens: Int
        var output_tokens: Int
        var cost_usd: Double?
        /// For the model on this machine: roughly how long the run takes.
        var local_seconds: Double?
    }

    struct EstimateReply: Content {
        var model: String
        var estimates: [ModeEstimate]
    }

    /// Enqueues analysis → 202 with the job. Offline analysis; with `{"llm":
    /// "openai:gpt-4o-mini", "mode": "hybrid"}` the user's model then labels the lines the
    /// offline analysis is unsure of (or all of them in `full`).
    @Sendable
    func analyze(_ request: Request) async throws -> Response {
        let stories = try request.stories(config)
        let story = try await request.story(stories)
        let hasBody = request.body.data.map { $0.readableBytes > 0 } == true
        let choice = hasBody ? try request.decodeJSON(ModelRequest.self) : ModelRequest()
        let job = try await stories.analyze(story, llm: choice.llm, mode: choice.mode)
        return try Response.json(JobSnapshot(job), status: .accepted)
    }

    /// What each mode would send to the model and cost, before anything is sent (no key needed).
    @Sendable
    func estimate(_ request: Request) async throws -> Response {
        let stories = try request.stories(config)
        let story = try await request.story(stories)
        let llm = try Self.requireModel(try request.decodeJSON(ModelRequest.self), "Say which model to price")
        let (model, estimates) = try stories.estimates(story, llm: llm)
        let local = try ModelAccess.spec(llm).provider.isLocal
        return try Response.json(EstimateReply(model: model, estimates: estimates.map { mode, estimate in
            ModeEstimate(mode: mode, dialogue_lines: estimate.dialogueSegments, lines_sent: estimate.spansSent, requests: estimate.requests,
                         input_tokens: estimate.inputTokens, output_tokens: estimate.outputTokens, cost_usd: estimate.cost,
                         local_seconds: local ? LocalModelSpeed.seconds(inputTokens: estimate.inputTokens, outputTokens: estimate.outputTokens) : nil)
        }))
    }

    /// "Suggest voices with AI": a job in which the user's model picks voices for the characters
    /// the user has not cast themselves.
    @Sendable
    func suggestVoices(_ request: Request) async throws -> Response {
        let stories = try request.stories(config)
        let story = try await request.story(stories)
        let llm = try Self.requireModel(try request.decodeJSON(ModelRequest.self), "Choose a model")
        return try Response.json(JobSnapshot(try await stories.suggestVoices(story, llm: llm)), status: .accepted)
    }

    /// `?segments=false` leaves the analysis's segments out (the story page pages lines instead).
    @Sendable
    func analysis(_ request: Request) async throws -> Response {
        let stories = try request.stories(config)
        return try await PerformanceReply.response(
            try await request.story(stories), stories, segments: try request.booleanQuery("segments", default: true))
    }

    private static func requireModel(_ choice: ModelRequest, _ ask: String) throws -> String {
        guard let llm = choice.llm else {
            throw APIError(status: .unprocessableEntity, code: "invalid_model", message: "\(ask): {\"llm\": \"openai:gpt-4o-mini\"}.")
        }
        return llm
    }
}
