import Audio
import Foundation
import Journeys
import LanguageModels
import Logging
import VendorHTTP
import VoiceChat

/// Writes and voices a journey's story one part at a time: part 1 straight from the trip and
/// the style (so that the listener hears it within seconds), part 2 from how it ended, then
/// the outline, and each part after from its beat and how the part before it ended. Each sentence is voiced and kept as soon as
/// the model finishes it, so a player can start a part that is still being written.
public struct JourneyTeller: Sendable {
    public var plan: JourneyPlan
    public var style: StoryStyle
    public var model: any LanguageModel
    /// One sentence as a WAV file's bytes.
    public var speak: @Sendable (String) async throws -> Data
    public var store: any JourneyStore
    /// Where the listener is (nil when nobody listens, as for `journey tell`): a part being heard
    /// is not thrown away and written again, and every request says when its part is due.
    public var listener: @Sendable () async -> ListenerPosition?
    /// Live turns (talk, calls) running or waiting at the model: each holds it before a part.
    public var liveTurns: @Sendable () async -> Int
    /// How fast the model has been making parts (shared by the journeys of this process).
    public var speeds: ModelSpeeds
    public var now: @Sendable () -> Date
    /// Tries per part before it is told from its beat.
    public var maxAttempts: Int
    /// Seconds to wait after failed try `n` (1, 2, …) before the next.
    public var backoff: @Sendable (Int) -> Double
    /// Part 1's answer already being written (prepared while the user looked at the plan:
    /// `PreparedOpenings`), used instead of asking the model again; asked only for the opening.
    public var prepared: @Sendable (CompletionRequest) async -> AsyncThrowingStream<CompletionEvent, any Error>?
    /// Seconds of story that must still be in hand after a planning request for it to be made
    /// (`PartDeadline`). A part's minute on the model this machine shares (the due times do not
    /// see the live turns still to come): beside a talker and a chat writer, planning on a thin
    /// buffer (the first outline, then the acts: a minute of the model over parts 3 and 4) left
    /// the listener waiting before parts 4 and 5 (2026-12-06). 0 for a model of one's own.
    public var planningMargin: Double
    /// Each part's deadline decision and how it came out: what an operator reads when a
    /// listener waited (`info`), and why a try failed (`warning`).
    public var logger: Logger

    public init(
        plan: JourneyPlan, style: StoryStyle, model: any LanguageModel, speak: @escaping @Sendable (String) async throws -> Data,
        store: any JourneyStore, listener: @escaping @Sendable () async -> ListenerPosition? = { nil },
        liveTurns: @escaping @Sendable () async -> Int = { 0 }, speeds: ModelSpeeds = .shared, now: @escaping @Sendable () -> Date = { Date() },
        maxAttempts: Int = 3, backoff: @escaping @Sendable (Int) -> Double = { min(30, 2 * pow(3, Double($0 - 1))) },
        prepared: @escaping @Sendable (CompletionRequest) async -> AsyncThrowingStream<CompletionEvent, any Error>? = { _ in nil },
        planningMargin: Double? = nil, logger: Logger = Logger(label: "storyvoice.journeys")
    ) {
        self.plan = plan
        self.style = style
        self.model = model
        self.speak = speak
        self.store = store
        self.listener = listener
        self.liveTurns = liveTurns
        self.speeds = speeds
        self.now = now
        self.maxAttempts = max(1, maxAttempts)
        self.backoff = backoff
        self.prepared = prepared
        self.planningMargin = planningMargin ?? Self.partSeconds(of: plan)
        self.logger = logger
    }

    var prompts: StoryPrompts { StoryPrompts(plan: plan, style: style) }

    /// What part 1 is asked with (its words at the plan's pace: nothing is measured yet), so
    /// that it can be asked ahead (`PreparedOpenings`).
    static func openingRequest(plan: JourneyPlan, style: StoryStyle) -> CompletionRequest {
        StoryPrompts(plan: plan, style: style).opening(words: JourneyPlanner.wordsPerPart(wordsPerMinute: plan.wordsPerMinute))
    }

