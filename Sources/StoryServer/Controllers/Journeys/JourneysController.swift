import Foundation
import Jobs
import JourneyWorkflows
import Vapor

/// `/api/journeys…`: plan a trip, start its story (told by jobs ahead of the listener), follow
/// it and move its playhead, hear each sentence, export the parts told as an audiobook, delete.
/// docs/journeys.md ("The API") is the contract.
struct JourneysController: Sendable {
    let config: ServerConfig

    /// The fixed paths beside `/api/journeys/{id}` and the methods they take.
    static let fixedPaths: [String: [String]] = ["plan": ["POST"], "prepare": ["POST"], "styles": ["GET", "HEAD"]]

    func register(routes: any RoutesBuilder) {
        let journeys = routes.grouped("journeys")
        journeys.post("plan", use: plan)
        journeys.post("prepare", use: prepare)
        journeys.get("styles", use: styles)
        journeys.post(use: start)
        journeys.get(use: list)
        journeys.get(":id", use: show)
        journeys.delete(":id", use: delete)
        journeys.put(":id", "playhead", use: movePlayhead)
        journeys.get(":id", "parts", ":n", "sentences", ":k", "audio", use: sentenceAudio)
        journeys.post(":id", "export", use: export)
        journeys.get(":id", "audio", use: audiobook)
    }

    struct StyleList: Encodable { var styles: [JourneyStyleView] }
    struct JourneyList: Encodable { var journeys: [JourneySummaryView] }
    struct ExportReply: Encodable { var job: JobSnapshot }

    /// The route, its distance and time, and the parts the story will have; nothing is kept.
    @Sendable
    func plan(_ request: Request) async throws -> Response {
        let body = try request.decodeJSON(JourneyPlanBody.self)
        return try Response.json(try await request.journeys(config).plan(body.request))
    }

    struct PrepareReply: Encodable { var preparing: Bool }

    /// Has the model on this machine write the opening of the journey this body would start,
    /// while the user looks at the plan (202; `preparing` false when nothing is written ahead).
    @Sendable
    func prepare(_ request: Request) async throws -> Response {
        let body = try request.decodeJSON(JourneyStartBody.self)
        // Only this process's tellers can take an opening it prepared.
        let openings = config.inProcessWorkers > 0 ? config.journeyOpenings : nil
        let preparing = try await request.journeys(config).prepare(body.request, openings: openings)
        return try Response.json(PrepareReply(preparing: preparing), status: .accepted)
    }

    @Sendable
    func styles(_ request: Request) async throws -> Response {
        try Response.json(StyleList(styles: JourneyLibrary.styles))
    }

    /// Plans the trip, keeps the journey and starts telling it: 201 with the journey.
    @Sendable
    func start(_ request: Request) async throws -> Response {
        let body = try request.decodeJSON(JourneyStartBody.self)
        return try Response.json(try await request.journeys(config).start(body.request), status: .created)
    }

    @Sendable
    func list(_ request: Request) async throws -> Response {
        try Response.json(JourneyList(journeys: try await request.journeys(config).list()))
    }

    @Sendable
    func show(_ request: Request) async throws -> Response {
        try Response.json(try await request.journeys(config).journey(try request.journeyID()))
    }

    @Sendable
    func delete(_ request: Request) async throws -> Response {
        try await request.journeys(config).delete(try request.journeyID())
        return Response(status: .noContent)
    }

    /// Where the listener is; the parts after it are told next.
    @Sendable
    func movePlayhead(_ request: Request) async throws -> Response {
        let id = try request.journeyID()
        let body = try request.decodeJSON(PlayheadBody.self)
        return try Response.json(try await request.journeys(config).movePlayhead(id, to: body.playhead))
    }

    /// One spoken sentence as WAV. Its URL stays the same when a part is written again, so it is
    /// revalidated (`ETag`) rather than kept.
    @Sendable
    func sentenceAudio(_ request: Request) async throws -> Response {
        let id = try request.journeyID()
        guard let part = request.parameters.get("n").flatMap(Int.init), let sentence = request.parameters.get("k").flatMap(Int.init),
              part >= 1, sentence >= 0 else {
            throw APIError.notFound("sentence")
        }
        let key = try await request.journeys(config).sentenceAudio(id, part: part, sentence: sentence)
        let response = try await Response.artifact(key, in: config.artifacts, mediaType: HTTPMediaType(type: "audio", subType: "wav"), filename: nil, for: request)
        response.headers.replaceOrAdd(name: .cacheControl, value: "no-cache")
        return response
    }

    /// Starts the audiobook of the parts told so far: 202 with its job.
    @Sendable
    func export(_ request: Request) async throws -> Response {
        let job = try await request.journeys(config).export(try request.journeyID())
        return try Response.json(ExportReply(job: JobSnapshot(job)), status: .accepted)
    }

    /// The audiobook (M4B, a chapter per part) as a download, with `Range`.
    @Sendable
    func audiobook(_ request: Request) async throws -> Response {
        let (key, fileName) = try await request.journeys(config).audiobook(try request.journeyID())
        return try await Response.artifact(key, in: config.artifacts, mediaType: HTTPMediaType(type: "audio", subType: "mp4"), filename: fileName, for: request)
    }
}
