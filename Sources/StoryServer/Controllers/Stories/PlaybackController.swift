import Foundation
import Jobs
import StoryModel
import StoryWorkflows
import Vapor

/// `/api/stories/:id/segments…`, `…/render`, `…/audio`: the lines the player reads, each
/// line's audio, a line's speaker, and the whole book's export.
struct PlaybackController: Sendable {
    let config: ServerConfig

    func register(routes: any RoutesBuilder) {
        let story = routes.grouped("stories", ":id")
        story.get("segments", use: segments)
        story.get("chapters", use: chapters)
        story.patch("segments", ":n", use: reassignSegment)
        story.get("segments", ":n", "audio", use: segmentAudio)
        story.post("render", use: render)
        story.get("render", "estimate", use: renderEstimate)
        story.get("audio", use: download)
    }

    struct PlaybackLine: Encodable {
        var index: Int
        var segment: Int
        var start: Int
        var end: Int
        var kind: SegmentKind
        var speaker: String?
        var speaker_name: String
        var chapter: Int?
        var voice: String
        var text: String
        var pause_before: Double
        var cached: Bool
        var audio_url: String
    }

    struct PlaybackList: Encodable {
        var total: Int
        var from: Int
        var segments: [PlaybackLine]
    }

    struct ChapterLine: Encodable {
        var index: Int
        var title: String
        var first_line: Int
        var line_count: Int
    }

    struct ChapterList: Encodable { var chapters: [ChapterLine] }
    struct SpeakerChange: Decodable { var speaker: String? }
    struct RenderRequest: Decodable { var format: String? }

    /// The lines in reading order, with their speakers and audio URLs: what the player plays
    /// and highlights. `?from=&count=` asks for a page of them (a novel has thousands); each
    /// line's audio renders on first request and is cached.
    @Sendable
    func segments(_ request: Request) async throws -> Response {
        let stories = try request.stories(config)
        let range = try pageRange(request)
        let page = try await stories.playbackLines(try await request.story(stories), range: range)
        let id = page.story.uuidString.lowercased()
        return try Response.json(PlaybackList(total: page.total, from: page.lines.first?.index ?? range?.lowerBound ?? 0, segments: zip(page.lines, page.texts).map { line, text in
            PlaybackLine(
                index: line.index, segment: line.segment, start: line.start, end: line.end, kind: line.kind, speaker: line.speaker,
                speaker_name: line.speaker.flatMap { page.speakerNames[$0] } ?? (line.kind == .dialogue ? "Unattributed" : "Narrator"),
                chapter: page.chapters.chapter(containing: line.start),
                voice: line.voice.voice, text: text, pause_before: line.pauseBefore, cached: line.cached,
                audio_url: "/api/stories/\(id)/segments/\(line.index)/audio")
        }))
    }

    /// The story's chapters with the line each starts at, for a chapter list and the player.
    @Sendable
    func chapters(_ request: Request) async throws -> Response {
        let stories = try request.stories(config)
        let page = try await stories.playbackLines(try await request.story(stories), range: 0..<0)
        return try Response.json(ChapterList(chapters: page.chapters.entries.map {
            ChapterLine(index: $0.index, title: $0.title, first_line: $0.firstLine, line_count: $0.lineCount)
        }))
    }

    /// `?from=&count=` as a range of line indices; nil (every line) without them.
    private func pageRange(_ request: Request) throws -> Range<Int>? {
        let from = try optionalInt(request, "from"), count = try optionalInt(request, "count")
        guard from != nil || count != nil else { return nil }
        let start = from ?? 0
        return start..<(start + min(count ?? Int(Int32.max), Int(Int32.max)))
    }

    private func optionalInt(_ request: Request, _ name: String) throws -> Int? {
        guard let raw = request.query[String.self, at: name] else { return nil }
        guard let value = Int(raw), value >= 0, value <= Int32.max else {
            throw APIError.badRequest("Query parameter '\(name)' must be a whole number from 0.", code: "invalid_query")
        }
        return value
    }

    /// Gives line `:n`'s analysis segment another speaker (`null` makes it narration).
    @Sendable
    func reassignSegment(_ request: Request) async throws -> Response {
        let stories = try request.stories(config)
        let story = try await request.story(stories)
        let change = try request.decodeJSON(SpeakerChange.self)
        let saved = try await stories.reassignLine(story, line: try lineNumber(request), to: change.speaker)
        return try await PerformanceReply.response(saved, stories)
    }

    @Sendable
    func segmentAudio(_ request: Request) async throws -> Response {
        let stories = try request.stories(config)
        let story = try await request.story(stories)
        let line = try lineNumber(request)
        switch request.query[String.self, at: "format"] ?? "wav" {
        case "wav":
            return Response.wav(try await stories.lineAudio(story, line: line))
        case "opus":
            let response = Response(status: .ok, body: .init(data: try await stories.compressedLineAudio(story, line: line)))
            response.headers.contentType = HTTPMediaType(type: "audio", subType: "ogg", parameters: ["codecs": "opus"])
            return response
        default:
            throw APIError.badRequest("Ask for format 'wav' or 'opus'.", code: "invalid_query")
        }
    }

    struct EstimateList: Encodable {
        struct Entry: Encodable {
            var voices: CastingPreference
            var seconds: Double
            var audio_seconds: Double
            var lines: Int
            var cached_lines: Int
            var engines: [String: Int]
        }
        var chosen: CastingPreference
        var estimates: [Entry]
    }

    /// How long an export would take with the fastest voices and with the best (an estimate
    /// from each engine's speed here), before the user starts one.
    @Sendable
    func renderEstimate(_ request: Request) async throws -> Response {
        let stories = try request.stories(config)
        let (chosen, estimates) = try await stories.renderEstimates(try await request.story(stories))
        return try Response.json(EstimateList(chosen: chosen, estimates: estimates.map {
            EstimateList.Entry(voices: $0.preference, seconds: ($0.totalSeconds * 10).rounded() / 10, audio_seconds: ($0.audioSeconds * 10).rounded() / 10,
                               lines: $0.lines, cached_lines: $0.cachedLines, engines: $0.linesByEngine)
        }))
    }

    @Sendable
    func render(_ request: Request) async throws -> Response {
        let stories = try request.stories(config)
        let story = try await request.story(stories)
        let body = try request.decodeJSON(RenderRequest.self)
        return try Response.json(JobSnapshot(try await stories.export(story, format: body.format ?? "m4b")), status: .accepted)
    }

    @Sendable
    func download(_ request: Request) async throws -> Response {
        let stories = try request.stories(config)
        let story = try await request.story(stories)
        let (key, format) = try stories.exported(story)
        return try await Response.artifact(
            key, in: config.artifacts,
            mediaType: format == "mp3" ? HTTPMediaType(type: "audio", subType: "mpeg") : HTTPMediaType(type: "audio", subType: "mp4"),
            filename: "\(Self.filename(story.title)).\(format)", for: request)
    }

    private func lineNumber(_ request: Request) throws -> Int {
        guard let n = request.parameters.get("n").flatMap(Int.init), n >= 0 else { throw APIError.notFound("segment") }
        return n
    }

    /// A title as a safe download name.
    static func filename(_ title: String) -> String {
        let cleaned = title.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || $0 == " " || $0 == "-" }
        let name = String(String.UnicodeScalarView(cleaned)).trimmingCharacters(in: .whitespaces)
        return name.isEmpty ? "story" : String(name.prefix(80))
    }
}
