import Foundation
import LanguageModels
import Logging
import StoryModel
import Synchronization

/// Improves an offline analysis with a language model: who speaks each uncertain line, and
/// evidence-backed character metadata. The story's text is never sent back or rewritten —
/// the result is the same segments with new labels.
///
/// ```swift
/// let analyzer = HybridAnalyzer(model: try factory.makeModel(spec), cache: cache, ledger: ledger)
/// let estimate = analyzer.estimate(document: doc, analysis: offline, mode: .hybrid)
/// let labelled = try await analyzer.label(document: doc, analysis: offline, mode: .hybrid)
/// ```
public struct HybridAnalyzer: Sendable {
    public let model: MeteredModel
    public let ledger: UsageLedger
    public let options: LabellingOptions
    let logger: Logger

    public init(
        model: any LanguageModel, cache: ResponseCache? = nil, ledger: UsageLedger = UsageLedger(),
        prices: PriceTable = .builtIn, options: LabellingOptions? = nil,
        logger: Logger = Logger(label: "storyvoice.analysis")
    ) {
        self.model = MeteredModel(model, cache: cache, ledger: ledger, prices: prices)
        self.ledger = ledger
        self.options = options ?? .defaults(for: model.provider)
        self.logger = logger
    }

    // MARK: Estimate

    /// What `label` would send for this story, and what it would cost, before sending anything.
    /// Requests whose answers are already cached are counted as free.
    public func estimate(document: StoryDocument, analysis: StoryAnalysis, mode: LabellingMode) -> CostEstimate {
        Self.estimate(
            document: document, analysis: analysis, mode: mode, provider: model.provider, model: model.model,
            options: options, prices: model.prices, cache: model.cache
        )
    }

    /// The estimate for any model, without a client (for "what would GPT-4o cost?").
    public static func estimate(
        document: StoryDocument, analysis: StoryAnalysis, mode: LabellingMode, model spec: ModelSpec,
        options: LabellingOptions? = nil, prices: PriceTable = .builtIn
    ) -> CostEstimate {
        estimate(document: document, analysis: analysis, mode: mode, provider: spec.provider, model: spec.model,
                 options: options ?? .defaults(for: spec.provider), prices: prices, cache: nil)
    }

    static func estimate(
        document: StoryDocument, analysis: StoryAnalysis, mode: LabellingMode, provider: Provider, model: String,
        options: LabellingOptions, prices: PriceTable, cache: ResponseCache?
    ) -> CostEstimate {
        let work = Work(document: document, analysis: analysis, mode: mode, options: options)
        var requests: [(CompletionRequest, String)] = work.plan.batches.map { batch in
            (work.labellingRequest(batch, roster: analysis.characters), SpanPrompt.typicalAnswer(batch: batch))
        }
        if options.enrichCharacters {
            for group in EnrichmentPrompt.groups(analysis.characters, options: options) {
                requests.append((work.enrichmentRequest(group, segments: analysis.segments), EnrichmentPrompt.typicalAnswer(group: group)))
            }
        }
        var usage = TokenUsage.zero
        var cached = 0
        for (request, answer) in requests {
            if let cache, cache.load(ResponseCache.key(for: request, provider: provider, model: model)) != nil {
                cached += 1
                continue
            }
            usage = usage + TokenUsage(inputTokens: TokenCount.approximate(request), outputTokens: TokenCount.approximate(answer))
        }
        return CostEstimate(
            provider: provider, model: model, mode: mode, requests: requests.count - cached, cachedRequests: cached,
            inputTokens: usage.inputTokens, outputTokens: usage.outputTokens,
            cost: prices.cost(of: usage, provider: provider, model: model),
            dialogueSegments: work.plan.dialogueCount, spansSent: work.plan.targetCount
        )
    }

    // MARK: Label

