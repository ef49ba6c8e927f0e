import Foundation
import Jobs
import Journeys
import LanguageModels
import ObjectStorage
import Persistence
import Platform
import Speech
import StoryModel

/// A signed-in user's journeys: plan a trip, start its story (told by jobs ahead of the
/// listener), follow and steer it with the playhead, replay, download, delete. The server's
/// controllers and the tests call these. Refusals are `JourneyError` (the trip and the style)
/// or `ServiceError` (the rest).
public struct JourneyLibrary: Sendable {
    /// The user's context: database, data directory, narration, model access.
    public var user: UserContext
    public var routing: JourneyRouting
    public var buffer: BufferPolicy
    /// Where the journeys' sentences and audiobooks are kept: the user context's store, else
    /// the data directory.
    public var artifacts: any ArtifactStore
    var now: @Sendable () -> Date

    public init(
        user: UserContext, routing: JourneyRouting, buffer: BufferPolicy = BufferPolicy(), now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.user = user
        self.artifacts = user.artifacts ?? DirectoryStore(root: user.dataDirectory.url)
        self.routing = routing
        self.buffer = buffer
        self.now = now
    }

    var repository: JourneyRepository { JourneyRepository(database: user.database) }
    var ownerID: UUID { user.ownerID }

    public struct PlanRequest: Sendable, Codable {
        public var start: String
        public var end: String
        public var mode: TravelMode

        public init(start: String, end: String, mode: TravelMode = .driving) {
            self.start = start
            self.end = end
            self.mode = mode
        }
    }

    public struct StartRequest: Sendable, Codable {
        public var start: String
        public var end: String
        public var mode: TravelMode
        public var style: String
        public var styleDescription: String?
        public var voice: String?
        public var model: String?

        public init(start: String, end: String, mode: TravelMode = .driving, style: String = "fantasy", styleDescription: String? = nil, voice: String? = nil, model: String? = nil) {
            self.start = start
            self.end = end
            self.mode = mode
            self.style = style
            self.styleDescription = styleDescription
            self.voice = voice
            self.model = model
        }

        enum CodingKeys: String, CodingKey {
            case start, end, mode, style, voice, model
            case styleDescription = "style_description"
        }
    }

    // MARK: Planning and starting

    /// The trip's plan. Meanwhile the model on this machine is started (if it is not running)
    /// and reads the storyteller's instructions into its cache, so that "Tell me a story",
    /// seconds later, waits for neither.
    public func plan(_ request: PlanRequest) async throws -> JourneyPlanView {
        if user.models.factory.local != nil, let model = try? user.models.factory.makeLocalModel() {
            let soon = ModelPriority.due(now().addingTimeInterval(PreparedOpenings.dueAfter))
            Task.detached { _ = try? await model.complete(StoryPrompts.warmUp.with(soon)) }
        }
        return JourneyPlanView(plan: try await routing.plan(from: request.start, to: request.end, mode: request.mode), attribution: routing.attribution)
    }

    public static var styles: [JourneyStyleView] { JourneyStyleView.all }

    /// Has the model on this machine write the opening of the journey `request` would start,
    /// while the user looks at the plan, so that starting it (with the same choices) is heard
    /// at once. Checked as `start` checks. False when nothing is written ahead: another model
    /// (a guess never spends a user's paid tokens), no `openings` (the journeys are told in
    /// another process), or the same opening already on its way.
    public func prepare(_ request: StartRequest, openings: PreparedOpenings?) async throws -> Bool {
        try JourneyPlanner.checkLengths(start: request.start, end: request.end)
        let choices = try await choices(request)
        let (style, voice, narration, model) = (choices.style, choices.voice, choices.narration, choices.model)
        guard model.provider.isLocal, let openings else { return false }
        let planned = try await routing.plan(from: request.start, to: request.end, mode: request.mode)
        // The voice's pace is measured while the model reads the opening's prompt, not after
        // its first sentence (which waits for it).
        let target = planned.wordsPerMinute
        Task.detached { _ = await VoicePaces.shared.paced(voice, target: target, narration: narration) }
        return await openings.prepare(
            owner: ownerID, modelSpec: choices.modelText, voice: voice.voice,
            request: JourneyTeller.openingRequest(plan: planned, style: style).with(.due(now().addingTimeInterval(PreparedOpenings.dueAfter))),
            using: model, announcement: JourneyAnnouncement.text(for: planned, style: style), speak: { text in
                // At the pace the teller will speak in (measured on the first sentence, not before the model starts).
                try await narration.preview(await VoicePaces.shared.paced(voice, target: target, narration: narration), text: text)
            })
    }

    /// The style, voice and model a start request names, each checked: a refusal names what
    /// is wrong before anything is kept.
    private struct Choices {
        var style: StoryStyle
        var voice: VoiceAssignment
        var narration: any NarrationService
        var modelText: String
        var model: any LanguageModel
    }

    private func choices(_ request: StartRequest) async throws -> Choices {
        let style = try StoryStyle(id: request.style, description: request.styleDescription)
        let narration = try await user.userNarration().narration
        let voice = try await CastableVoices.live(request.voice.flatMap { $0.isEmpty ? nil : $0 }, narration: narration)
        let modelText = request.model.flatMap { $0.isEmpty ? nil : $0 } ?? "local"
        do {
            let model = try await user.models.model(try ModelAccess.spec(modelText), userID: ownerID, database: user.database)
            return Choices(style: style, voice: voice, narration: narration, modelText: modelText, model: model)
        } catch let error as LanguageModelError {
            throw ServiceError(.invalid, code: error.kind == .missingKey ? "missing_key" : "invalid_model", error.description)
        }
    }