    /// Makes part `number` ready (and whatever of the outline it needs). A part that fails
    /// `maxAttempts` times is told from its beat; only when there is nothing to tell from, or
    /// the voice itself fails, does this throw `JourneyTellError`.
    @discardableResult
    public func tell(part number: Int) async throws -> JourneyPart {
        var part = try await store.part(number) ?? JourneyPart(number: number)
        if part.status == .ready { return part }
        if number == 1, part.sentences.isEmpty { try await announce(into: &part) }
        var lastFailure = ""
        while part.attempts < maxAttempts {
            try Task.checkCancellation()
            do {
                let started = now()
                let written = try await write(&part)
                logger.info("journey part \(number) ready: \(written.words) words, \(Int(written.storySeconds)) s of story, in \(Int(now().timeIntervalSince(started))) s")
                return written
            } catch let error where !(error is CancellationError) && !Task.isCancelled {
                if case JourneyTellError.voiceFailed = error { throw error }
                lastFailure = "\(error)"
                logger.warning("journey part \(number) try \(part.attempts + 1) failed: \(lastFailure)")
                part.attempts += 1
                try await store.save(part)
                if part.attempts < maxAttempts { try await Task.sleep(for: .seconds(backoff(part.attempts))) }
            }
        }
        return try await fallback(&part, after: lastFailure)
    }

    /// One try: the outline it needs, then the text, voiced as it comes. A part that comes out
    /// as data is written again once; one that comes out short is gone on with once, from where
    /// it stopped (what was voiced is kept: the listener may be hearing it already).
    private func write(_ part: inout JourneyPart) async throws -> JourneyPart {
        let number = part.number
        // One read of the parts kept, for the words, the deadline, the last part's ending and the story's beginning.
        let kept = try await store.parts()
        let told = kept.filter { $0.number < number }
        let stored = try await store.outline()
        // A part that would be late is told without its planning request, and shorter if need be.
        let deadline = await deadline(for: number, words: wordsTarget(for: number, told: told), outline: stored, parts: kept)
        let words = deadline.words
        // The first parts are told from the story so far, the outline written once they are:
        // the listener of a short part 1 would otherwise wait for the outline's JSON too.
        let outline = number <= toldBeforeOutline || !deadline.plansFirst ? stored : try await outlineIfReadable(for: number)
        part.beat = outline?.beats[number] ?? part.beat
        let previous = told.last { $0.number == number - 1 }.map { Self.ending(of: $0.text) }
        let beginning = number == 1 ? nil : told.first { $0.number == 1 }.flatMap { Self.beginning(of: $0.text, unlessIn: previous) }
        let request = number == 1 ? Self.openingRequest(plan: plan, style: style)
            : prompts.part(number, outline: outline, beginning: beginning, previousEnding: previous, words: words)
        // Saying the story's beginning or the last part's ending again is no telling.
        let earlier = [beginning, previous].compactMap { $0 }.joined(separator: " ")
        let carry = await carryWords(after: number, words: words, parts: kept)
        await log(deadline, part: number, parts: kept, carry: carry)
        let written = try await writeText(&part, request: request, outline: outline, beginning: beginning, words: words, earlier: earlier, carry: carry)
        // What the next part needs of the outline is written once this part is ready, not
        // beside it: two requests at once, with a voice speaking, oversubscribe two cores (the
        // model once fell to 0.8 tokens a second so).
        await outlineAhead(of: number, outline: outline)
        return written
    }

    /// `earlier`: how the part before ended (the small model sometimes begins by saying it again);
    /// `carry`: words to read on into the next part's opening.
    private func writeText(_ part: inout JourneyPart, request: CompletionRequest, outline: StoryOutline?, beginning: String?, words: Int, earlier: String, carry: Int) async throws -> JourneyPart {
        let number = part.number
        var problem: String?
        if !part.storySentences.isEmpty {
            // Sentences kept already (the part before read on into this one, a try that failed
            // part-way, a teller that died): voiced, and perhaps being heard: go on from their end.
            problem = try await stream(prompts.continuation(number, outline: outline, beginning: beginning, soFar: Self.ending(of: part.text), words: max(20, words - part.words)), into: &part, words: words, earlier: earlier, carry: carry)
        } else {
            problem = try await stream(request, into: &part, words: words, earlier: earlier, carry: carry)
        }
        // A part that stopped short (the model on this machine ends an opening at 20–100 words
        // whatever it is asked) is gone on with once, from where it stopped: a part well short of
        // its minute leaves the story short of the trip, and the next part's make-up is capped.
        if part.words > 0, problem != nil || Double(part.words) < Self.fullShare * Double(words) {
            let more = prompts.continuation(number, outline: outline, beginning: beginning, soFar: Self.ending(of: part.text), words: max(20, words - part.words))
            problem = try await stream(more, into: &part, words: words, earlier: earlier, carry: carry)
            if part.words > 0 { problem = nil }
        } else if problem != nil {
            try await discardSentences(of: &part)
            problem = try await stream(request, into: &part, words: words, earlier: earlier, carry: carry)
            if part.words > 0, problem.map(Self.isWrongKind) == false { problem = nil }
        }
        if let problem { throw JourneyTellError.offText(part: number, problem) }
        return try await finish(&part, fallback: false)
    }

