import Foundation
import LanguageModels
import Logging
import Synchronization
import TestSupport
import Testing
import VendorHTTP

@Suite("Whoever waits goes first: the model's scheduler")
struct ModelSchedulerTests {
    /// Starts a request that waits for its turn; its grant (in order) is recorded in `order`.
    private func queue(_ scheduler: ModelScheduler, _ priority: ModelPriority, name: String, order: Recorder) -> Task<Void, any Error> {
        Task {
            let grant = try await scheduler.acquire(priority)
            order.append(name)
            await scheduler.release(grant)
        }
    }

    private func waitUntil(_ scheduler: ModelScheduler, waiting count: Int) async {
        while await scheduler.snapshot.waiting.count < count { await Task.yield() }
    }

    @Test("a live turn goes before a due part, a due part before background work, and each asks the running one to step aside")
    func urgencyOrder() async throws {
        let scheduler = ModelScheduler(capacity: 1)
        let order = Recorder()
        let running = try await scheduler.acquire(.background(owner: "ada"))
        let background = queue(scheduler, .background(owner: "bob"), name: "background", order: order)
        await waitUntil(scheduler, waiting: 1)
        #expect(!running.preemption.isRequested, "background work does not push out background work")
        let due = queue(scheduler, .due(Date().addingTimeInterval(30), owner: "cy"), name: "due", order: order)
        await waitUntil(scheduler, waiting: 2)
        #expect(running.preemption.isRequested, "a due part asks background work to step aside")
        let live = queue(scheduler, .live(owner: "dee"), name: "live", order: order)
        await waitUntil(scheduler, waiting: 3)
        #expect(await scheduler.snapshot.preemptions == 1, "the one running was asked once")
        await scheduler.release(running)
        for task in [background, due, live] { try await task.value }
        #expect(order.names == ["live", "due", "background"])
    }

    @Test("background work is taken in turns across owners, and a part due far ahead is background work")
    func fairTurns() async throws {
        let scheduler = ModelScheduler(capacity: 1, dueHorizon: 60)
        let order = Recorder()
        let running = try await scheduler.acquire(.background(owner: "ada"))
        var tasks: [Task<Void, any Error>] = []
        for index in 1...3 {
            tasks.append(queue(scheduler, .background(owner: "ada"), name: "ada\(index)", order: order))
            await waitUntil(scheduler, waiting: index)
        }
        tasks.append(queue(scheduler, .due(Date().addingTimeInterval(3_600), owner: "bob"), name: "bob", order: order))
        await waitUntil(scheduler, waiting: 4)
        #expect(!running.preemption.isRequested, "a part due in an hour is no reason to stop anyone")
        await scheduler.release(running)
        for task in tasks { try await task.value }
        #expect(order.names == ["bob", "ada1", "ada2", "ada3"], "ada was served last, so bob goes next")
    }

    @Test("a part due beyond the horizon makes background work step aside once it comes within it")
    func dueComesNear() async throws {
        let scheduler = ModelScheduler(capacity: 1, dueHorizon: 60)
        let running = try await scheduler.acquire(.background(owner: "ada"))
        let order = Recorder()
        let due = queue(scheduler, .due(Date().addingTimeInterval(60.5), owner: "bob"), name: "due", order: order)
        await waitUntil(scheduler, waiting: 1)
        // Nothing else arrives: only the clock can bring the part within the horizon.
        let deadline = Date().addingTimeInterval(120)
        while !running.preemption.isRequested, Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(running.preemption.isRequested)
        await scheduler.release(running)
        try await due.value
        #expect(order.names == ["due"])
    }

    @Test("a request cancelled while it waits leaves the queue and the next one runs")
    func cancelledWaiter() async throws {
        let scheduler = ModelScheduler(capacity: 1)
        let order = Recorder()
        let running = try await scheduler.acquire(.background)
        let cancelled = queue(scheduler, .live(), name: "cancelled", order: order)
        await waitUntil(scheduler, waiting: 1)
        let next = queue(scheduler, .live(), name: "next", order: order)
        await waitUntil(scheduler, waiting: 2)
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        await scheduler.release(running)
        try await next.value
        #expect(order.names == ["next"])
        #expect(await scheduler.snapshot.waiting.isEmpty)
    }

    @Test("the model on this machine stops background work for a live turn, answers it, then goes on from the text written so far")
    func preemptsAndResumes() async throws {
        let gate = Gate()
        try await LoopbackServer.withServer(handler: { request in
            let body = request.json
            let messages = body?["messages"]?.arrayValue ?? []
            let user = messages.first { $0["role"]?.stringValue == "user" }?["content"]?.stringValue ?? ""
            if user == "Quick question" {
                return .events([chunk("Yes."), chunk(nil, finish: "stop"), "[DONE]"])
            }
            if messages.last?["role"]?.stringValue == "assistant" {
                return .events([chunk(" a time"), chunk(" there was a fox."), chunk(nil, finish: "stop"), "[DONE]"])
            }
            var reply = LoopbackReply.events([chunk("Once"), chunk(" upon"), chunk(" never sent"), chunk(nil, finish: "stop"), "[DONE]"])
            reply.beforePiece = { index in if index >= 2 { await gate.wait() } }
            return reply
        }) { server in
            let scheduler = ModelScheduler(capacity: 1)
            let model = LocalLanguageModel(
                host: LoopbackLocalModel(baseURL: server.baseURL + "/v1"), scheduler: scheduler,
                logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
            let (written, writtenInput) = AsyncStream.makeStream(of: String.self)
            let story = Task {
                var text = ""
                for try await event in model.stream(CompletionRequest(system: "Tell a story.", user: "Begin.", maxOutputTokens: 50, priority: .background(owner: "ada"))) {
                    if case .text(let piece) = event {
                        text += piece
                        writtenInput.yield(text)
                    }
                    if case .finished(let response) = event { return response }
                }
                throw CancellationError()
            }
            for await text in written where text == "Once upon" { break }
            let answer = try await model.complete(CompletionRequest(system: "Talk.", user: "Quick question", priority: .live(owner: "bob")))
            #expect(answer.text == "Yes.")
            let finished = try await story.value
            await gate.open()
            #expect(finished.text == "Once upon a time there was a fox.")
            let bodies = server.requests.compactMap(\.json)
            #expect(bodies.count == 3)
            let resumed = try #require(bodies.last)
            let last = resumed["messages"]?.arrayValue?.last
            #expect(last?["role"] == "assistant")
            #expect(last?["content"]?.stringValue == "Once upon")
            #expect(resumed["max_tokens"]?.intValue == 48, "the tokens already written count against the limit")
            #expect(await scheduler.snapshot.preemptions == 1)
        }
    }
}

/// Names in the order they were recorded.
final class Recorder: Sendable {
    private let storage = Mutex<[String]>([])
    func append(_ name: String) { storage.withLock { $0.append(name) } }
    var names: [String] { storage.withLock { $0 } }
}
