import Analysis
import FluentKit
import Foundation
import Jobs
import LanguageModels
import Speech
import StoryModel
import StoryPersistence
import StoryText
import Vapor

/// A story's performance: analysis and its edits, the cast, playback line by line, and export.
/// Scoped to the signed-in user: another user's story answers 404.
struct StoryNarrationController: Sendable {
    let config: ServerConfig

    func register(routes: any RoutesBuilder) {
        let story = routes.grouped("stories", ":id")
        story.post("analyze", use: analyze)
        story.post("analyze", "estimate", use: estimate)
        story.post("cast", "suggest", use: suggestVoices)
        story.get("analysis", use: analysis)
        story.post("characters", use: addCharacter)
        story.patch("characters", ":character", use: editCharacter)
        story.post("characters", ":character", "merge", use: mergeCharacter)
        story.put("cast", ":role", use: setVoice)
        story.put("lexicon", use: setLexicon)
        story.delete("cast", ":role", use: restoreVoice)
        story.get("segments", use: segments)
        story.patch("segments", ":n", use: reassignSegment)
        story.get("segments", ":n", "audio", use: segmentAudio)
        story.post("render", use: render)
        story.get("audio", use: download)
    }

    // MARK: Bodies

    struct AnalysisReply: Encodable {
        var state: AnalysisState
        var analysis: StoryAnalysis?
        var cast: Cast?
        var overrides: CastOverrides
        var render: RenderInfo?
    }

    struct RenderInfo: Encodable {
        var format: String
        var duration_seconds: Double
        var rendered_at: Date
        var url: String
    }

    struct CharacterEdit: Decodable {
        var name: String?
        var gender: Gender?
        var age_range: AgeRange?
        var accent: String?
        var personality: String?
        var description: String?
        var aliases: [String]?
    }

    struct MergeRequest: Decodable { var into: String }
    struct RenderRequest: Decodable { var format: String? }
    /// The user's model for analysis or voice suggestions, and for analysis the mode.
    struct ModelRequest: Decodable { var llm: String?; var mode: LabellingMode? }
    struct SpeakerChange: Decodable { var speaker: String? }

    struct PlaybackLine: Encodable {
        var index: Int
        var segment: Int
        var start: Int
        var end: Int
        var kind: SegmentKind
        var speaker: String?
        var speaker_name: String
        var voice: String
        var text: String
        var pause_before: Double
        var cached: Bool
        var audio_url: String
    }

    struct PlaybackList: Encodable { var segments: [PlaybackLine] }

    // MARK: Analysis

    /// Enqueues analysis → 202 with the job.
    /// Offline analysis; with `{"llm": "openai:gpt-4o-mini", "mode": "hybrid"}` the user's model
    /// then labels the lines the offline analysis is unsure of (or all of them in `full`).
    @Sendable
    func analyze(_ request: Request) async throws -> Response {
        let (user, story) = try await find(request)
        let choice = request.body.data.map { $0.readableBytes > 0 } == true ? try request.decodeJSON(ModelRequest.self) : ModelRequest()
        if let llm = choice.llm {
            try await requireModel(llm, step: "Speaker labelling", story: story, userID: user.id, request)
        }
        let job = try await StoryLibrary(config: config).enqueueAnalysis(
            of: story, ownerID: user.id, database: request.db, llm: choice.llm, mode: choice.mode)
        return try Response.json(JobSnapshot(job), status: .accepted)
    }

    struct ModeEstimate: Content {
        var mode: LabellingMode
        var dialogue_lines: Int
        var lines_sent: Int
        var requests: Int
        var input_tokens: Int
        var output_tokens: Int
        var cost_usd: Double?
    }

    struct EstimateReply: Content {
        var model: String
        var estimates: [ModeEstimate]
    }