    /// Labels the story's dialogue (all of it, or only the uncertain part) and enriches its characters.
    ///
    /// An answer that names an unknown span or character, or is not valid JSON, is asked again
    /// once with the problem stated; if that fails too, the offline labels stand and `notes`
    /// says so. A request that fails for a transient reason (rate limit, server error, timeout)
    /// after the client's own retries is sent once more on its own. Other failures (a rejected
    /// key, no network) stop the run with an ``AnalysisError``; answers already received are in
    /// the response cache, so running again does not pay for them twice.
    public func label(
        document: StoryDocument, analysis: StoryAnalysis, mode: LabellingMode,
        progress: (@Sendable (LabellingProgress) -> Void)? = nil
    ) async throws -> LabelledAnalysis {
        let work = Work(document: document, analysis: analysis, mode: mode, options: options)
        var result = analysis
        var roster = RosterBuilder(characters: analysis.characters)
        var notes: [String] = []
        var modelLabelled: [Int] = []
        var fallbacks: [Int] = []
        let enrichmentGroupsEstimate = options.enrichCharacters ? EnrichmentPrompt.groups(analysis.characters, options: options).count : 0
        let counter = ProgressCounter(total: work.plan.batches.count + enrichmentGroupsEstimate, report: progress)

        logger.info("labelling speakers", metadata: [
            "story": "\(document.title)", "mode": "\(mode.rawValue)", "spans": "\(work.plan.targetCount)",
            "dialogue": "\(work.plan.dialogueCount)", "requests": "\(work.plan.batches.count)",
        ])

        // Waves of concurrent requests; characters discovered in one wave are in the next one's roster.
        var start = 0
        let batches = work.plan.batches
        while start < batches.count {
            let wave = Array(batches[start..<min(batches.count, start + options.concurrency)])
            start += wave.count
            let characters = roster.characters
            var outcomes: [Int: BatchOutcome] = [:]
            var transient: [Int] = []
            var refused: LanguageModelError?
            await withTaskGroup(of: (Int, Result<BatchOutcome, LanguageModelError>).self) { group in
                for (position, batch) in wave.enumerated() {
                    group.addTask { (position, await labelBatch(batch, work: work, roster: characters)) }
                }
                // A refusal stops the run only once the wave's other requests are answered: they
                // are paid for and cached, so a second run does not ask them again.
                for await (position, outcome) in group {
                    switch outcome {
                    case .success(let value):
                        outcomes[position] = value
                        counter.advance(step: Step.labelling)
                    case .failure(let error) where error.isTransient:
                        transient.append(position)
                    case .failure(let error):
                        refused = refused ?? error
                    }
                }
            }
            if let refused { throw AnalysisError(step: Step.labelling, story: document.title, underlying: refused) }
            // A chunk that failed for a passing reason is retried alone, after its wave.
            for position in transient.sorted() {
                logger.notice("retrying a failed chunk alone", metadata: ["chapter": "\(wave[position].title)"])
                switch await labelBatch(wave[position], work: work, roster: characters) {
                case .success(let value):
                    outcomes[position] = value
                    counter.advance(step: Step.labelling)
                case .failure(let error):
                    throw AnalysisError(step: Step.labelling, story: document.title, underlying: error)
                }
            }
            for position in wave.indices {
                switch outcomes[position]! {
                case .labels(let labels, let note):
                    if let note { notes.append(note) }
                    for (index, speaker) in labels.sorted(by: { $0.key < $1.key }) {
                        apply(speaker, to: index, in: &result.segments, roster: &roster)
                        modelLabelled.append(index)
                    }
                    let unanswered = wave[position].segments.filter { labels[$0] == nil }
                    if !unanswered.isEmpty {
                        fallbacks.append(contentsOf: unanswered)
                        notes.append("\(wave[position].title): the model gave no label for \(unanswered.count) span(s); their offline labels stand.")
                    }
                case .fallback(let problem):
                    fallbacks.append(contentsOf: wave[position].segments)
                    notes.append("\(wave[position].title): the model's answer was unusable twice (\(problem)); the offline labels of \(wave[position].segments.count) span(s) stand.")
                }
            }
        }
        result.characters = roster.characters
        result.recountLines()

        var profiles: [CharacterProfile] = []
        if options.enrichCharacters {
            let enrichment = try await enrich(work: work, analysis: result, counter: counter)
            profiles = enrichment.profiles
            notes.append(contentsOf: enrichment.notes)
            Self.apply(profiles, to: &result.characters)
        }

        return LabelledAnalysis(
            analysis: result, profiles: profiles, modelLabelled: modelLabelled.sorted(), fallbacks: fallbacks.sorted(),
            notes: notes, usage: await ledger.summary
        )
    }