    /// Plans the trip, checks the style, the voice and the model, keeps the journey and starts
    /// telling it.
    public func start(_ request: StartRequest) async throws -> JourneyView {
        try JourneyPlanner.checkLengths(start: request.start, end: request.end)
        let choices = try await choices(request)
        let (style, voice, modelText) = (choices.style, choices.voice, choices.modelText)
        let planned = try await plan(PlanRequest(start: request.start, end: request.end, mode: request.mode))
        let record = JourneyRow(
            id: UUID.random(), ownerID: ownerID, planJSON: String(decoding: try JSONEncoder().encode(planned), as: UTF8.self),
            parts: planned.plan.parts, wordsPerMinute: planned.plan.wordsPerMinute,
            style: style.kind.rawValue, styleDescription: style.description, voice: voice.voice, model: modelText, now: now())
        try await repository.create(record)
        let id = record.id
        try await JourneyJobs.startTellerIfNeeded(id, ownerID: ownerID, database: user.database, buffer: buffer)
        return try await journey(id)
    }

    // MARK: Reading

    public func list() async throws -> [JourneySummaryView] {
        try await repository.list(ownerID: ownerID).map(JourneySummaryView.init)
    }

    public func journey(_ id: UUID) async throws -> JourneyView {
        let record = try await find(id)
        return try JourneyView(record, parts: try await parts(of: id), buffer: buffer)
    }

    /// One spoken sentence's WAV.
    public func sentenceAudio(_ id: UUID, part: Int, sentence: Int) async throws -> String {
        _ = try await find(id)
        guard let record = try await repository.part(part, of: id), let told = try? DatabaseJourneyStore.part(record),
              told.sentences.indices.contains(sentence) else {
            throw ServiceError(.notFound, code: "not_ready", "Sentence \(sentence + 1) of part \(part) has not been told yet.")
        }
        return "\(JourneyJobs.folder(journeyID: id, ownerID: ownerID))/\(told.sentences[sentence].file)"
    }

    // MARK: Listening

    /// Moves the listener to `playhead`; the parts after it are made next.
    public func movePlayhead(_ id: UUID, to playhead: Playhead) async throws -> JourneyView {
        let record = try await find(id)
        guard (1...record.parts).contains(playhead.part), playhead.sentence >= 0 else {
            throw ServiceError(.invalid, code: "invalid_playhead", "The playhead must be in parts 1 to \(record.parts), at sentence 0 or later.")
        }
        try await repository.update(id, ownerID: ownerID, now: now()) { record in
            record.playheadPart = playhead.part
            record.playheadSentence = playhead.sentence
        }
        try await JourneyJobs.startTellerIfNeeded(id, ownerID: ownerID, database: user.database, buffer: buffer)
        return try await journey(id)
    }

    // MARK: Keeping

    /// Deletes the journey, stops its teller, removes its audio.
    public func delete(_ id: UUID) async throws {
        let record = try await find(id)
        let queue = JobQueue(database: user.database)
        for job in [record.tellJobID, record.exportJobID].compactMap({ $0 }) { _ = try await queue.cancel(id: job, ownerID: ownerID) }
        try await repository.delete(id, ownerID: ownerID)
        try? FileManager.default.removeItem(at: folder(of: id))
        try? await artifacts.delete(prefix: JourneyJobs.folder(journeyID: id, ownerID: ownerID))
    }

    /// Starts the audiobook of the parts told so far (a job; follow it at `/api/jobs/{id}`).
    public func export(_ id: UUID) async throws -> JobRow {
        let record = try await find(id)
        guard record.partsReady > 0 else {
            throw ServiceError(.conflict, code: "nothing_told", NothingToldYet().description)
        }
        let job = try await JobQueue(database: user.database).enqueue(
            kind: JourneyJobs.export, payload: JourneyJobs.Payload(journey_id: id), ownerID: ownerID, maxAttempts: JourneyJobs.exportAttempts)
        try await repository.update(id, ownerID: ownerID, now: now()) { record in
            record.exportJobID = job.id
            record.exportPath = nil
        }
        return job
    }

    /// The audiobook's key in the artifact store, once exported, and a file name for it.
    public func audiobook(_ id: UUID) async throws -> (key: String, fileName: String) {
        let record = try await find(id)
        guard let path = record.exportPath else {
            throw ServiceError(.notFound, code: "not_exported", "This journey has not been exported yet: POST /api/journeys/\(id.uuidString.lowercased())/export first.")
        }
        let name = (record.title ?? "Journey").replacingOccurrences(of: #"[^A-Za-z0-9 _-]"#, with: "", options: .regularExpression)
        return (path, (name.isEmpty ? "Journey" : name) + ".m4b")
    }

    // MARK: Helpers

    private func find(_ id: UUID) async throws -> JourneyRow {
        guard let record = try await repository.find(id, ownerID: ownerID) else { throw ServiceError.notFound("journey") }
        return record
    }

    private func parts(of id: UUID) async throws -> [JourneyPart] {
        try await repository.parts(of: id).map(DatabaseJourneyStore.part)
    }

    private func folder(of id: UUID) -> URL {
        user.dataDirectory.url.appendingPathComponent(JourneyJobs.folder(journeyID: id, ownerID: ownerID))
    }
}