    /// What each mode would send to the model and cost, before anything is sent (no key needed).
    @Sendable
    func estimate(_ request: Request) async throws -> Response {
        let (_, story) = try await find(request)
        let choice = try request.decodeJSON(ModelRequest.self)
        guard let llm = choice.llm else { throw APIError(status: .unprocessableEntity, code: "invalid_model", message: "Say which model to price: {\"llm\": \"openai:gpt-4o-mini\"}.") }
        let spec = try ModelAccess.spec(llm)
        let content = try self.content(story)
        let analysis = content.analysis ?? StoryAnalyzer().analyze(content.document)
        let estimates = LabellingMode.allCases.map { mode in
            let estimate = HybridAnalyzer.estimate(document: content.document, analysis: analysis, mode: mode, model: spec, prices: config.models.prices)
            return ModeEstimate(mode: mode, dialogue_lines: estimate.dialogueSegments, lines_sent: estimate.spansSent, requests: estimate.requests,
                                input_tokens: estimate.inputTokens, output_tokens: estimate.outputTokens, cost_usd: estimate.cost)
        }
        return try Response.json(EstimateReply(model: spec.description, estimates: estimates))
    }

    /// "Suggest voices with AI": a job in which the user's model picks voices for the characters
    /// the user has not cast themselves.
    @Sendable
    func suggestVoices(_ request: Request) async throws -> Response {
        let (user, story) = try await find(request)
        let choice = try request.decodeJSON(ModelRequest.self)
        guard let llm = choice.llm else { throw APIError(status: .unprocessableEntity, code: "invalid_model", message: "Choose a model: {\"llm\": \"openai:gpt-4o-mini\"}.") }
        _ = try requireAnalysis(try content(story))
        try await requireModel(llm, step: "Voice suggestion", story: story, userID: user.id, request)
        let job = try await JobQueue(database: request.db).enqueue(
            kind: StoryJobs.suggestVoices, payload: StoryJobs.Payload(story_id: try story.requireID(), llm: llm), ownerID: user.id)
        return try Response.json(JobSnapshot(job), status: .accepted)
    }

    /// Fails the request at once when the model cannot be used (bad spec, no stored key),
    /// rather than queueing a job that is bound to fail.
    private func requireModel(_ llm: String, step: String, story: StoryRecord, userID: UUID, _ request: Request) async throws {
        let spec = try ModelAccess.spec(llm)
        do {
            _ = try await config.models.model(spec, userID: userID, database: request.db)
        } catch let error as LanguageModelError {
            throw APIError(status: .unprocessableEntity, code: error.kind == .missingKey ? "missing_key" : "invalid_model",
                           message: error.message(step: step, story: story.title))
        }
    }

    @Sendable
    func analysis(_ request: Request) async throws -> Response {
        let (_, story) = try await find(request)
        return try Response.json(try await reply(story, request.db))
    }

    @Sendable
    func editCharacter(_ request: Request) async throws -> Response {
        let (_, story) = try await find(request)
        let edit = try request.decodeJSON(CharacterEdit.self)
        var content = try self.content(story)
        var analysis = try requireAnalysis(content)
        let id = request.parameters.get("character") ?? ""
        guard let index = analysis.characters.firstIndex(where: { $0.id == id }) else { throw APIError.notFound("character") }
        var character = analysis.characters[index]
        if let name = edit.name { character.name = try Self.validName(name) }
        // A model's quotation stays only while the field still says what the model said.
        if let gender = edit.gender {
            if gender != character.gender { character.dropEvidence(for: .gender) }
            character.gender = gender
            character.genderConfidence = 1
        }
        if let age = edit.age_range {
            if age != character.ageRange { character.dropEvidence(for: .ageRange) }
            character.ageRange = age
            character.ageConfidence = 1
        }
        if let accent = edit.accent.map(Self.optionalText), accent != character.accent {
            character.accent = accent
            character.dropEvidence(for: .accent)
        }
        if let personality = edit.personality.map(Self.optionalText), personality != character.personality {
            character.personality = personality
            character.dropEvidence(for: .personality)
        }
        if let description = edit.description.map(Self.optionalText), description != character.description {
            character.description = description
            character.dropEvidence(for: .description)
        }
        if let aliases = edit.aliases { character.aliases = aliases.compactMap(Self.optionalText) }
        analysis.characters[index] = character
        content.analysis = analysis
        return try await save(content, into: story, request)
    }