    enum BatchOutcome: Sendable {
        case labels([Int: SpanPrompt.Speaker], note: String?)
        case fallback(String)

        /// Two halves' outcomes as one: the labels of both; a half whose answers were unusable
        /// adds none, so its spans keep their offline labels (and say so).
        func merged(with other: BatchOutcome, title: String) -> BatchOutcome {
            switch (self, other) {
            case (.fallback(let a), .fallback):
                return .fallback(a)
            case (.labels(let a, let noteA), .labels(let b, let noteB)):
                let notes = [noteA, noteB].compactMap { $0 }
                return .labels(a.merging(b) { first, _ in first }, note: notes.isEmpty ? nil : notes.joined(separator: " "))
            case (.labels(let labels, let note), .fallback(let problem)), (.fallback(let problem), .labels(let labels, let note)):
                let unusable = "\(title): part of the model's answer was unusable twice (\(problem))."
                return .labels(labels, note: [note, unusable].compactMap { $0 }.joined(separator: " "))
            }
        }
    }

    /// Labels a batch; one too long for the model's window is labelled in halves (a small local
    /// model reads 4,096 tokens, a request planned for cloud models may need more).
    private func labelBatch(_ batch: LabellingBatch, work: Work, roster: [Character]) async -> Result<BatchOutcome, LanguageModelError> {
        let outcome = await labelWhole(batch, work: work, roster: roster)
        guard case .failure(let error) = outcome, error.isTooLong else { return outcome }
        guard let (first, second) = batch.halves(start: { work.analysis.segments[$0].start }) else {
            // One span with its roster is still too long: it keeps its offline label.
            return .success(.fallback("the request is longer than the model reads"))
        }
        logger.notice("a request too long for the model is sent in halves", metadata: ["chapter": "\(batch.title)", "spans": "\(batch.segments.count)"])
        switch (await labelBatch(first, work: work, roster: roster), await labelBatch(second, work: work, roster: roster)) {
        case (.failure(let error), _), (_, .failure(let error)):
            return .failure(error)
        case (.success(let a), .success(let b)):
            return .success(a.merged(with: b, title: batch.title))
        }
    }

    private func labelWhole(_ batch: LabellingBatch, work: Work, roster: [Character]) async -> Result<BatchOutcome, LanguageModelError> {
        let ids = Set(roster.map(\.id))
        let visible = work.roster(for: batch, from: roster)
        var correction: String?
        for attempt in 1...2 {
            let request = SpanPrompt.request(batch: batch, text: work.text, segments: work.analysis.segments, chapters: work.chapters, roster: visible, title: work.document.title, correction: correction)
            let problem: String
            do {
                let response = try await model.complete(request, step: Step.labelling)
                switch SpanPrompt.parse(response.text, batch: batch, rosterIDs: ids) {
                case .success(let labels):
                    let note = attempt > 1 ? "\(batch.title): the first answer was unusable (\(correction ?? "")); the second was used." : nil
                    return .success(.labels(labels, note: note))
                case .failure(let failure):
                    problem = failure.description
                }
            } catch let error as LanguageModelError {
                guard case .unparseableAnswer = error.kind else { return .failure(error) }
                problem = error.detail ?? "the answer could not be read"
            } catch {
                return .failure(LanguageModelError(.unreachable, provider: model.provider, model: model.model, detail: "\(error)"))
            }
            logger.notice("unusable answer", metadata: ["chapter": "\(batch.title)", "attempt": "\(attempt)", "problem": "\(problem)"])
            correction = problem
        }
        return .success(.fallback(correction ?? "unusable answer"))
    }

    private func apply(_ speaker: SpanPrompt.Speaker, to index: Int, in segments: inout [Segment], roster: inout RosterBuilder) {
        switch speaker {
        case .narration:
            segments[index].kind = .narration
            segments[index].speaker = nil
            segments[index].confidence = nil
        case .character(let id):
            segments[index].speaker = id
            // The model's label carries no calibrated probability: unknown, not invented.
            segments[index].confidence = nil
        case .newCharacter(let name):
            segments[index].speaker = roster.id(forName: name)
            segments[index].confidence = nil
        }
    }

