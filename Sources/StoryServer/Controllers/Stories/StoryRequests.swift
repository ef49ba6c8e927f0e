import Foundation
import Persistence
import Platform
import StoryModel
import StoryWorkflows
import Vapor

extension Request {
    /// The stories use cases for the signed-in user.
    func stories(_ config: ServerConfig) throws -> Stories {
        var stories = Stories(user: try user(config), plans: config.plans)
        stories.ahead = config.ahead
        stories.expectedVersion = StoryVersionTag.expected(ifMatch: headers[.ifMatch])
        return stories
    }

    /// What every product's use cases know of the signed-in user.
    func user(_ config: ServerConfig) throws -> UserContext {
        UserContext(database: appDatabase, dataDirectory: config.dataDirectory, narration: config.narration, models: config.models,
                    artifacts: config.artifacts, ownerID: try requireUser().id)
    }

    /// The story in the `:id` parameter, if the signed-in user has it.
    func story(_ stories: Stories) async throws -> StoryRow {
        try await stories.story(try uuidParameter("id", what: "story"))
    }
}

/// A story's analysis, cast, voice choices and latest export, as every analysis and cast
/// endpoint answers.
struct PerformanceReply: Encodable {
    var state: AnalysisState
    var analysis: AnalysisBody?
    var cast: Cast?
    var overrides: CastOverrides
    var also_changed: [VoiceChange]?
    var render: RenderInfo?

    /// Another role's voice that changed with the one the user chose.
    struct VoiceChange: Encodable, Equatable {
        var role: String
        var name: String
        var from: String
        var to: String

        /// The roles other than `role` whose voice differs between `before` and `after`.
        static func between(_ before: Cast?, _ after: Cast?, except role: String) -> [VoiceChange] {
            guard let before, let after else { return [] }
            var changes: [VoiceChange] = []
            if role != "narrator", before.narrator.voice != after.narrator.voice {
                changes.append(VoiceChange(role: "narrator", name: "Narrator", from: before.narrator.voice, to: after.narrator.voice))
            }
            for (id, was) in before.characters.sorted(by: { $0.key < $1.key }) where id != role {
                guard let now = after.characters[id], now.voice != was.voice else { continue }
                changes.append(VoiceChange(role: id, name: now.name ?? id, from: was.voice, to: now.voice))
            }
            return changes
        }
    }

    /// The analysis, optionally without its segments: a page that lists lines by range
    /// (`/segments?from=&count=`) need not download a novel's thousands of them again.
    struct AnalysisBody: Encodable {
        var analysis: StoryAnalysis
        var includesSegments: Bool

        enum CodingKeys: String, CodingKey { case title, author, characters, chapters, segments }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(analysis.title, forKey: .title)
            try container.encode(analysis.author, forKey: .author)
            try container.encode(analysis.characters, forKey: .characters)
            try container.encode(analysis.chapters, forKey: .chapters)
            if includesSegments { try container.encode(analysis.segments, forKey: .segments) }
        }
    }

    struct RenderInfo: Encodable {
        var format: String
        var duration_seconds: Double
        var rendered_at: Date
        var url: String
    }

    /// The reply for `story`; `changedFrom` (the cast before a voice change of `role`) adds
    /// `also_changed`; `segments: false` leaves the analysis's segments out.
    static func response(
        _ story: StoryRow, _ stories: Stories, status: HTTPResponseStatus = .ok, changedFrom before: (cast: Cast?, role: String)? = nil,
        segments: Bool = true
    ) async throws -> Response {
        let (content, cast) = try await stories.performance(story)
        let id = content.id.uuidString.lowercased()
        let reply = PerformanceReply(
            state: story.analysisState, analysis: content.analysis.map { AnalysisBody(analysis: $0, includesSegments: segments) }, cast: cast, overrides: content.overrides,
            also_changed: before.map { VoiceChange.between($0.cast, cast, except: $0.role) },
            render: content.render.map {
                RenderInfo(format: $0.format, duration_seconds: $0.durationSeconds, rendered_at: $0.renderedAt, url: "/api/stories/\(id)/audio")
            })
        let response = try Response.json(reply, status: status)
        response.headers.replaceOrAdd(name: .eTag, value: StoryVersionTag.tag(story.version))
        return response
    }
}

/// A story's version as an entity tag: `ETag` on what a story's page reads, `If-Match` on its
/// edits (RFC 9110 §13.1.1), so a client can refuse to overwrite what another tab changed.
enum StoryVersionTag {
    static func tag(_ version: Int) -> String { "\"\(version)\"" }

    /// The version `If-Match` names: nil when absent or `*` (any version will do); a version no
    /// story has (-1) when it names none of ours, so the edit is refused as RFC 9110 asks.
    static func expected(ifMatch values: [String]) -> Int? {
        let tags = values.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        guard !tags.isEmpty, !tags.contains("*") else { return nil }
        // A weak tag never matches for If-Match (strong comparison); ours are strong.
        for tag in tags where tag.hasPrefix("\"") && tag.hasSuffix("\"") && tag.count >= 2 {
            if let version = Int(tag.dropFirst().dropLast()), version >= 0 { return version }
        }
        return -1
    }
}