    @Sendable
    func addCharacter(_ request: Request) async throws -> Response {
        let (_, story) = try await find(request)
        let edit = try request.decodeJSON(CharacterEdit.self)
        var content = try self.content(story)
        var analysis = try requireAnalysis(content)
        guard let name = edit.name else { throw APIError.badRequest("Field 'name' is required.", code: "invalid_body") }
        // Ids stay stable: a new character takes the next number, never a reused one.
        let next = (analysis.characters.compactMap { Int($0.id.dropFirst()) }.max() ?? 0) + 1
        analysis.characters.append(Character(
            id: "c\(next)", name: try Self.validName(name), aliases: (edit.aliases ?? []).compactMap(Self.optionalText),
            gender: edit.gender ?? .unknown, ageRange: edit.age_range ?? .unknown,
            accent: edit.accent.flatMap(Self.optionalText), personality: edit.personality.flatMap(Self.optionalText), lines: 0,
            description: edit.description.flatMap(Self.optionalText)))
        content.analysis = analysis
        let response = try await save(content, into: story, request)
        response.status = .created
        return response
    }

    /// Folds `:character` into `into`: its lines, name and aliases go to the survivor.
    @Sendable
    func mergeCharacter(_ request: Request) async throws -> Response {
        let (_, story) = try await find(request)
        let merge = try request.decodeJSON(MergeRequest.self)
        var content = try self.content(story)
        var analysis = try requireAnalysis(content)
        let id = request.parameters.get("character") ?? ""
        guard let from = analysis.characters.firstIndex(where: { $0.id == id }),
              let into = analysis.characters.firstIndex(where: { $0.id == merge.into }) else { throw APIError.notFound("character") }
        guard from != into else {
            throw APIError(status: .unprocessableEntity, code: "same_character", message: "Pick two different characters to merge.")
        }
        let gone = analysis.characters[from]
        var aliases = analysis.characters[into].aliases
        for alias in [gone.name] + gone.aliases where !aliases.contains(alias) && alias != analysis.characters[into].name {
            aliases.append(alias)
        }
        analysis.characters[into].aliases = aliases
        for index in analysis.segments.indices where analysis.segments[index].speaker == gone.id {
            analysis.segments[index].speaker = merge.into
        }
        analysis.characters.remove(at: from)
        content.overrides.characters[gone.id] = nil
        content.analysis = Self.recountLines(analysis)
        return try await save(content, into: story, request)
    }

    // MARK: Pronunciation

    /// A lexicon as JSON entries (word → respelling, or → `{"say", "espeak-ng", "piper"}`) or as
    /// the text a `--lexicon` file holds (`word = respelling | espeak-ng [[...]]`), which is what
    /// the web app's box sends.
    struct LexiconRequest: Decodable {
        var entries: [String: PronunciationLexicon.Entry]?
        var text: String?
        /// Why an entry could not be taken (neither respelling nor phonemes, phonemes for an
        /// engine that reads none): a 422 like the other lexicon problems, not malformed JSON.
        var entryProblem: String?