    /// A part this share of its words or more is long enough; one shorter is gone on with once.
    static let fullShare = 0.85

    /// Parts told before the outline is first written: two, or one in a story of two parts
    /// (whose title would otherwise never be written).
    var toldBeforeOutline: Int { max(1, min(2, plan.parts - 1)) }

    /// Writes, after part `number`, what the parts after it need: the first outline once the
    /// first parts are told; after that the acts' lines when they are not written yet, then the
    /// next part's beats when this part's window does not hold them. One request after each
    /// part, while the listener hears it. A failure here is the next part's to retry. Not when
    /// the next part would be late for it (`PartDeadline`): the model's time goes to the story,
    /// and the plan is caught up with once the story is ahead again.
    private func outlineAhead(of number: Int, outline: StoryOutline?) async {
        // A story told to its end without a plan (no time was ever in hand for one) still gets
        // its title, for the history and the audiobook: nobody waits on it any more.
        if number == plan.parts, number > 1, outline == nil {
            _ = try? await outlineReady(for: number, priority: .background)
            return
        }
        guard number >= toldBeforeOutline, number < plan.parts else { return }
        if let kept = try? await store.parts() {
            let next = await deadline(for: number + 1, words: wordsTarget(for: number + 1, told: kept.filter { $0.number <= number }), outline: outline, parts: kept,
                                      planningLines: planningLines(for: number + 1, outline: outline, acts: outline?.actSummaries.isEmpty == true))
            guard next.plansFirst else { return }
        }
        guard var outline else {
            _ = try? await outlineReady(for: number + 1)
            return
        }
        if outline.actSummaries.isEmpty, let lines = try? await actLines(outline, for: number + 1) {
            outline.actSummaries = lines
        }
        guard outline.beatsToWrite(for: number + 1, parts: plan.parts) != nil else { return }
        _ = try? await outlineReady(for: number + 1)
    }

    /// The acts' lines, written and kept (nil when the model's answer cannot be read), and the
    /// title when the story has none yet. Due when part `due` is.
    private func actLines(_ outline: StoryOutline, for due: Int) async throws -> [String]? {
        let count = StoryArc.acts(parts: plan.parts).count
        let answer = try await model.complete(prompts.actLines(outline).with(await priority(for: due)))
        guard let lines = StoryAnswers.actLines(answer.text, count: count) else { return nil }
        guard var stored = try await store.outline() else { return nil }
        stored.actSummaries = lines
        if stored.title.isEmpty, let json = JSONValue(parsing: answer.text) {
            stored.title = StoryAnswers.title(in: json, source: stored.beats.values.joined(separator: "\n")) ?? ""
        }
        try await store.save(stored)
        return lines
    }

