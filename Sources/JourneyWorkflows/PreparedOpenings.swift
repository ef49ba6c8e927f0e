import Foundation
import LanguageModels

/// Openings written while the user looks at the plan, so that "Tell me a story" is heard at
/// once: the model on this machine needs seconds to read a part's prompt and write its first
/// sentence, and the plan screen gives it those seconds.
///
/// One opening per user, for exactly one request (trip, style, words, model): a different
/// choice replaces it, a journey started with the same one takes it (`take`), and an opening
/// nobody takes is dropped after `lifetime`. Only the model on this machine is asked ahead —
/// a guess never spends a user's paid tokens. The answer is the model's own, streamed as it
/// would have been for the teller; it is recorded so that the teller hears it from its start.
public actor PreparedOpenings {
    struct Key: Hashable {
        var owner: UUID
        var model: String
        var request: CompletionRequest
    }

    private struct Entry {
        var key: Key
        var answer: RecordedAnswer
        var producer: Task<Void, Never>
    }

    private var entries: [UUID: Entry] = [:]
    private let lifetime: Duration

    public init(lifetime: Duration = .seconds(600)) {
        self.lifetime = lifetime
    }

    /// Starts writing `request` with `model` for `owner`, replacing any other opening of theirs;
    /// false when the same opening is already written or being written.
    @discardableResult
    func prepare(owner: UUID, modelSpec: String, request: CompletionRequest, using model: any LanguageModel) -> Bool {
        let key = Key(owner: owner, model: modelSpec, request: request)
        if entries[owner]?.key == key { return false }
        entries[owner]?.producer.cancel()
        let answer = RecordedAnswer()
        let producer = Task {
            do {
                for try await event in model.stream(request) { await answer.append(event) }
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
    func take(owner: UUID, modelSpec: String, request: CompletionRequest) -> AsyncThrowingStream<CompletionEvent, any Error>? {
        guard let entry = entries[owner] else { return nil }
        entries[owner] = nil
        guard entry.key == Key(owner: owner, model: modelSpec, request: request) else {
            entry.producer.cancel()
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

    /// Whether `owner` has an opening waiting (for tests and diagnostics).
    func hasOpening(for owner: UUID) -> Bool { entries[owner] != nil }

    private func drop(owner: UUID, answer: RecordedAnswer) {
        guard let entry = entries[owner], entry.answer === answer else { return }
        entry.producer.cancel()
        entries[owner] = nil
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
