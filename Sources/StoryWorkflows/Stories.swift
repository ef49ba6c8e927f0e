import Analysis
import Foundation
import Jobs
import LanguageModels
import ObjectStorage
import Persistence
import Platform
import Speech
import StoryModel
import StoryText

/// The stories use cases for one signed-in user: read a story and its performance, edit the
/// analysis and the cast, play it line by line, queue its jobs. The server's controllers and
/// the tests call these; every refusal is a `ServiceError`.
public struct Stories: Sendable {
    /// The signed-in user and the server's parts, as every product has them.
    public var user: UserContext
    public var plans: PlanCache
    /// Renders ahead of each listener; nil renders only what is asked for.
    public var ahead: RenderAhead?
    /// The story version the client last saw (`If-Match`), when it asks for edits to apply
    /// only to that version; nil applies them to whatever is latest, merged with others' edits.
    public var expectedVersion: Int?

    public var database: AppDatabase { user.database }
    public var dataDirectory: DataDirectory { user.dataDirectory }
    /// The server's narration pipeline (local voices); nil on a server without speech engines.
    public var narration: (any NarrationService)? { user.narration }
    public var models: ModelAccess { user.models }
    /// Where finished files and long texts are kept (nil: the data directory).
    public var artifacts: (any ArtifactStore)? {
        get { user.artifacts }
        set { user.artifacts = newValue }
    }
    public var ownerID: UUID { user.ownerID }

    public init(user: UserContext, plans: PlanCache) {
        self.user = user
        self.plans = plans
    }

    public init(
        database: AppDatabase, dataDirectory: DataDirectory, narration: (any NarrationService)?, models: ModelAccess,
        plans: PlanCache, ownerID: UUID
    ) {
        self.init(user: UserContext(database: database, dataDirectory: dataDirectory, narration: narration, models: models, ownerID: ownerID),
                  plans: plans)
    }

    // MARK: Reading

    /// The owner's story; another user's id is simply not found.
    public func story(_ id: UUID) async throws -> StoryRow {
        guard let story = try await StoryRepository(database: database).find(id: id, ownerID: ownerID) else {
            throw ServiceError.notFound("story")
        }
        try await StoryTextFiles(dataDirectory: dataDirectory, artifacts: artifacts).fetch(for: story)
        return story
    }

    public func content(_ story: StoryRow) throws -> StoryContent {
        try StoryContent(story, dataDirectory: dataDirectory)
    }

    /// What the story page shows: the analysis, the whole cast (choices and automatic picks).
    public func performance(_ story: StoryRow) async throws -> (content: StoryContent, cast: Cast?) {
        let content = try self.content(story)
        guard let analysis = content.analysis, narration != nil else { return (content, nil) }
        let pipeline = try await userNarration().narration
        return (content, await pipeline.cast(analysis, overrides: content.overrides))
    }

    /// The user's narration pipeline (`UserContext.userNarration`).
    public func userNarration(preference: CastingPreference? = nil) async throws -> (narration: any NarrationService, voices: String) {
        try await user.userNarration(preference: preference)
    }

    // MARK: Editing

    /// Applies `change` to the story's analysis and voice choices and saves them atomically:
    /// if someone else edited the story meanwhile, `change` is applied again to their result,
    /// so parallel edits are all kept. Returns the story as saved.
    @discardableResult
    public func edit(_ story: StoryRow, _ change: (inout StoryAnalysis, inout CastOverrides) throws -> Void) async throws -> StoryRow {
        try await modify(story) { fresh in
            var content = try self.content(fresh)
            guard var analysis = content.analysis else { throw ServiceError.notAnalyzed }
            do {
                try change(&analysis, &content.overrides)
            } catch let error as StoryAnalysis.EditError {
                throw Self.storyError(error)
            }
            try fresh.store(analysis: analysis)
            try fresh.store(overrides: content.overrides)
        }
    }

