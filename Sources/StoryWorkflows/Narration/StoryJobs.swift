import Analysis
import Audio
import Foundation
import Jobs
import LanguageModels
import Narration
import ObjectStorage
import Persistence
import Platform
import StoryModel
import StoryText

/// The story jobs: `analyze` and `render`. One registry serves the server's in-process workers
/// and `storyvoice worker` processes alike.
public enum StoryJobs {
    public static let analyze = "analyze"
    public static let render = "render"
    public static let suggestVoices = "suggest-voices"

    public static let exportFormats = ["m4b", "mp3"]

    /// The payload of every kind.
    public struct Payload: Codable, Sendable {
        var story_id: UUID
        /// For `render`: `m4b` or `mp3`.
        var format: String?
        /// For `analyze` and `suggest-voices`: the user's model (`openai:gpt-4o-mini`).
        var llm: String?
        /// For `analyze` with a model: `hybrid` or `full`.
        var mode: LabellingMode?
    }

    /// A story's exports, in the data directory and the artifact store alike.
    public static func rendersKey(story: UUID) -> String { "renders/\(story.uuidString.lowercased())" }

    /// Handlers for every story job.
    /// - Parameter artifacts: where finished exports and long texts are kept (nil: the data directory).
    public static func registry(
        dataDirectory: DataDirectory, artifacts: (any ArtifactStore)? = nil, narration: any NarrationService, models: ModelAccess
    ) -> JobHandlerRegistry {
        let texts = StoryTextFiles(dataDirectory: dataDirectory, artifacts: artifacts)
        var registry = JobHandlerRegistry()
        // Someone looks at an analysing story: it never waits behind a render. A whole novel
        // analysed by a model takes hours on this machine's; offline, a second.
        registry.register(analyze, AnalyzeHandler(texts: texts, narration: narration, models: models), lane: .quick, timeLimit: .seconds(6 * 3600))
        registry.register(render, RenderHandler(texts: texts, narration: narration, models: models))
        registry.register(suggestVoices, SuggestVoicesHandler(texts: texts, narration: narration, models: models), lane: .quick, timeLimit: .seconds(3600))
        return registry
    }

    /// The job's story, its text on this machine (fetched from the store when another wrote it).
    static func loadStory(_ job: ClaimedJob, context: JobContext, texts: StoryTextFiles) async throws -> (StoryRow, Payload) {
        let payload: Payload = try job.decodePayload()
        guard let story = try await StoryRepository(database: context.queue.database).find(id: payload.story_id, ownerID: job.ownerID) else {
            throw PermanentJobFailure("The story was deleted before the job ran.")
        }
        do {
            try await texts.fetch(for: story)
        } catch let error as ServiceError where error.kind == .notFound {
            throw PermanentJobFailure(error.message)
        }
        return (story, payload)
    }
}

/// Splits the story into narration and dialogue and finds its characters; with the user's
/// model, then has it label the lines the offline analysis is unsure of (or every line). The
/// user's voice choices are kept: they are keyed by the analysis' stable character ids.
struct AnalyzeHandler: JobHandler {
    let texts: StoryTextFiles
    var dataDirectory: DataDirectory { texts.dataDirectory }
    let narration: any NarrationService
    let models: ModelAccess
    /// Lines rendered ahead once the analysis is stored, so pressing play starts at once.
    var openingLines = 2