    /// Streams the answer, voicing each finished sentence; returns what is wrong with the whole.
    /// A part ends at the first sentence end past its words (the last part, which must end the
    /// story, may run to half as long again): a story that runs long would outlast the trip,
    /// and the next part goes on from wherever this one stops. The answer is read ahead of the
    /// voice (`PartReader`), so the model stops once the text has its words.
    /// `carry`: words to read on past the part's end into the next part's opening, voiced and
    /// kept there (when the next part would start late: `PartDeadline.carryWords`).
    private func stream(_ request: CompletionRequest, into part: inout JourneyPart, words: Int, earlier: String, carry: Int = 0) async throws -> String? {
        let enough = part.number == plan.parts ? words * 3 / 2 : words
        let isOpening = part.number == 1 && request == Self.openingRequest(plan: plan, style: style)
        var next = carry > 0 ? try await store.part(part.number + 1) ?? JourneyPart(number: part.number + 1) : nil
        // Only into a part not begun: a part with sentences of its own goes on from them.
        if next?.sentences.isEmpty == false || next?.status == .ready { next = nil }
        let reader = PartReader(prompt: request.user, sentences: part.storySentences.map(\.text), enough: enough, earlier: earlier, carry: next == nil ? 0 : carry)
        // Asked when the part is due: the model on this machine takes the most urgent request first.
        let asked = request.with(await priority(for: part.number))
        let answer: @Sendable () async -> AsyncThrowingStream<CompletionEvent, any Error> = { [model, prepared] in
            (isOpening ? await prepared(request) : nil) ?? model.stream(asked)
        }
        let start = now()
        var first: (at: Date, words: Int)?, last = start
        var ended = "the model ended its answer"
        for try await output in Self.read(answer, with: reader) {
            switch output {
            case .sentence(let sentence):
                try await voice(sentence, into: &part)
                last = now()
                if first == nil { first = (last, part.words) }
            case .carried(let sentence):
                if var opening = next {
                    try await voice(sentence, into: &opening)
                    next = opening
                }
            case .data: return Self.data
            case .refusal: return Self.refusal
            case .stop(let reason): ended = "\(reason)"
            }
        }
        if part.words < enough {
            logger.info("journey part \(part.number): the answer stopped at \(part.words) of \(enough) words: \(ended)")
        }
        // The model's pace as the listener meets it (an opening prepared ahead says nothing of it).
        if !isOpening, let first,
           let sample = ModelPace.measured(firstSentence: first.at.timeIntervalSince(start), words: part.words - first.words, seconds: last.timeIntervalSince(first.at)) {
            await speeds.record(sample, for: modelKey)
        }
        return SpokenProse.problem(with: part.text, targetWords: words)
    }

    /// The answer's sentences as the model writes them, read in a task of their own so that
    /// the voice's pace does not hold the model back; ends at `.stop`. The task alone holds the
    /// answer's stream, so the model's request is cancelled as soon as it ends: a stream someone
    /// still holds goes on (the model wrote on until the part's last sentence was voiced).
    static func read(
        _ answer: @escaping @Sendable () async -> AsyncThrowingStream<CompletionEvent, any Error>, with reader: PartReader
    ) -> AsyncThrowingStream<PartReader.Output, any Error> {
        .producing { yield in
            var reader = reader
            reading: for try await event in await answer() {
                switch event {
                case .text(let piece):
                    for output in reader.add(piece) {
                        yield(output)
                        switch output {
                        case .sentence, .carried: continue
                        default: break reading
                        }
                    }
                case .finished:
                    if let rest = reader.finish() { yield(rest) }
                }
            }
        }
    }

    static let data = "the part is data, not prose"
    static let refusal = "the model refused to tell it"

    /// Problems that no amount of going on fixes.
    static func isWrongKind(_ problem: String) -> Bool {
        problem == data || problem == refusal
    }

    /// The journey's spoken title, first in part 1: heard while the model reads the opening's prompt.
    private func announce(into part: inout JourneyPart) async throws {
        try await voice(JourneyAnnouncement.text(for: plan, style: style), into: &part, isAnnouncement: true)
    }

    private func voice(_ sentence: String, into part: inout JourneyPart, isAnnouncement: Bool = false) async throws {
        guard let text = SpokenProse.speakable(sentence) else { return }
        let wav: Data
        do {
            wav = try await speak(text)
        } catch let error where !(error is CancellationError) {
            throw JourneyTellError.voiceFailed("\(error)")
        }
        let duration = (try? WAV.decode(wav).durationSeconds) ?? 0
        let file = try await store.writeAudio(wav, part: part.number, sentence: part.sentences.count)
        part.sentences.append(PartSentence(text: text, file: file, durationSeconds: duration, isAnnouncement: isAnnouncement))
        try await store.save(part)
    }

    /// The story's sentences, thrown away (the announcement stays: it is still true).
    private func discardSentences(of part: inout JourneyPart) async throws {
        let story = part.storySentences
        guard !story.isEmpty else { return }
        try await store.removeAudio(story.map(\.file))
        part.sentences.removeAll { !$0.isAnnouncement }
        try await store.save(part)
    }

    private func finish(_ part: inout JourneyPart, fallback: Bool) async throws -> JourneyPart {
        part.status = .ready
        part.fallback = fallback
        try await store.save(part)
        return part
    }