    /// Saves `change` to the latest version of `story` atomically (see `edit`), or refuses it
    /// when the client asked for another version than the latest.
    private func modify(_ story: StoryRow, _ change: (inout StoryRow) throws -> Void) async throws -> StoryRow {
        let saved = try await StoryRepository(database: database).modify(id: story.id, ownerID: ownerID) { fresh in
            if let expectedVersion, fresh.version != expectedVersion {
                throw ServiceError(.staleVersion, code: "stale_version",
                                 "The story was changed elsewhere (it is now version \(fresh.version), not \(expectedVersion)). Reload it and make the change again.")
            }
            try change(&fresh)
        }
        guard let saved else { throw ServiceError.notFound("story") }
        return saved
    }

    @discardableResult
    public func editCharacter(_ story: StoryRow, id: String, _ edit: CharacterEdit) async throws -> StoryRow {
        let edit = try Self.validated(edit)
        return try await self.edit(story) { analysis, _ in
            guard let index = analysis.characters.firstIndex(where: { $0.id == id }) else { throw ServiceError.notFound("character") }
            analysis.characters[index].apply(edit)
        }
    }

    @discardableResult
    public func addCharacter(_ story: StoryRow, _ edit: CharacterEdit) async throws -> StoryRow {
        guard edit.name != nil else { throw ServiceError(.invalid, code: "invalid_name", "A new character needs a name.") }
        let edit = try Self.validated(edit)
        return try await self.edit(story) { analysis, _ in
            var character = Character(id: "", name: "", gender: .unknown, ageRange: .unknown, lines: 0)
            character.apply(edit)
            analysis.add(character)
        }
    }

    @discardableResult
    public func mergeCharacter(_ story: StoryRow, id: String, into survivor: String) async throws -> StoryRow {
        try await edit(story) { analysis, overrides in
            guard analysis.character(id: id) != nil, analysis.character(id: survivor) != nil else { throw ServiceError.notFound("character") }
            try analysis.merge(id, into: survivor)
            overrides.characters[id] = nil
        }
    }

    /// Gives line `n` of the performance to `speaker` (nil: narration).
    @discardableResult
    public func reassignLine(_ story: StoryRow, line n: Int, to speaker: String?) async throws -> StoryRow {
        let line = try await plannedLine(story, n)
        return try await edit(story) { analysis, _ in try analysis.reassign(segment: line.segment, to: speaker) }
    }

    @discardableResult
    public func setLexicon(_ story: StoryRow, _ lexicon: PronunciationLexicon) async throws -> StoryRow {
        try await modify(story) { fresh in
            var overrides = try self.content(fresh).overrides
            overrides.lexicon = lexicon.isEmpty ? nil : lexicon.entries
            try fresh.store(overrides: overrides)
        }
    }

    /// Sets the voice of `narrator` or a character id.
    @discardableResult
    public func setVoice(_ story: StoryRow, role: String, _ choice: VoiceChoice) async throws -> StoryRow {
        let assignment = try await choice.validated(against: userNarration().narration)
        return try await edit(story) { analysis, overrides in
            if role == "narrator" {
                overrides.narrator = assignment
            } else {
                guard let character = analysis.character(id: role) else { throw ServiceError.notFound("character") }
                var named = assignment
                named.name = character.name
                overrides.characters[role] = named
            }
        }
    }

    /// Forgets the user's choice for a role: the automatic casting applies again.
    @discardableResult
    public func restoreVoice(_ story: StoryRow, role: String) async throws -> StoryRow {
        try await edit(story) { analysis, overrides in
            if role == "narrator" {
                overrides.narrator = nil
            } else {
                guard analysis.character(id: role) != nil else { throw ServiceError.notFound("character") }
                overrides.characters[role] = nil
            }
        }
    }

    // MARK: Playback