    // MARK: Enrichment

    private func enrich(work: Work, analysis: StoryAnalysis, counter: ProgressCounter) async throws -> (profiles: [CharacterProfile], notes: [String]) {
        let groups = EnrichmentPrompt.groups(analysis.characters, options: options)
        let evidence = EvidenceIndex(text: work.document.text)
        let results = try await withThrowingTaskGroup(of: (Int, [CharacterProfile], String?).self) { group in
            for (position, characters) in groups.enumerated() {
                group.addTask {
                    let outcome = try await enrichGroup(characters, work: work, segments: analysis.segments, evidence: evidence)
                    counter.advance(step: Step.enrichment)
                    return (position, outcome.profiles, outcome.note)
                }
            }
            var results: [(Int, [CharacterProfile], String?)] = []
            for try await result in group { results.append(result) }
            return results.sorted { $0.0 < $1.0 }
        }
        return (results.flatMap(\.1), results.compactMap(\.2))
    }

    /// Enriches a group; one whose request is too long for the model's window is enriched in
    /// halves, and a single character still too long keeps its metadata, with a note.
    private func enrichGroup(_ group: [Character], work: Work, segments: [Segment], evidence: EvidenceIndex) async throws -> (profiles: [CharacterProfile], note: String?) {
        do {
            return try await enrichWhole(group, work: work, segments: segments, evidence: evidence)
        } catch let error as AnalysisError {
            guard error.underlying.isTooLong else { throw error }
            guard group.count > 1 else {
                return ([], "Character metadata for \(group[0].name) is unchanged: the request is longer than the model reads.")
            }
            let middle = group.count / 2
            let first = try await enrichGroup(Array(group[..<middle]), work: work, segments: segments, evidence: evidence)
            let second = try await enrichGroup(Array(group[middle...]), work: work, segments: segments, evidence: evidence)
            let notes = [first.note, second.note].compactMap { $0 }
            return (first.profiles + second.profiles, notes.isEmpty ? nil : notes.joined(separator: " "))
        }
    }

    private func enrichWhole(_ group: [Character], work: Work, segments: [Segment], evidence: EvidenceIndex) async throws -> (profiles: [CharacterProfile], note: String?) {
        let request = work.enrichmentRequest(group, segments: segments)
        var lastProblem = ""
        for attempt in 1...2 {
            do {
                // The retry bypasses the cache: the stored answer is the unusable one.
                let response = try await model.complete(request, step: Step.enrichment, bypassCache: attempt > 1)
                switch EnrichmentPrompt.parse(response.text, group: group, evidence: evidence) {
                case .success(let parsed):
                    let note = parsed.dropped > 0
                        ? "Character metadata: \(parsed.dropped) label(s) for \(group.map(\.name).joined(separator: ", ")) were dropped because their evidence is not in the text."
                        : nil
                    return (parsed.profiles, note)
                case .failure(let problem):
                    lastProblem = problem.description
                }
            } catch let error as LanguageModelError {
                if case .unparseableAnswer = error.kind {
                    lastProblem = error.detail ?? "the answer could not be read"
                } else if error.isTransient, attempt == 1 {
                    lastProblem = error.description
                } else {
                    throw AnalysisError(step: Step.enrichment, story: work.document.title, underlying: error)
                }
            }
        }
        return ([], "Character metadata for \(group.map(\.name).joined(separator: ", ")) is unchanged: the model's answer was unusable twice (\(lastProblem)).")
    }

    static func apply(_ profiles: [CharacterProfile], to characters: inout [Character]) {
        for profile in profiles {
            guard let index = characters.firstIndex(where: { $0.id == profile.id }) else { continue }
            var character = characters[index]
            if let label = profile.gender, let gender = Gender(rawValue: label.value) {
                character.gender = gender
                character.genderConfidence = nil
                character.evidence[Character.EvidencedField.gender.rawValue] = label.evidence
            }
            if let label = profile.ageRange, let age = AgeRange(rawValue: label.value) {
                character.ageRange = age
                character.ageConfidence = nil
                character.evidence[Character.EvidencedField.ageRange.rawValue] = label.evidence
            }
            if let label = profile.accent {
                character.accent = label.value
                character.evidence[Character.EvidencedField.accent.rawValue] = label.evidence
            }
            if let label = profile.personality {
                character.personality = label.value
                character.evidence[Character.EvidencedField.personality.rawValue] = label.evidence
            }
            if let label = profile.description {
                character.description = label.value
                character.evidence[Character.EvidencedField.description.rawValue] = label.evidence
            }
            characters[index] = character
        }
    }
}