    /// The part told from its beat (or, with no beat, its act's summary) after the model failed.
    private func fallback(_ part: inout JourneyPart, after failure: String) async throws -> JourneyPart {
        var outline = try? await store.outline()
        if part.beat == nil, outline?.beats[part.number] == nil {
            // A part told before the outline (a model that refuses prose may still plan).
            outline = try? await outlineReady(for: part.number)
        }
        guard let text = part.beat ?? outline?.beats[part.number] ?? outline?.actSummary(ofPart: part.number, parts: plan.parts) else {
            throw JourneyTellError.cannotGoOn(part: part.number, failure)
        }
        try await discardSentences(of: &part)
        try await voice(text, into: &part)
        return try await finish(&part, fallback: true)
    }

    // MARK: The outline

    /// The outline for part `number`, or nil when the model's answer for it cannot be read: the
    /// part is then written from the stage it is in and how the part before it ended, so the
    /// story goes on (a small model sometimes runs its JSON past the token limit). Any other
    /// failure (the model unreachable) fails the try as before.
    func outlineIfReadable(for number: Int) async throws -> StoryOutline? {
        do {
            return try await outlineReady(for: number)
        } catch JourneyTellError.unreadableOutline {
            return try await store.outline()
        }
    }

    /// The outline with a beat for `number`: the acts written first if they are not yet (from
    /// part 1 as told), then the next window of beats.
    func outlineReady(for number: Int, priority asked: ModelPriority? = nil) async throws -> StoryOutline {
        let urgency = if let asked { asked } else { await priority(for: number) }
        var outline: StoryOutline
        if let stored = try await store.outline() {
            outline = stored
        } else {
            let toldTexts = try await toldBefore(number)
            // The title and the next two beats only: the listener is waiting for the next part.
            // The acts' lines are written after it, the next beats after the one after (`outlineAhead`).
            let act = StoryArc.act(ofPart: number, parts: plan.parts)
            let window = number...min(act.parts.upperBound, number + 1)
            let toldParts = StoryPrompts.toldParts(toldTexts.count, before: window)
            let answer = try await model.complete(prompts.firstOutline(told: toldTexts, beats: window).with(urgency))
            // A line must not copy the story it sums up (the small model did, more often than not).
            let story = toldTexts.joined(separator: "\n")
            guard let answered = StoryAnswers.firstOutline(answer.text, parts: Array(toldParts) + Array(window), source: story) else {
                throw JourneyTellError.unreadableOutline("the outline came back as \(answer.text.prefix(120).debugDescription)")
            }
            outline = StoryOutline(title: answered.title, actSummaries: [], beats: answered.lines.usable,
                                   unplanned: answered.lines.unusable.filter(window.contains))
            try await store.save(outline)
            for number in toldParts {
                if var told = try await store.part(number), told.beat == nil, let line = answered.lines.usable[number] {
                    told.beat = line
                    try await store.save(told)
                }
            }
        }
        if let window = outline.beatsToWrite(for: number, parts: plan.parts) {
            let answer = try await model.complete(prompts.beats(window, outline: outline).with(urgency))
            guard let beats = StoryAnswers.beats(answer.text, parts: window, source: prompts.unoriginal(beats: window, outline: outline)) else {
                throw JourneyTellError.unreadableOutline("the beats came back as \(answer.text.prefix(120).debugDescription)")
            }
            outline.beats.merge(beats.usable) { _, new in new }
            outline.unplanned.formUnion(beats.unusable)
            try await store.save(outline)
        }
        return outline
    }

    /// How the parts told just before `number` end (their last ~80 words: what the outline
    /// needs to go on from, at a third of the reading of their whole texts): the run of ready
    /// parts that ends there, at most three (a listener who skipped ahead left the rest untold).
    private func toldBefore(_ number: Int) async throws -> [String] {
        let ready = Dictionary(try await store.parts().filter { $0.status == .ready }.map { ($0.number, $0.text) }) { first, _ in first }
        var texts: [String] = []
        var part = number - 1
        while part >= 1, texts.count < 3, let text = ready[part] {
            texts.insert(Self.ending(of: text, words: 80), at: 0)
            part -= 1
        }
        return texts
    }

    // MARK: When parts are due

