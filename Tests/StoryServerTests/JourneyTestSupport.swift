import DatabaseTestSupport
import Foundation
import ObjectStorage
import Jobs
import Journeys
import LanguageModels
import Platform
@testable import StoryServer
import StoryWorkflows
import Testing
import TestSupport
import VaporTesting
import VendorHTTP

/// A server with the local speech engines, the loopback model as the user's OpenAI (ada has a
/// key stored), and one in-process worker running the standard jobs, journeys' among them.
func withJourneyServer(
    _ backend: Backend = .sqlite,
    localModel: Bool = false,
    artifacts: (any ArtifactStore)? = nil,
    moreJobs: (@Sendable (inout JobHandlerRegistry) -> Void)? = nil,
    _ body: (Application, ServerConfig, String, LoopbackServer) async throws -> Void
) async throws {
    try await LoopbackServer.withServer(handler: JourneyModel.handler) { model in
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("storyvoice-journey-voices-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let narration = try await LocalNarration.make(dataDirectory: data)
        try await withServer(backend, adjust: { config in
            config.narration = narration
            if let artifacts { config.artifacts = artifacts }
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
