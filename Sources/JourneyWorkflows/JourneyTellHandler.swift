import Foundation
import Jobs
import Journeys
import LanguageModels
import Logging
import ObjectStorage
import Persistence
import Platform
import Speech
import StoryModel

/// Tells a journey's story ahead of its listener: the parts the buffer policy asks for, one at
/// a time, until it asks for none (the listener has parts in hand); then lets go, and starts
/// another teller if the playhead moved meanwhile. Sentences are kept as they are voiced, so a
/// teller that dies loses at most the sentence it was on.
struct JourneyTellHandler: JobHandler {
    let dataDirectory: DataDirectory
    /// Where the sentences' audio is kept.
    let artifacts: any ArtifactStore
    let narration: any NarrationService
    let models: ModelAccess
    let buffer: BufferPolicy
    /// Openings prepared in this process (a separate `storyvoice worker` has none).
    var openings: PreparedOpenings?

    func run(_ job: ClaimedJob, context: JobContext) async throws -> String? {
        let payload: JourneyJobs.Payload = try job.decodePayload()
        let id = payload.journey_id
        let database = context.queue.database
        let repository = JourneyRepository(database: database)
        guard let record = try await repository.find(id, ownerID: job.ownerID) else { return #"{"told":0,"deleted":true}"# }
        // Another teller took over (this one's claim was replaced after it was thought dead).
        guard record.tellJobID == job.id else { return #"{"told":0,"superseded":true}"# }
        var told = 0
        do {
            let teller = try await JourneyTelling(
                database: database, dataDirectory: dataDirectory, artifacts: artifacts, narration: narration, models: models, openings: openings)
                .teller(for: record)
            while let next = try await nextPart(id, ownerID: job.ownerID, repository: repository) {
                try await context.reportProgress(Double(next.ready) / Double(max(1, next.total)), message: "Telling part \(next.part) of \(next.total)")
                try await teller.tell(part: next.part)
                told += 1
            }
        } catch is JourneyGone {
            return #"{"told":\#(told),"deleted":true}"#
        } catch let error as JourneyTellError {
            try await fail(id, ownerID: job.ownerID, jobID: job.id, message: error.description, repository: repository)
            throw PermanentJobFailure(error.description)
        } catch let error as ServiceError {
            // The model or the voice cannot be had at all (a key removed, a voice uninstalled).
            try await fail(id, ownerID: job.ownerID, jobID: job.id, message: error.message, repository: repository)
            throw PermanentJobFailure(error.message)
        } catch let error as LanguageModelError where error.kind == .missingKey {
            try await fail(id, ownerID: job.ownerID, jobID: job.id, message: error.description, repository: repository)
            throw PermanentJobFailure(error.description)
        }
        let ready = try await repository.recountReady(id)
        try await repository.update(id, ownerID: job.ownerID) { record in
            if ready >= record.parts, record.status == "telling" { record.status = "complete" }
        }
        try await repository.releaseTeller(id, jobID: job.id)
        // The playhead may have moved while this teller was finishing.
        try await JourneyJobs.startTellerIfNeeded(id, ownerID: job.ownerID, database: database, buffer: buffer)
        return #"{"told":\#(told),"ready":\#(ready)}"#
    }

    private func nextPart(_ id: UUID, ownerID: UUID, repository: JourneyRepository) async throws -> (part: Int, ready: Int, total: Int)? {
        guard let record = try await repository.find(id, ownerID: ownerID) else { throw JourneyGone() }
        let ready = Set(try await repository.parts(of: id).filter { $0.status == JourneyPart.Status.ready.rawValue }.map(\.number))
        let parts = buffer.partsToGenerate(playhead: record.playheadPart, ready: ready, inProgress: [], total: record.parts)
        return parts.first.map { ($0, ready.count, record.parts) }
    }

    private func fail(_ id: UUID, ownerID: UUID, jobID: UUID, message: String, repository: JourneyRepository) async throws {
        try await repository.update(id, ownerID: ownerID) { record in
            record.status = "failed"
            record.errorMessage = message
        }
        try await repository.releaseTeller(id, jobID: jobID)
    }
}

extension ModelScheduler.Snapshot {
    /// Live turns running or waiting.
    var liveTurns: Int {
        (running + waiting).count { $0.urgency == .live }
    }
}

/// Builds a journey's teller from what the journey keeps: its plan, style, voice and model,
/// with the owner's narration (voices their keys unlock) and model access.
struct JourneyTelling: Sendable {
    let database: AppDatabase
    let dataDirectory: DataDirectory
    let artifacts: any ArtifactStore
    let narration: any NarrationService
    let models: ModelAccess
    let openings: PreparedOpenings?

    init(
        database: AppDatabase, dataDirectory: DataDirectory, artifacts: any ArtifactStore, narration: any NarrationService, models: ModelAccess,
        openings: PreparedOpenings? = nil
    ) {
        self.database = database
        self.dataDirectory = dataDirectory
        self.artifacts = artifacts
        self.narration = narration
        self.models = models
        self.openings = openings
    }

    func teller(for record: JourneyRow) async throws -> JourneyTeller {
        let id = record.id
        let ownerID = record.ownerID
        let plan = try JSONDecoder().decode(JourneyPlan.self, from: Data(record.planJSON.utf8))
        let style = try StoryStyle(id: record.style, description: record.styleDescription)
        let user = UserContext(database: database, dataDirectory: dataDirectory, narration: narration, models: models, ownerID: ownerID)
        let voices = try await user.userNarration().narration
        let assignment = VoiceAssignment(voice: record.voice)
        let spec = try ModelAccess.spec(record.model)
        let model = try await models.model(spec, userID: ownerID, database: database)
        // Live turns at the model on this machine hold it before any part (a cloud model has none).
        let scheduler = spec.provider == .local ? models.factory.localScheduler : nil
        let repository = JourneyRepository(database: database)
        let openings = openings, modelSpec = record.model, voice = record.voice
        var logger = Logger(label: "storyvoice.journeys")
        logger[metadataKey: "journey"] = "\(id)"
        return JourneyTeller(
            plan: plan, style: style, model: model,
            speak: { text in
                if let wav = await openings?.voicedSentence(owner: ownerID, voice: voice, text: text) { return wav }
                return try await voices.preview(await VoicePaces.shared.paced(assignment, target: plan.wordsPerMinute, narration: voices), text: text)
            },
            store: DatabaseJourneyStore(repository: repository, artifacts: artifacts, journeyID: id, ownerID: ownerID),
            listener: {
                guard let record = try? await repository.find(id, ownerID: ownerID) else { return nil }
                return ListenerPosition(part: record.playheadPart, sentence: record.playheadSentence)
            },
            liveTurns: { await scheduler?.snapshot.liveTurns ?? 0 },
            prepared: { request in await openings?.take(owner: ownerID, modelSpec: modelSpec, voice: voice, request: request) },
            planningMargin: scheduler == nil ? 0 : nil, logger: logger)
    }
}