    /// The part the listener is in (0 when nobody listens).
    func playhead() async -> Int {
        await listener()?.part ?? 0
    }

    /// When the listener reaches each part, from what is kept; nil when nobody listens.
    func schedule(_ parts: [JourneyPart]) async -> ListeningSchedule? {
        guard let position = await listener(), position.part > 0 else { return nil }
        let audio = Dictionary(parts.map { ($0.number, PartAudio(isReady: $0.status == .ready, sentenceSeconds: $0.sentences.map(\.durationSeconds))) }) { first, _ in first }
        return ListeningSchedule(listener: position, parts: audio, partSeconds: partSeconds)
    }

    /// What a request for part `number` (or for the plan it needs) says to the model: due when
    /// the listener reaches the part (now, for the part they are in), or background work when
    /// nobody listens. The user's model adds the owner.
    func priority(for number: Int) async -> ModelPriority {
        let parts = (try? await store.parts()) ?? []
        guard let schedule = await schedule(parts) else { return .background }
        return .due(now().addingTimeInterval(schedule.secondsUntil(part: number)))
    }

    /// Whether part `number`, of `words` words, will be in time for its listener, and how to
    /// tell it if not (`PartDeadline`: without its planning request, or as a shorter bridge).
    func deadline(for number: Int, words: Int, outline: StoryOutline?, parts: [JourneyPart], planningLines: Int? = nil) async -> PartDeadline.Decision {
        let due = await schedule(parts)?.secondsUntil(part: number)
        let pace = await speeds.pace(for: modelKey)
        let lines = planningLines ?? self.planningLines(for: number, outline: outline)
        return PartDeadline.decide(
            secondsUntilDue: due, words: words, minimumWords: Self.bridgeWords(words), spokenWordsPerSecond: spokenWordsPerMinute(parts) / 60,
            pace: pace, planningSeconds: PartDeadline.planningSeconds(lines: lines, pace: pace), waitSeconds: Double(await liveTurns()) * Self.liveTurnSeconds,
            planningMargin: planningMargin)
    }

    /// A part's planned seconds.
    var partSeconds: Double { Self.partSeconds(of: plan) }

    static func partSeconds(of plan: JourneyPlan) -> Double {
        plan.storySeconds / Double(max(1, plan.parts))
    }

    /// One line for each part asked: when it is due and what was decided for it.
    private func log(_ decision: PartDeadline.Decision, part number: Int, parts: [JourneyPart], carry: Int) async {
        // The listener's position is read again only when the line is written (not at the default level).
        guard logger.logLevel <= .info, let due = await schedule(parts)?.secondsUntil(part: number) else { return }
        let pace = await speeds.pace(for: modelKey)
        var line = "journey part \(number) asked: due in \(Int(due)) s, \(decision.words) words"
        if decision.isBridge { line += " (a bridge)" }
        if !decision.plansFirst { line += ", without its plan" }
        if decision.lateBy > 0 { line += ", late by \(Int(decision.lateBy)) s" }
        if carry > 0 { line += ", \(carry) words carried into the next part" }
        line += String(format: "; model pace %.1f s to a first sentence, %.1f words a second; %d live turns", pace.firstSentenceSeconds, pace.wordsPerSecond, await liveTurns())
        logger.info("\(line)")
    }

    /// Words to read on past part `number`'s end into the next part's opening: when the next
    /// part would start after the listener reaches it (`PartDeadline.carryWords`).
    func carryWords(after number: Int, words: Int, parts: [JourneyPart]) async -> Int {
        guard number < plan.parts, let schedule = await schedule(parts) else { return 0 }
        return PartDeadline.carryWords(
            secondsUntilDue: schedule.secondsUntil(part: number), words: words, spokenWordsPerSecond: spokenWordsPerMinute(parts) / 60,
            pace: await speeds.pace(for: modelKey), waitSeconds: Double(await liveTurns()) * Self.liveTurnSeconds)
    }

    /// The lines of plan part `number` waits for: the first outline's (its told parts' and two
    /// beats), its beats' window, and the acts' lines when `acts` (written ahead, after a part).
    func planningLines(for number: Int, outline: StoryOutline?, acts: Bool = false) -> Int {
        guard number > toldBeforeOutline else { return 0 }
        guard let outline else { return min(3, number - 1) + 2 }
        let beats = outline.beatsToWrite(for: number, parts: plan.parts)?.count ?? 0
        return beats + (acts ? StoryArc.acts(parts: plan.parts).count : 0)
    }