    /// The lines in reading order (those in `range`, or all), with whether each is rendered
    /// yet. Only the returned lines are checked against the cache, so a page costs its size.
    public func playbackLines(_ story: StoryRow, range: Range<Int>? = nil) async throws -> PlaybackPage {
        let (pipeline, plan) = try await self.plan(story)
        let wanted = (range ?? plan.lines.indices).clamped(to: plan.lines.indices)
        return PlaybackPage(
            story: story.id, lines: pipeline.markingCached(Array(plan.lines[wanted])), texts: Array(plan.texts[wanted]),
            total: plan.lines.count, speakerNames: plan.speakerNames, chapters: plan.chapters)
    }

    /// Line `n`'s audio as WAV, rendered through the shared cache.
    public func lineAudio(_ story: StoryRow, line n: Int) async throws -> Data {
        try await playedLine(story, n, compressed: false) { pipeline, line in try await pipeline.utteranceAudio(line) }
    }

    /// Line `n`'s audio as Ogg Opus (about a tenth of the WAV's size), for listeners whose
    /// connection is not local.
    public func compressedLineAudio(_ story: StoryRow, line n: Int) async throws -> Data {
        try await playedLine(story, n, compressed: true) { pipeline, line in try await pipeline.compressedUtteranceAudio(line) }
    }

    /// Line `n` served to a listener: a jump stops rendering the old stretch first, so the line
    /// asked for has the engines, and rendering then goes on ahead of the listener.
    private func playedLine(
        _ story: StoryRow, _ n: Int, compressed: Bool, audio: (any NarrationService, PlannedUtterance) async throws -> Data
    ) async throws -> Data {
        let (pipeline, plan) = try await self.plan(story)
        guard plan.lines.indices.contains(n) else { throw ServiceError.notFound("segment") }
        let id = story.id
        await ahead?.jumped(story: id, to: n)
        let data = try await audio(pipeline, plan.lines[n])
        await ahead?.follow(story: id, at: n, of: plan.lines, pipeline: pipeline, compressed: compressed)
        return data
    }

    /// How long an export would render with the fastest voices, with the user's own time budget
    /// (when they chose one) and with the best, and which the user has chosen.
    public func renderEstimates(_ story: StoryRow) async throws -> (chosen: CastingPreference, estimates: [RenderEstimate]) {
        let chosen = try await SettingsRepository(database: database, box: models.box).narrationDefaults(userID: ownerID).voices
        var estimates: [RenderEstimate] = []
        // The plans come from the plan cache (the chosen one is the player's own).
        for preference in [.fastest] + (chosen.kind == .hours ? [chosen] : []) + [.best] {
            let (pipeline, plan) = try await self.plan(story, preference: preference)
            estimates.append(RenderEstimate(preference: preference, lines: pipeline.markingCached(plan.lines), measured: pipeline.measuredSpeeds))
        }
        return (chosen, estimates)
    }

    private func plannedLine(_ story: StoryRow, _ n: Int) async throws -> PlannedUtterance {
        let lines = try await plan(story).plan.lines
        guard lines.indices.contains(n) else { throw ServiceError.notFound("segment") }
        return lines[n]
    }

    /// The story's pipeline and plan. The plan (and what the player shows of it) is kept while
    /// neither the story nor the user's voices change, so a line's audio costs one settings
    /// query and a look-up, not a decode and re-plan of the whole book.
    private func plan(_ story: StoryRow, preference: CastingPreference? = nil) async throws -> (pipeline: any NarrationService, plan: StoryPlan) {
        let (narration, voices) = try await userNarration(preference: preference)
        let key = PlanCache.Key(story: story.id, version: story.updatedAt ?? .distantPast, voices: voices)
        if let plan = await plans.plan(for: key) { return (narration.forStory(plan.overrides), plan) }
        let content = try self.content(story)
        guard let analysis = content.analysis else { throw ServiceError.notAnalyzed }
        let pipeline = narration.forStory(content.overrides)
        let cast = await pipeline.cast(analysis, overrides: content.overrides)
        let plan = StoryPlan(content, analysis: analysis, lines: pipeline.plan(content.document, analysis: analysis, cast: cast))
        await plans.store(plan, for: key)
        return (pipeline, plan)
    }

