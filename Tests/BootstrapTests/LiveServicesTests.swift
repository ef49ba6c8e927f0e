import Bootstrap
import CallWorkflows
import ChatWorkflows
import Foundation
import JourneyWorkflows
import LanguageModels
import Persistence
import StoryWorkflows
import Testing

/// The one bootstrap: what `serve` and `worker` both build from an environment.
struct LiveServicesTests {
    static func scratch() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("bootstrap-\(UUID().uuidString)", isDirectory: true)
    }

    @Test("the registry holds every product's jobs where there are voices, and the others where there are none")
    func everyProductsJobs() async throws {
        let data = Self.scratch()
        defer { try? FileManager.default.removeItem(at: data) }
        let services = try await LiveServices.live(environment: ["STORYVOICE_DATA_DIR": data.path, "STORYVOICE_ENGINES": "espeak-ng"])
        #expect(Set(services.jobs().kinds) == [
            StoryJobs.analyze, StoryJobs.render, StoryJobs.suggestVoices, JourneyJobs.tell, JourneyJobs.export, ChatJobs.export,
            CallJobs.scheduled, CallJobs.storeNotification,
        ])
        var silent = services
        silent.narration = nil
        #expect(Set(silent.jobs().kinds) == [ChatJobs.export, CallJobs.scheduled, CallJobs.storeNotification])
    }

    @Test("the operator's prices reach model access (serve once priced with the built-in table)")
    func prices() async throws {
        let data = Self.scratch()
        defer { try? FileManager.default.removeItem(at: data) }
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let file = data.appendingPathComponent("my-prices.json")
        try Data(#"{"openai:gpt-4o-mini": {"input": 7, "output": 11}}"#.utf8).write(to: file)
        let services = try await LiveServices.live(environment: ["STORYVOICE_DATA_DIR": data.path, "STORYVOICE_ENGINES": "espeak-ng", "STORYVOICE_PRICES": file.path])
        #expect(services.models.prices.price(provider: .openai, model: "gpt-4o-mini") == ModelPrice(input: 7, output: 11))
    }

    @Test("a half-set store stops the process with what is missing, never falling back to one machine's disk")
    func halfSetStore() async throws {
        let data = Self.scratch()
        defer { try? FileManager.default.removeItem(at: data) }
        let environment = ["STORYVOICE_DATA_DIR": data.path, "STORYVOICE_ENGINES": "espeak-ng", "STORYVOICE_S3_ENDPOINT": "http://127.0.0.1:9", "STORYVOICE_S3_BUCKET": "b"]
        let error = await #expect(throws: SharedStoreUnusable.self) { _ = try await LiveServices.live(environment: environment) }
        #expect(error?.description.contains("STORYVOICE_S3_ACCESS_KEY, STORYVOICE_S3_SECRET_KEY missing") == true, "\(String(describing: error))")
    }
}
