import Foundation
import Journeys
import LanguageModels
import VoiceChat

/// Openings written while the user looks at the plan, so that "Tell me a story" is heard at
/// once: the model on this machine needs seconds to read a part's prompt and write its first
/// sentence, and the plan screen gives it those seconds.
///
/// One opening per user, for exactly one request (trip, style, words, model): a different
/// choice replaces it, a journey started with the same one takes it (`take`), and an opening
/// nobody takes is dropped after `lifetime`. Only the model on this machine is asked ahead —
/// a guess never spends a user's paid tokens. The answer is the model's own, streamed as it
/// would have been for the teller; it is recorded so that the teller hears it from its start.
/// Its first sentences are voiced too (`voicedSentences`), in the chosen voice, so the teller
/// finds the first audio made.
public actor PreparedOpenings {
    struct Key: Hashable {
        var owner: UUID
        var model: String
        var voice: String
        /// The request without its priority: the same opening whenever it is asked.
        var request: CompletionRequest

        init(owner: UUID, model: String, voice: String, request: CompletionRequest) {
            (self.owner, self.model, self.voice) = (owner, model, voice)
            self.request = request.with(.background)
        }
    }

    /// An opening is due this soon after it is asked for: the user reads the plan for a few
    /// seconds, then presses "Tell me a story" and waits for it (the model on this machine takes
    /// it before background work, after live turns).
    public static let dueAfter: TimeInterval = 5

    /// Sentences voiced ahead: enough for the first seconds of audio.
    static let voicedSentences = 2

    private struct Entry {
        var key: Key
        var answer: RecordedAnswer
        var producer: Task<Void, Never>
    }

    private var entries: [UUID: Entry] = [:]
    /// The opening each user's last journey asked for, and when: a prepare that arrives after
    /// the journey it was for has started (a request overtaken by the start) is not written.
    private var started: [UUID: (key: Key, at: ContinuousClock.Instant)] = [:]
    /// The first sentences' audio, by owner and voice, then by the text spoken: being made, or
    /// made (nil when the voice failed).
    private var voiced: [VoicedKey: [String: Task<Data?, Never>]] = [:]

    struct VoicedKey: Hashable {
        var owner: UUID
        var voice: String
    }
    private let lifetime: Duration

    public init(lifetime: Duration = .seconds(600)) {
        self.lifetime = lifetime
    }

    /// Starts writing `request` with `model` for `owner`, replacing any other opening of theirs,
    /// and voicing its first sentences with `speak` (in `voice`); false when the same opening is
    /// already written or being written.
    @discardableResult
    /// `announcement`: the journey's spoken title (`JourneyAnnouncement`), voiced first.
    func prepare(
        owner: UUID, modelSpec: String, voice: String, request: CompletionRequest, using model: any LanguageModel,
        announcement: String? = nil, speak: @escaping @Sendable (String) async throws -> Data
    ) -> Bool {
        let key = Key(owner: owner, model: modelSpec, voice: voice, request: request)
        if entries[owner]?.key == key { return false }
        if let last = started[owner], last.key == key, ContinuousClock.now - last.at < lifetime { return false }
        entries[owner]?.producer.cancel()
        voiced = voiced.filter { $0.key.owner != owner }
        let answer = RecordedAnswer()
        let voicedKey = VoicedKey(owner: owner, voice: voice)
        let producer = Task.detached { [weak self] in
            var splitter = SentenceSplitter()
            var sentences = 0
            // Voiced beside the stream, one after another, so that the answer is recorded as
            // it comes: a teller that starts meanwhile reads the text at once and waits only
            // for the audio of a sentence already being made (`voicedSentence`).
            var previous: Task<Data?, Never>?
            if let announcement, let text = SpokenProse.speakable(announcement) {
                let voicing = Task<Data?, Never> { try? await speak(text) }
                previous = voicing
                await self?.keep(voicing, for: text, key: voicedKey)
            }
            do {
                for try await event in model.stream(request) {
                    await answer.append(event)
                    guard sentences < Self.voicedSentences, case .text(let piece) = event else { continue }
                    for sentence in splitter.add(piece) where sentences < Self.voicedSentences {
                        sentences += 1
                        // As the teller will speak it; a sentence it will not speak costs nothing.
                        guard let text = SpokenProse.speakable(sentence) else { continue }
                        let before = previous
                        let voicing = Task<Data?, Never> {
                            _ = await before?.value
                            return try? await speak(text)
                        }
                        previous = voicing
                        await self?.keep(voicing, for: text, key: voicedKey)
                    }
                }
                await answer.end(nil)
            } catch {
                await answer.end(error)
            }
        }
        entries[owner] = Entry(key: key, answer: answer, producer: producer)
        let lifetime = lifetime
        Task { [weak self] in
            try? await Task.sleep(for: lifetime)
            await self?.drop(owner: owner, answer: answer)
        }
        return true
    }

    /// The prepared answer to exactly this opening, replayed from its start and then followed
    /// live; nil when none was prepared. Taken once. Stopping the stream stops the model. An
    /// opening of the same user for other choices is dropped: they started another story, and
    /// the model on this machine, which answers one request at a time, is needed for it.
    func take(owner: UUID, modelSpec: String, voice: String, request: CompletionRequest) -> AsyncThrowingStream<CompletionEvent, any Error>? {
        let key = Key(owner: owner, model: modelSpec, voice: voice, request: request)
        started[owner] = (key, .now)
        guard let entry = entries[owner] else { return nil }
        entries[owner] = nil
        guard entry.key == key else {
            entry.producer.cancel()
            voiced = voiced.filter { $0.key.owner != owner }
            return nil
        }
        let answer = entry.answer, producer = entry.producer
        return AsyncThrowingStream { continuation in
            let reader = Task {
                var index = 0
                while true {
                    switch await answer.event(at: index) {
                    case .event(let event):
                        continuation.yield(event)
                        index += 1
                    case .finished:
                        return continuation.finish()
                    case .failed(let error):
                        return continuation.finish(throwing: error)
                    }
                }
            }
            continuation.onTermination = { _ in
                reader.cancel()
                producer.cancel()
            }
        }
    }

    /// The audio of `text` in `voice`, voiced ahead for `owner`'s opening (waited for while it
    /// is being made: voicing it again would queue behind it); taken once.
    func voicedSentence(owner: UUID, voice: String, text: String) async -> Data? {
        guard let voicing = voiced[VoicedKey(owner: owner, voice: voice)]?.removeValue(forKey: text) else { return nil }
        return await voicing.value
    }

    /// Whether `owner` has an opening waiting, and how many of its sentences are voiced (for
    /// tests and diagnostics).
    func hasOpening(for owner: UUID) -> Bool { entries[owner] != nil }
    func voicedCount(for owner: UUID) async -> Int {
        var count = 0
        for (key, sentences) in voiced where key.owner == owner {
            for voicing in sentences.values where await voicing.value != nil { count += 1 }
        }
        return count
    }

    private func keep(_ voicing: Task<Data?, Never>, for text: String, key: VoicedKey) {
        voiced[key, default: [:]][text] = voicing
    }

    private func drop(owner: UUID, answer: RecordedAnswer) {
        if let entry = entries[owner] {
            // A newer opening is left alone, with its audio.
            guard entry.answer === answer else { return }
            entry.producer.cancel()
            entries[owner] = nil
        }
        voiced = voiced.filter { $0.key.owner != owner }
    }
}

/// A streamed answer as it arrives, for a reader that comes later.
actor RecordedAnswer {
    enum Step: Sendable {
        case event(CompletionEvent)
        case finished
        case failed(any Error)
    }

    private var events: [CompletionEvent] = []
    private var ended = false
    private var failure: (any Error)?
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func append(_ event: CompletionEvent) {
        events.append(event)
        wake()
    }

    func end(_ error: (any Error)?) {
        ended = true
        failure = error
        wake()
    }

    /// Event `index`, waiting for it while the answer is still coming.
    func event(at index: Int) async -> Step {
        while index >= events.count, !ended {
            if Task.isCancelled { return .failed(CancellationError()) }
            await withCheckedContinuation { waiting.append($0) }
        }
        if index < events.count { return .event(events[index]) }
        return failure.map(Step.failed) ?? .finished
    }

    private func wake() {
        let resumed = waiting
        waiting = []
        for continuation in resumed { continuation.resume() }
    }
}