    // MARK: Jobs

    public func analyze(_ story: StoryRow, llm: String?, mode: LabellingMode?) async throws -> JobRow {
        if let llm { try await requireModel(llm, step: "Speaker labelling", story: story) }
        return try await StoryLibrary(dataDirectory: dataDirectory)
            .enqueueAnalysis(of: story, ownerID: ownerID, database: database, llm: llm, mode: mode)
    }

    public func suggestVoices(_ story: StoryRow, llm: String) async throws -> JobRow {
        guard try content(story).analysis != nil else { throw ServiceError.notAnalyzed }
        try await requireModel(llm, step: "Voice suggestion", story: story)
        return try await JobQueue(database: database).enqueue(
            kind: StoryJobs.suggestVoices, payload: StoryJobs.Payload(story_id: story.id, llm: llm), ownerID: ownerID)
    }

    public func export(_ story: StoryRow, format: String) async throws -> JobRow {
        guard StoryJobs.exportFormats.contains(format) else {
            throw ServiceError(.invalid, code: "invalid_format", "Export as 'm4b' or 'mp3'.")
        }
        guard try content(story).analysis != nil else { throw ServiceError.notAnalyzed }
        return try await JobQueue(database: database).enqueue(
            kind: StoryJobs.render, payload: StoryJobs.Payload(story_id: story.id, format: format), ownerID: ownerID)
    }

    /// The latest export's key in the artifact store, and its format.
    public func exported(_ story: StoryRow) throws -> (key: String, format: String) {
        guard let render = try content(story).render else {
            throw ServiceError(.notFound, code: "not_rendered", "This story has not been exported yet; export it first.")
        }
        return (render.path, render.format)
    }

    /// What each labelling mode would send to `llm` and cost, before anything is sent.
    public func estimates(_ story: StoryRow, llm: String) throws -> (model: String, estimates: [(LabellingMode, CostEstimate)]) {
        let spec = try ModelAccess.spec(llm)
        let content = try self.content(story)
        let analysis = content.analysis ?? StoryAnalyzer().analyze(content.document)
        return (spec.description, LabellingMode.allCases.map { mode in
            (mode, HybridAnalyzer.estimate(document: content.document, analysis: analysis, mode: mode, model: spec, prices: models.prices))
        })
    }

    /// Fails at once when the model cannot be used (bad spec, no stored key), rather than
    /// queueing a job that is bound to fail.
    private func requireModel(_ llm: String, step: String, story: StoryRow) async throws {
        let spec = try ModelAccess.spec(llm)
        do {
            _ = try await models.model(spec, userID: ownerID, database: database)
        } catch let error as LanguageModelError {
            throw ServiceError(.invalid, code: error.kind == .missingKey ? "missing_key" : "invalid_model",
                             error.message(step: step, story: story.title))
        }
    }

    // MARK: Validation

    static func validated(_ edit: CharacterEdit) throws -> CharacterEdit {
        var edit = edit
        if let name = edit.name {
            let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty, trimmed.count <= 120 else {
                throw ServiceError(.invalid, code: "invalid_name", "A character's name needs 1 to 120 characters.")
            }
            edit.name = trimmed
        }
        return edit
    }

    static func storyError(_ error: StoryAnalysis.EditError) -> ServiceError {
        switch error {
        case .unknownCharacter(let id): ServiceError(.invalid, code: "unknown_character", "No character '\(id)' in this story.")
        case .unknownSegment: ServiceError.notFound("segment")
        case .sameCharacter: ServiceError(.invalid, code: "same_character", "Pick two different characters to merge.")
        }
    }
}

extension ServiceError {
    public static let notAnalyzed = ServiceError(.conflict, code: "not_analyzed", "Analyse the story first (POST /api/stories/{id}/analyze).")
}