    func run(_ job: ClaimedJob, context: JobContext) async throws -> String? {
        let (story, payload) = try await StoryJobs.loadStory(job, context: context, texts: texts)
        var offlineStored = false
        do {
            try await context.reportProgress(0.1, message: "Reading the story")
            let document = try story.document(dataDirectory: dataDirectory)
            var analysis = StoryAnalyzer().analyze(document)
            try Task.checkCancellation()
            let offline = analysis
            try await StoryRepository(database: context.queue.database).modify(id: payload.story_id, ownerID: job.ownerID) { fresh in
                try fresh.store(analysis: offline)
                fresh.analysisState = .analyzed
            }
            offlineStored = true
            var result = #"{"characters":\#(analysis.characters.count),"segments":\#(analysis.segments.count)}"#
            if let llm = payload.llm {
                // The offline analysis is stored first: if the model fails, nothing is lost.
                let labelled = try await label(document, analysis: analysis, llm: llm, mode: payload.mode ?? .hybrid, job: job, context: context)
                analysis = labelled.analysis
                try await StoryRepository(database: context.queue.database).modify(id: payload.story_id, ownerID: job.ownerID) { fresh in
                    try fresh.store(analysis: analysis)
                }
                result = try ModelRunSummary(labelled).json(characters: analysis.characters.count, segments: analysis.segments.count)
            }
            try await context.reportProgress(0.97, message: "Found \(analysis.characters.count) character(s); preparing the opening lines")
            let narration = try await UserNarration(base: narration, box: models.box).forUser(job.ownerID, database: context.queue.database).narration
            await prepareOpening(document, analysis: analysis, overrides: try StoryContent(story, dataDirectory: dataDirectory).overrides, narration: narration)
            return result
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            // The last attempt: say so on the story, not only on the job (unless the offline
            // analysis was stored and only the model's pass failed).
            if !offlineStored, job.attempt >= job.maxAttempts || error is PermanentJobFailure {
                _ = try? await StoryRepository(database: context.queue.database).update(id: story.id, ownerID: job.ownerID) { $0.analysisState = .failed }
            }
            throw error
        }
    }

    private func label(
        _ document: StoryDocument, analysis: StoryAnalysis, llm: String, mode: LabellingMode, job: ClaimedJob, context: JobContext
    ) async throws -> LabelledAnalysis {
        let spec = try ModelAccess.spec(llm)
        return try await ModelRunSummary.modelStep("Speaker labelling", story: document.title) {
            let model = try await models.model(spec, userID: job.ownerID, database: context.queue.database)
            let analyzer = HybridAnalyzer(model: model, cache: try models.cache(), prices: models.prices)
            let estimate = analyzer.estimate(document: document, analysis: analysis, mode: mode)
            try await context.reportProgress(0.3, message: "Asking \(spec) about \(estimate.spansSent) line(s)")
            let (updates, continuation) = AsyncStream.makeStream(of: LabellingProgress.self, bufferingPolicy: .bufferingNewest(1))
            let forwarder = Task {
                for await update in updates where update.totalRequests > 0 {
                    let fraction = 0.3 + 0.65 * Double(update.completedRequests) / Double(update.totalRequests)
                    try? await context.reportProgress(fraction, message: "\(update.step): \(update.completedRequests) of \(update.totalRequests) requests")
                }
            }
            defer { forwarder.cancel() }
            let labelled = try await analyzer.label(document: document, analysis: analysis, mode: mode) { continuation.yield($0) }
            continuation.finish()
            await forwarder.value
            return labelled
        }
    }

    /// Renders the first lines into the cache. Best effort: playback renders on demand anyway.
    private func prepareOpening(_ document: StoryDocument, analysis: StoryAnalysis, overrides: CastOverrides, narration: any NarrationService) async {
        let narration = narration.forStory(overrides)
        let cast = await narration.cast(analysis, overrides: overrides)
        for line in narration.markingCached(Array(narration.plan(document, analysis: analysis, cast: cast).prefix(openingLines))) where !line.cached {
            if Task.isCancelled { return }
            _ = try? await narration.utteranceAudio(line)
        }
    }
}

/// Renders the whole book. Resumable: every finished line is in the shared segment cache, so a
/// re-run after a crash or cancel synthesizes only what is missing. The book is made in the
/// data directory and kept in `artifacts` (where it already is, or uploaded whole to a bucket)
/// before the story names it.
struct RenderHandler: JobHandler {
    let texts: StoryTextFiles
    var dataDirectory: DataDirectory { texts.dataDirectory }
    var artifacts: any ArtifactStore { texts.artifacts }
    let narration: any NarrationService
    let models: ModelAccess

