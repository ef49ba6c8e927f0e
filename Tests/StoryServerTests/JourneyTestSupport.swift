import DatabaseTestSupport
import Foundation
import Jobs
import Journeys
import LanguageModels
@testable import StoryServer
import StoryWorkflows
import Testing
import TestSupport
import VaporTesting
import VendorHTTP

/// A journey's story from a loopback model in OpenAI's wire format: part 1 and part 2 streamed
/// sentence by sentence, the outline's acts and beats as the structured answers the teller asks
/// for. Each part is about 240 words, more than a part needs: none is written again for being
/// short, and the teller may stop it at its words.
enum JourneyModel {
    static let key = "sk-journey-0123456789abcdef"
    static let title = "The Lantern on the Fen"

    /// Ten sentences about `subject`, each naming the part, so a test can tell whose text it hears.
    static func prose(part: Int, subject: String) -> String {
        (1...10).map { n in
            "In part \(part) the \(subject) walked on past the old stone wall and the quiet water, sentence \(n) of the tale, and listened closely."
        }.joined(separator: " ")
    }

    static let partOne = prose(part: 1, subject: "lantern keeper")
    static let partTwo = prose(part: 2, subject: "ferry woman")

    static let handler: LoopbackServer.Handler = { request in
        let json = request.json
        let schemaName = json?["response_format"]?["json_schema"]?["name"]?.stringValue
        // The model on this machine is always asked to stream, even for structured answers.
        func answer(_ text: String) -> LoopbackReply {
            json?["stream"] == true ? VendorWire.streamed(.openai, pieces: [text], pause: .zero) : VendorWire.success(.openai, answer: text, for: request)
        }
        switch schemaName {
        case "story_outline":
            let acts = JSONValue.array((1...6).map { .string("In act \($0) the lantern keeper and the ferry woman cross the fen.") })
            let beats = JSONValue.array((2...5).map { .string("In part \($0) the ferry woman rows through the reeds.") })
            return answer(JSONValue.object(["title": .string(title), "part_1": "The lantern keeper sets out.", "acts": acts, "beats": beats]).canonicalText)
        case "story_beats":
            let beats = JSONValue.array((1...4).map { .string("Beat \($0): the ferry woman rows through the reeds.") })
            return answer(JSONValue.object(["beats": beats]).canonicalText)
        default:
            let user = json?["messages"]?.arrayValue?.last?["content"]?.stringValue ?? ""
            let text = user.contains("Write part 2") ? partTwo : partOne
            // Pieces that cut words and sentences, as a model's tokens do.
            var pieces: [String] = []
            var rest = Substring(text)
            while !rest.isEmpty {
                pieces.append(String(rest.prefix(23)))
                rest = rest.dropFirst(23)
            }
            return VendorWire.streamed(.openai, pieces: pieces, pause: .milliseconds(1))
        }
    }
}

/// A server with the local speech engines, the loopback model as the user's OpenAI (ada has a
/// key stored), and one in-process worker running the standard jobs, journeys' among them.
func withJourneyServer(
    _ backend: Backend = .sqlite,
    localModel: Bool = false,
    moreJobs: (@Sendable (inout JobHandlerRegistry) -> Void)? = nil,
    _ body: (Application, ServerConfig, String, LoopbackServer) async throws -> Void
) async throws {
    try await LoopbackServer.withServer(handler: JourneyModel.handler) { model in
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("storyvoice-journey-voices-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let narration = try await LocalNarration.make(dataDirectory: data)
        try await withServer(backend, adjust: { config in
            config.narration = narration
            config.models = ModelAccess(
                // With `localModel`, the loopback is also "the model on this machine" (`local`).
                factory: LanguageModelFactory(environment: ["OPENAI_BASE_URL": model.baseURL + "/v1"], timeout: loopbackTimeout, retry: RetryPolicy(maxAttempts: 1),
                                              local: localModel ? LoopbackLocalModel(baseURL: model.baseURL + "/v1") : nil),
                box: config.models.box, cacheDirectory: config.dataDirectory.url.appendingPathComponent("llm"))
            config.inProcessWorkers = 1
            config.workerConfiguration = JobWorker.Configuration(concurrency: 1, pollInterval: .milliseconds(20))
            if let moreJobs {
                var registry = config.standardJobHandlers()
                moreJobs(&registry)
                config.jobHandlers = registry
            }
        }) { app, config, _ in
            let ada = try await app.register("ada@example.com").access_token
            let keys = try await app.send(.PUT, "/api/settings", token: ada, json: #"{"api_keys":{"openai":"\#(JourneyModel.key)"}}"#)
            #expect(keys.status == .ok, "\(keys.body.string)")
            try await body(app, config, ada, model)
        }
    }
}

extension Application {
    /// Polls the journey until `done` holds for it (or ten minutes pass: a loaded machine).
    func waitForJourney(_ id: String, token: String, until done: (JSONValue) -> Bool) async throws -> JSONValue {
        let deadline = ContinuousClock.now + .seconds(600)
        while true {
            let reply = try await send(.GET, "/api/journeys/\(id)", token: token)
            let journey = try #require(reply.json, "\(reply.status) \(reply.body.string)")
            if done(journey) || ContinuousClock.now > deadline { return journey }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Polls the job until it has finished (succeeded, failed or cancelled).
    func waitForFinishedJob(_ id: String, token: String) async throws -> JSONValue {
        let deadline = ContinuousClock.now + .seconds(600)
        while true {
            let job = try #require(try await send(.GET, "/api/jobs/\(id)", token: token).json)
            if ["succeeded", "failed", "cancelled"].contains(job["status"]?.stringValue ?? "") || ContinuousClock.now > deadline { return job }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}

extension JSONValue {
    /// The journey's teller has finished: every part told (`complete`), or `failed`.
    static func finishedTelling(_ journey: JSONValue) -> Bool {
        ["complete", "failed"].contains(journey["status"]?.stringValue ?? "")
    }
}
