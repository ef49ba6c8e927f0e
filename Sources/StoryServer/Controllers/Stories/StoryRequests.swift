import Foundation
import StoryModel
import Persistence
import StoryWorkflows
import Vapor

extension Request {
    /// The stories use cases for the signed-in user.
    func stories(_ config: ServerConfig) throws -> Stories {
        Stories(
            database: db, dataDirectory: config.dataDirectory, narration: config.narration, models: config.models,
            plans: config.plans, ownerID: try requireUser().id)
    }

    /// The story in the `:id` parameter, if the signed-in user has it.
    func story(_ stories: Stories) async throws -> StoryRecord {
        try await stories.story(try uuidParameter("id", what: "story"))
    }
}

/// A story's analysis, cast, voice choices and latest export, as every analysis and cast
/// endpoint answers.
struct PerformanceReply: Encodable {
    var state: AnalysisState
    var analysis: StoryAnalysis?
    var cast: Cast?
    var overrides: CastOverrides
    var render: RenderInfo?

    struct RenderInfo: Encodable {
        var format: String
        var duration_seconds: Double
        var rendered_at: Date
        var url: String
    }

    static func response(_ story: StoryRecord, _ stories: Stories, status: HTTPResponseStatus = .ok) async throws -> Response {
        let (content, cast) = try await stories.performance(story)
        let id = content.id.uuidString.lowercased()
        let reply = PerformanceReply(
            state: story.analysisState, analysis: content.analysis, cast: cast, overrides: content.overrides,
            render: content.render.map {
                RenderInfo(format: $0.format, duration_seconds: $0.durationSeconds, rendered_at: $0.renderedAt, url: "/api/stories/\(id)/audio")
            })
        return try Response.json(reply, status: status)
    }
}