    func run(_ job: ClaimedJob, context: JobContext) async throws -> String? {
        let (story, payload) = try await StoryJobs.loadStory(job, context: context, texts: texts)
        let content = try StoryContent(story, dataDirectory: dataDirectory)
        guard let analysis = content.analysis else {
            throw PermanentJobFailure("Analyse the story before exporting it.")
        }
        let format = payload.format ?? "m4b"
        guard StoryJobs.exportFormats.contains(format) else {
            throw PermanentJobFailure("Export as m4b or mp3, not '\(format)'.")
        }
        // Before any line is rendered: without the encoder the export cannot finish.
        guard AudioEncoder.isAvailable() else {
            throw PermanentJobFailure("The server cannot encode \(format.uppercased()): ffmpeg is not installed. Install it (scripts/setup) and export again.")
        }
        let narration = try await UserNarration(base: narration, box: models.box).forUser(job.ownerID, database: context.queue.database).narration
            .forStory(content.overrides)
        let cast = await narration.cast(analysis, overrides: content.overrides)
        let directory = dataDirectory.rendersDirectory(story: content.id)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let output = directory.appendingPathComponent("book.\(format)")

        // Progress arrives on the narrator's tasks; forward the latest to the row from here.
        let (updates, continuation) = AsyncStream.makeStream(of: RenderProgress.self, bufferingPolicy: .bufferingNewest(1))
        let forwarder = Task {
            for await update in updates {
                try? await context.reportProgress(update.fraction, message: update.message)
            }
        }
        defer { forwarder.cancel() }
        let outcome: RenderOutcome
        do {
            outcome = try await narration.render(content.document, analysis: analysis, cast: cast, to: output) { continuation.yield($0) }
            continuation.finish()
            await forwarder.value
        } catch let error as NarrationError where error.isPermanent {
            continuation.finish()
            throw PermanentJobFailure(error.description)
        } catch {
            continuation.finish()
            throw error
        }

        let base = dataDirectory.url.path.hasSuffix("/") ? dataDirectory.url.path : dataDirectory.url.path + "/"
        func relative(_ url: URL) -> String { url.path.hasPrefix(base) ? String(url.path.dropFirst(base.count)) : url.path }
        try await context.reportProgress(1, message: "Keeping the audiobook")
        do {
            try await artifacts.keep(outcome.timingMap, as: relative(outcome.timingMap), contentType: "application/json")
            try await artifacts.keep(output, as: relative(output), contentType: format == "mp3" ? "audio/mpeg" : "audio/mp4")
        } catch let error as ArtifactError {
            // Tried again by the queue: every line is cached by now, so the retry is quick.
            throw StoreUnavailable(error: error, what: "The audiobook")
        }
        // Kept elsewhere (a bucket), nothing of the book stays on this worker (the captions are
        // made again by the next export).
        if !artifacts.holds(output, as: relative(output)) { try? FileManager.default.removeItem(at: directory) }
        let render = StoryRender(
            path: relative(output), format: format, timingPath: relative(outcome.timingMap),
            durationSeconds: outcome.durationSeconds, synthesized: outcome.synthesized, cacheHits: outcome.cacheHits, renderedAt: Date())
        // On the row as it is now: the user may have edited the story while it rendered.
        try await StoryRepository(database: context.queue.database).modify(id: payload.story_id, ownerID: job.ownerID) { fresh in
            try fresh.store(render: render)
            fresh.durationSeconds = outcome.durationSeconds
        }
        return #"{"duration_seconds":\#(outcome.durationSeconds),"synthesized":\#(outcome.synthesized),"cache_hits":\#(outcome.cacheHits)}"#
    }
}