/// Everything derived once per run from the inputs.
struct Work: Sendable {
    let document: StoryDocument
    let analysis: StoryAnalysis
    let text: ScalarText
    let chapters: [Chapter]
    let plan: LabellingPlan
    let options: LabellingOptions
    /// Per chapter: the ids of characters named or speaking in it.
    let chapterCast: [Set<String>]

    init(document: StoryDocument, analysis: StoryAnalysis, mode: LabellingMode, options: LabellingOptions) {
        self.document = document
        self.analysis = analysis
        self.options = options
        text = ScalarText(document.text)
        chapters = LabellingPlan.chapters(document: document, analysis: analysis, textLength: text.count)
        plan = LabellingPlan(text: text, analysis: analysis, chapters: chapters, mode: mode, options: options)
        var cast = Array(repeating: Set<String>(), count: chapters.count)
        let needed = Set(plan.batches.flatMap(\.chapters))
        for chapter in needed {
            let body = text.string(chapters[chapter].start, chapters[chapter].end)
            for character in analysis.characters where ([character.name] + character.aliases).contains(where: { !$0.isEmpty && body.contains($0) }) {
                cast[chapter].insert(character.id)
            }
        }
        for segment in analysis.segments where segment.kind == .dialogue {
            guard let speaker = segment.speaker, let chapter = chapters.firstIndex(where: { segment.start < $0.end }) else { continue }
            cast[chapter].insert(speaker)
        }
        chapterCast = cast
    }

    /// The roster shown for a batch: the characters named or speaking in its chapter, and every
    /// character found by the model so far. Long books have long rosters; most never appear
    /// in a given chapter, and listing them costs tokens on every request.
    func roster(for batch: LabellingBatch, from roster: [Character]) -> [Character] {
        let offline = Set(analysis.characters.map(\.id))
        let cast = batch.chapters.reduce(into: Set<String>()) { $0.formUnion(chapterCast[$1]) }
        let visible = roster.filter { cast.contains($0.id) || !offline.contains($0.id) }
        return visible.isEmpty ? roster : visible
    }

    func labellingRequest(_ batch: LabellingBatch, roster: [Character]) -> CompletionRequest {
        SpanPrompt.request(batch: batch, text: text, segments: analysis.segments, chapters: chapters, roster: self.roster(for: batch, from: roster), title: document.title)
    }

    func enrichmentRequest(_ group: [Character], segments: [Segment]) -> CompletionRequest {
        EnrichmentPrompt.request(group: group, text: text, segments: segments, title: document.title, options: options)
    }
}

/// The roster as it grows: "new:<Name>" answers become characters with fresh ids, once per name.
struct RosterBuilder {
    private(set) var characters: [Character]

    init(characters: [Character]) {
        self.characters = characters
    }

    mutating func id(forName name: String) -> String {
        let wanted = name.lowercased()
        if let known = characters.first(where: { ([$0.name] + $0.aliases).contains { $0.lowercased() == wanted } }) {
            return known.id
        }
        let used = Set(characters.map(\.id))
        var number = characters.count + 1
        while used.contains("c\(number)") { number += 1 }
        let character = Character(id: "c\(number)", name: name)
        characters.append(character)
        return character.id
    }
}

/// Counts finished requests and reports them; safe to call from concurrent tasks.
final class ProgressCounter: Sendable {
    private let state: Mutex<Int>
    private let total: Int
    private let report: (@Sendable (LabellingProgress) -> Void)?

    init(total: Int, report: (@Sendable (LabellingProgress) -> Void)?) {
        self.state = Mutex(0)
        self.total = total
        self.report = report
    }

    func advance(step: String) {
        let done = state.withLock { count in
            count += 1
            return count
        }
        report?(LabellingProgress(step: step, completedRequests: done, totalRequests: total))
    }
}