    /// A live turn's hold on the model (a spoken answer of a sentence or three).
    static let liveTurnSeconds = 10.0

    /// A bridge's fewest words: a third of the part, and at least a few sentences.
    static func bridgeWords(_ words: Int) -> Int {
        max(25, words / 3)
    }

    /// The voice's pace as measured on the last ready part (else the plan's).
    private func spokenWordsPerMinute(_ parts: [JourneyPart]) -> Double {
        parts.last { $0.status == .ready && !$0.fallback }.flatMap(Self.pace(of:)) ?? plan.wordsPerMinute
    }

    /// The model's name among the speeds measured.
    var modelKey: String { "\(model.provider.rawValue):\(model.model)" }

    // MARK: Pace

    /// Words for part `number`: the voice's pace as measured on the part before it (else the
    /// plan's), for the time that brings the story back to a minute a part: a part that came out
    /// short makes the next one longer, so the story lasts the trip (held to 30–90 s a part).
    /// `earlier`: the parts kept before it, in order.
    func wordsTarget(for number: Int, told earlier: [JourneyPart]) -> Int {
        var pace = plan.wordsPerMinute
        guard number > 1 else { return Self.words(pace: pace, seconds: 60) }
        if let previous = earlier.last, previous.number == number - 1, previous.status == .ready, !previous.fallback,
           let measured = Self.pace(of: previous) {
            pace = measured
        }
        // A part not kept (none should be) counts as its minute.
        let told = earlier.reduce(0) { $0 + $1.durationSeconds } + Double(number - 1 - earlier.count) * 60
        return Self.words(pace: pace, seconds: Double(number) * 60 - told)
    }

    /// Words at `pace` for `seconds` of story, held to 30–90 s.
    static func words(pace: Double, seconds: Double) -> Int {
        JourneyPlanner.wordsPerPart(wordsPerMinute: pace * min(90, max(30, seconds)) / 60)
    }

    /// Words a minute in a told part, when it is long enough to say (clamped to human speech).
    static func pace(of part: JourneyPart) -> Double? {
        let seconds = part.storySeconds
        guard part.words >= 30, seconds >= 10 else { return nil }
        return min(220, max(90, Double(part.words) / seconds * 60))
    }

    /// The story's first sentences, to about `words` words: who it is about and where, which the
    /// last part's ending often does not say (a part told from an ending without the hero's
    /// name named her anew: Elara became Alice). Nil when `ending` already holds them.
    static func beginning(of text: String, words: Int = 40, unlessIn ending: String?) -> String? {
        var kept: [String] = []
        var count = 0
        for sentence in SentenceSplitter.sentences(of: text) where count < words {
            kept.append(sentence)
            count += SpokenProse.wordCount(sentence)
        }
        let beginning = kept.joined(separator: " ")
        guard !beginning.isEmpty else { return nil }
        if let ending, SpokenProse.fingerprint(ending).contains(SpokenProse.fingerprint(beginning)) { return nil }
        return beginning
    }

    /// The last sentences of a part, up to about 60 words: enough for the next to go on from.
    static func ending(of text: String, words: Int = 60) -> String {
        let all = text.split(separator: " ")
        return all.suffix(words).joined(separator: " ")
    }
}

extension CompletionRequest {
    /// This request, asked with `priority`.
    func with(_ priority: ModelPriority) -> CompletionRequest {
        var request = self
        request.priority = priority
        return request
    }
}

/// Why a journey's story cannot go on.
public enum JourneyTellError: Error, Sendable, CustomStringConvertible {
    case offText(part: Int, String)
    case unreadableOutline(String)
    case voiceFailed(String)
    case cannotGoOn(part: Int, String)

    public var description: String {
        switch self {
        case .offText(let part, let problem): "Part \(part) came out wrong: \(problem)."
        case .unreadableOutline(let detail): "The story's outline could not be read: \(detail)."
        case .voiceFailed(let detail): "The voice could not speak the story: \(detail). Choose another voice and start the journey again."
        case .cannotGoOn(let part, let failure): "Part \(part) could not be written (\(failure)), and there is no outline to tell it from. Try another model, or start the journey again."
        }
    }
}