        enum CodingKeys: String, CodingKey { case entries, text }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            text = try container.decodeIfPresent(String.self, forKey: .text)
            do {
                entries = try container.decodeIfPresent([String: PronunciationLexicon.Entry].self, forKey: .entries)
            } catch DecodingError.dataCorrupted(let context) where context.codingPath.count > 1 {
                entryProblem = "'\(context.codingPath[context.codingPath.count - 1].stringValue)' \(context.debugDescription)."
            }
        }
    }

    static let lexiconLimits = (entries: 500, word: 100, spelling: 200)

    /// Replaces the story's pronunciation lexicon (`{"entries": {}}` or `{"text": ""}` clears
    /// it). Lines whose engine text changes get new cache keys, so exactly they re-render.
    @Sendable
    func setLexicon(_ request: Request) async throws -> Response {
        let (_, story) = try await find(request)
        let lexicon = try Self.lexicon(from: request.decodeJSON(LexiconRequest.self))
        var content = try self.content(story)
        content.overrides.lexicon = lexicon.isEmpty ? nil : lexicon.entries
        return try await save(content, into: story, request)
    }

    static func lexicon(from body: LexiconRequest) throws -> PronunciationLexicon {
        func invalid(_ message: String) -> APIError { APIError(status: .unprocessableEntity, code: "invalid_lexicon", message: message) }
        if let problem = body.entryProblem { throw invalid("The entry for \(problem)") }
        let lexicon: PronunciationLexicon
        switch (body.entries, body.text) {
        case (let entries?, nil):
            guard entries.keys.allSatisfy({ !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }) else {
                throw invalid("An entry has no word; each entry is a word or phrase and how to say it.")
            }
            lexicon = PronunciationLexicon(entries: entries)
        case (nil, let text?):
            do {
                lexicon = try PronunciationLexicon.parse(text)
            } catch let error as PronunciationLexicon.FileError {
                throw invalid("\(error.line.map { "Line \($0): " } ?? "")\(error.problem). Write one 'word = respelling' per line, "
                              + "with phonemes for espeak-ng or Piper after it as '| espeak-ng [[fr'amt@n]]' or '| piper [[fɹˈæmtən]]'.")
            }
        default:
            throw invalid("Send the lexicon as either 'entries' (an object of words) or 'text' (one 'word = respelling' per line).")
        }
        let limits = lexiconLimits
        guard lexicon.entries.count <= limits.entries else {
            throw invalid("A story's lexicon holds at most \(limits.entries) words.")
        }
        for (word, entry) in lexicon.entries {
            let spellings = [entry.respelling].compactMap { $0 } + entry.phonemes.values
            guard word.count <= limits.word, spellings.allSatisfy({ $0.count <= limits.spelling }) else {
                throw invalid("Each entry is a word or phrase (up to \(limits.word) characters) and its respelling or phonemes (up to \(limits.spelling) each).")
            }
        }
        return lexicon
    }

    // MARK: Cast

    /// Sets the voice of `narrator` or a character id.
    @Sendable
    func setVoice(_ request: Request) async throws -> Response {
        let (_, story) = try await find(request)
        let narration = try await narration(for: story, request.db)
        let choice = try request.decodeJSON(VoiceChoice.self)
        var content = try self.content(story)
        let analysis = try requireAnalysis(content)
        let role = request.parameters.get("role") ?? ""
        let assignment = try await choice.validated(against: narration)
        if role == "narrator" {
            content.overrides.narrator = assignment
        } else {
            guard let character = analysis.character(id: role) else { throw APIError.notFound("character") }
            var named = assignment
            named.name = character.name
            content.overrides.characters[role] = named
        }
        return try await save(content, into: story, request)
    }

    /// Forgets the user's choice for a role: the automatic casting applies again.
    @Sendable
    func restoreVoice(_ request: Request) async throws -> Response {
        let (_, story) = try await find(request)
        var content = try self.content(story)
        let analysis = try requireAnalysis(content)
        let role = request.parameters.get("role") ?? ""
        if role == "narrator" {
            content.overrides.narrator = nil
        } else {
            guard analysis.character(id: role) != nil else { throw APIError.notFound("character") }
            content.overrides.characters[role] = nil
        }
        return try await save(content, into: story, request)
    }

    // MARK: Playback

    /// The lines in reading order, with their speakers and audio URLs: what the player plays
    /// and highlights. Each line's audio renders on first request and is cached.
    @Sendable
    func segments(_ request: Request) async throws -> Response {
        let (_, story) = try await find(request)
        let lines = try await plan(story, request.db)
        let content = try self.content(story)
        let names = Dictionary((content.analysis?.characters ?? []).map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        let id = try story.requireID().uuidString.lowercased()
        return try Response.json(PlaybackList(segments: lines.map { line in
            PlaybackLine(
                index: line.index, segment: line.segment, start: line.start, end: line.end, kind: line.kind, speaker: line.speaker,
                speaker_name: line.speaker.flatMap { names[$0] } ?? (line.kind == .dialogue ? "Unattributed" : "Narrator"), voice: line.voice.voice,
                text: Self.slice(content.document.text, line.start, line.end), pause_before: line.pauseBefore, cached: line.cached,
                audio_url: "/api/stories/\(id)/segments/\(line.index)/audio")
        }))
    }

    /// Gives line `:n`'s analysis segment another speaker (`null` makes it narration).
    @Sendable
    func reassignSegment(_ request: Request) async throws -> Response {
        let (_, story) = try await find(request)
        let change = try request.decodeJSON(SpeakerChange.self)
        let line = try await line(request, story)
        var content = try self.content(story)
        var analysis = try requireAnalysis(content)
        if let speaker = change.speaker, analysis.character(id: speaker) == nil {
            throw APIError(status: .unprocessableEntity, code: "unknown_character", message: "No character '\(speaker)' in this story.")
        }
        analysis.segments[line.segment].speaker = change.speaker
        analysis.segments[line.segment].kind = change.speaker == nil ? .narration : .dialogue
        analysis.segments[line.segment].confidence = change.speaker == nil ? nil : 1
        content.analysis = Self.recountLines(analysis)
        return try await save(content, into: story, request)
    }

    @Sendable
    func segmentAudio(_ request: Request) async throws -> Response {
        let (_, story) = try await find(request)
        let narration = try await narration(for: story, request.db)
        return Response.wav(try await narration.utteranceAudio(try await line(request, story)))
    }

    // MARK: Export

    @Sendable
    func render(_ request: Request) async throws -> Response {
        let (user, story) = try await find(request)
        let body = try request.decodeJSON(RenderRequest.self)
        let format = body.format ?? "m4b"
        guard ["m4b", "mp3"].contains(format) else {
            throw APIError(status: .unprocessableEntity, code: "invalid_format", message: "Export as 'm4b' or 'mp3'.")
        }
        _ = try requireAnalysis(try content(story))
        let job = try await JobQueue(database: request.db).enqueue(
            kind: StoryJobs.render, payload: StoryJobs.Payload(story_id: try story.requireID(), format: format), ownerID: user.id)
        return try Response.json(JobSnapshot(job), status: .accepted)
    }

    @Sendable
    func download(_ request: Request) async throws -> Response {
        let (_, story) = try await find(request)
        guard let render = try content(story).render else {
            throw APIError(status: .notFound, code: "not_rendered", message: "This story has not been exported yet; export it first.")
        }
        let url = config.dataDirectory.url.appendingPathComponent(render.path)
        let response = try await request.fileio.asyncStreamFile(at: url.path, mediaType: render.format == "mp3"
            ? HTTPMediaType(type: "audio", subType: "mpeg") : HTTPMediaType(type: "audio", subType: "mp4"))
        let filename = Self.filename(story.title) + "." + render.format
        response.headers.replaceOrAdd(name: .contentDisposition, value: "attachment; filename=\"\(filename)\"")
        return response
    }

    // MARK: Helpers

    private func find(_ request: Request) async throws -> (AuthenticatedUser, StoryRecord) {
        let user = try request.requireUser()
        let id = try request.uuidParameter("id", what: "story")
        guard let story = try await StoryRepository(database: request.db).find(id: id, ownerID: user.id) else {
            throw APIError.notFound("story")
        }
        return (user, story)
    }

    private func content(_ story: StoryRecord) throws -> StoryContent {
        try StoryContent(story, dataDirectory: config.dataDirectory)
    }

    private func requireAnalysis(_ content: StoryContent) throws -> StoryAnalysis {
        guard let analysis = content.analysis else {
            throw APIError(status: .conflict, code: "not_analyzed", message: "Analyse the story first (POST /api/stories/{id}/analyze).")
        }
        return analysis
    }

    private func plan(_ story: StoryRecord, _ database: any Database) async throws -> [PlannedUtterance] {
        let narration = try await narration(for: story, database)
        let content = try self.content(story)
        let analysis = try requireAnalysis(content)
        let cast = await narration.cast(analysis, overrides: content.overrides)
        return narration.plan(content.document, analysis: analysis, cast: cast)
    }

    /// The story's narration pipeline: its owner's voices (their cloud keys unlock cloud
    /// voices) and its pronunciation lexicon.
    private func narration(for story: StoryRecord, _ database: any Database) async throws -> any NarrationService {
        try requireNarration(try await config.narration(for: story.$owner.id, database: database)).forStory(try content(story).overrides)
    }

    private func line(_ request: Request, _ story: StoryRecord) async throws -> PlannedUtterance {
        let lines = try await plan(story, request.db)
        guard let n = request.parameters.get("n").flatMap(Int.init), lines.indices.contains(n) else {
            throw APIError.notFound("segment")
        }
        return lines[n]
    }

    private func save(_ content: StoryContent, into story: StoryRecord, _ request: Request) async throws -> Response {
        if let analysis = content.analysis { try story.store(analysis: analysis) }
        try story.store(overrides: content.overrides)
        try await StoryRepository(database: request.db).save(story)
        return try Response.json(try await reply(story, request.db))
    }

    private func reply(_ story: StoryRecord, _ database: any Database) async throws -> AnalysisReply {
        let content = try self.content(story)
        var cast: Cast?
        if let analysis = content.analysis, let narration = try await config.narration(for: story.$owner.id, database: database) {
            cast = await narration.cast(analysis, overrides: content.overrides)
        }
        let id = try story.requireID().uuidString.lowercased()
        return AnalysisReply(
            state: story.analysisState, analysis: content.analysis, cast: cast, overrides: content.overrides,
            render: content.render.map {
                RenderInfo(format: $0.format, duration_seconds: $0.durationSeconds, rendered_at: $0.renderedAt, url: "/api/stories/\(id)/audio")
            })
    }

    static func recountLines(_ analysis: StoryAnalysis) -> StoryAnalysis {
        var analysis = analysis
        var counts: [String: Int] = [:]
        for segment in analysis.segments where segment.kind == .dialogue {
            if let speaker = segment.speaker { counts[speaker, default: 0] += 1 }
        }
        for index in analysis.characters.indices { analysis.characters[index].lines = counts[analysis.characters[index].id] ?? 0 }
        return analysis
    }

    static func validName(_ name: String) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= 120 else {
            throw APIError(status: .unprocessableEntity, code: "invalid_name", message: "A character's name needs 1 to 120 characters.")
        }
        return trimmed
    }

    static func optionalText(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : String(trimmed.prefix(300))
    }

    static func slice(_ text: String, _ start: Int, _ end: Int) -> String {
        let scalars = text.unicodeScalars
        guard let lower = scalars.index(scalars.startIndex, offsetBy: start, limitedBy: scalars.endIndex),
              let upper = scalars.index(scalars.startIndex, offsetBy: end, limitedBy: scalars.endIndex), lower <= upper else { return "" }
        return String(scalars[lower..<upper])
    }

    static func filename(_ title: String) -> String {
        let cleaned = title.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || $0 == " " || $0 == "-" }
        let name = String(String.UnicodeScalarView(cleaned)).trimmingCharacters(in: .whitespaces)
        return name.isEmpty ? "story" : String(name.prefix(80))
    }
}
