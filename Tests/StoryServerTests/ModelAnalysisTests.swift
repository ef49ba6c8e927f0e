import DatabaseTestSupport
import Foundation
import LanguageModels
import Platform
@testable import StoryServer
import StoryWorkflows
import Testing
import TestSupport
import VaporTesting
import VendorHTTP

/// The web app's "use my own model": the user's stored key, a loopback server speaking OpenAI's
/// Chat Completions wire format, estimates before sending, and failures that lose nothing.
@Suite("Analysis and voices with the user's model")
struct ModelAnalysisTests {
    static let key = "sk-user-stored-0123456789abcdef"

    /// A narration server whose models go to `model` (OpenAI's base URL), with Ada signed in,
    /// her key stored, and the sample story analysed offline.
    func withModelServer(
        _ handler: @escaping LoopbackServer.Handler,
        _ body: (Application, ServerConfig, LoopbackServer, String, UUID) async throws -> Void
    ) async throws {
        try await LoopbackServer.withServer(handler: handler) { model in
            try await withNarrationServer(adjust: { config in
                config.models = ModelAccess(
                    factory: LanguageModelFactory(environment: ["OPENAI_BASE_URL": model.baseURL + "/v1"], timeout: loopbackTimeout, retry: RetryPolicy(maxAttempts: 1)),
                    box: config.models.box, cacheDirectory: config.dataDirectory.url.appendingPathComponent("llm"))
            }) { app, config, _ in
                let ada = try await app.register("ada@example.com").access_token
                let saved = try await app.send(.PUT, "/api/settings", token: ada, json: #"{"api_keys":{"openai":"\#(Self.key)"}}"#)
                #expect(saved.status == .ok, "\(saved.body.string)")
                let story = try await app.analyzedSample(ada, config)
                try await body(app, config, model, ada, story)
            }
        }
    }

    @Test("the estimate prices both modes and sends nothing")
    func estimate() async throws {
        try await withModelServer({ _ in LoopbackReply(status: 500, json: ["error": "unexpected"]) }) { app, _, model, ada, story in
            let reply = try await app.send(.POST, "/api/stories/\(story)/analyze/estimate", token: ada, json: #"{"llm":"openai:gpt-4o-mini"}"#)
            #expect(reply.status == .ok, "\(reply.body.string)")
            struct Estimates: Decodable {
                struct Mode: Decodable { var mode: String; var dialogue_lines: Int; var lines_sent: Int; var input_tokens: Int; var cost_usd: Double? }
                var estimates: [Mode]
            }
            let modes = Dictionary(uniqueKeysWithValues: try reply.content.decode(Estimates.self).estimates.map { ($0.mode, $0) })
            let hybrid = try #require(modes["hybrid"]), full = try #require(modes["full"])
            #expect(full.lines_sent == full.dialogue_lines && full.dialogue_lines > 20)
            #expect(hybrid.lines_sent < full.lines_sent)
            #expect(hybrid.input_tokens < full.input_tokens)
            #expect((full.cost_usd ?? 0) > 0)
            #expect(model.requests.isEmpty)
        }
    }

    @Test("the price table is editable: the data directory's prices.json, or the file STORYVOICE_PRICES names")
    func editablePrices() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("prices-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: data) }
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let environment = ["STORYVOICE_DATA_DIR": data.path]
        let publicDirectory = data.appendingPathComponent("Public")
        #expect(try ServerConfig.fromEnvironment(environment, publicDirectory: publicDirectory).models.prices == .builtIn)

        try Data(#"{"openai:gpt-4o-mini": {"input": 9, "output": 18}}"#.utf8).write(to: data.appendingPathComponent("prices.json"))
        let edited = try ServerConfig.fromEnvironment(environment, publicDirectory: publicDirectory).models.prices
        #expect(edited.price(provider: .openai, model: "gpt-4o-mini") == ModelPrice(input: 9, output: 18))
        #expect(edited.price(provider: .openai, model: "gpt-4o") == PriceTable.builtIn.price(provider: .openai, model: "gpt-4o"))

        let broken = data.appendingPathComponent("broken.json")
        try Data("not json".utf8).write(to: broken)
        var withBroken = environment
        withBroken["STORYVOICE_PRICES"] = broken.path
        #expect(throws: PriceFileError.self) { try ServerConfig.fromEnvironment(withBroken, publicDirectory: publicDirectory) }
    }

    @Test("full mode: the model's labels replace the offline ones; usage is reported; the stored key is sent")
    func fullAnalysis() async throws {
        try await withModelServer(labeller(text: sampleStory) { _ in "new:Aunt Agatha" }) { app, config, model, ada, story in
            let worker = app.startWorker(config)
            defer { worker.cancel() }
            let job = try await app.send(.POST, "/api/stories/\(story)/analyze", token: ada, json: #"{"llm":"openai:gpt-4o-mini","mode":"full"}"#)
            #expect(job.status == .accepted, "\(job.body.string)")
            let done = try await app.waitForJob(try job.content.decode(JobReply.self).id, token: ada)
            #expect(done.status == "succeeded", "\(done.error ?? "")")
            let analysis = try #require(try await app.analysis(story, ada).analysis)
            let agatha = try #require(analysis.characters.first { $0.name == "Aunt Agatha" })
            #expect(agatha.lines == analysis.segments.filter { $0.kind == .dialogue }.count)
            struct Result: Decodable { var model_labelled: Int; var requests: Int; var input_tokens: Int }
            let result = try JSONDecoder().decode(Result.self, from: Data(try #require(done.result).utf8))
            #expect(result.model_labelled == agatha.lines)
            #expect(result.requests == model.requests.count && result.input_tokens > 0)
            #expect(model.requests.allSatisfy { $0.header("authorization") == "Bearer \(Self.key)" })

            // The enrichment's quotations are stored with the story; a field the user rewrites loses
            // its quotation, the others keep theirs.
            let quote = try #require(agatha.evidence["personality"])
            #expect(sampleStory.contains(quote) && agatha.personality == "brisk and kind")
            #expect(agatha.evidence["gender"] == quote)
            let edited = try await app.send(.PATCH, "/api/stories/\(story)/characters/\(agatha.id)", token: ada,
                                            json: #"{"personality":"imperious","gender":"female"}"#)
            #expect(edited.status == .ok, "\(edited.body.string)")
            let after = try #require(try edited.content.decode(AnalysisReply.self).analysis?.character(id: agatha.id))
            #expect(after.personality == "imperious" && after.evidence["personality"] == nil)
            #expect(after.evidence["gender"] == quote, "an unchanged gender keeps its quotation")
        }
    }

    @Test("a rejected key fails the job with a message naming the step and the story, and keeps the offline analysis")
    func rejectedKey() async throws {
        try await withModelServer({ _ in VendorWire.error(.openai, status: 401, message: "Incorrect API key provided") }) { app, config, _, ada, story in
            let worker = app.startWorker(config)
            defer { worker.cancel() }
            let job = try await app.send(.POST, "/api/stories/\(story)/analyze", token: ada, json: #"{"llm":"openai:gpt-4o-mini"}"#)
            let done = try await app.waitForJob(try job.content.decode(JobReply.self).id, token: ada)
            #expect(done.status == "failed")
            #expect(done.error?.contains("Speaker labelling failed for The Open Window: the OpenAI key was rejected") == true, "\(done.error ?? "")")
            // Its key came from Settings, and that is where the user is told to update it.
            #expect(done.error?.contains("OPENAI_API_KEY") == false, "\(done.error ?? "")")
            #expect(done.error?.contains(Self.key) == false)
            let reply = try await app.analysis(story, ada)
            #expect(reply.state == "analyzed")
            #expect(reply.analysis?.characters.isEmpty == false)
        }
    }

    @Test("without a stored key, or with a model the server cannot use, the request says what to do at once")
    func refusedUpFront() async throws {
        try await withModelServer({ _ in LoopbackReply(status: 500, json: ["error": "unexpected"]) }) { app, _, model, ada, story in
            let anthropic = try await app.send(.POST, "/api/stories/\(story)/analyze", token: ada, json: #"{"llm":"anthropic:claude-3-5-haiku-latest"}"#)
            #expect(anthropic.errorCode == "missing_key")
            #expect(anthropic.errorMessage?.contains("Settings") == true)
            // The server reads no key from its environment: its user is not told to set one there.
            #expect(anthropic.errorMessage?.contains("ANTHROPIC_API_KEY") == false)
            let elsewhere = try await app.send(.POST, "/api/stories/\(story)/analyze", token: ada, json: #"{"llm":"openai-compatible:llama@http://10.0.0.1/v1"}"#)
            #expect(elsewhere.errorCode == "invalid_model")
            #expect(try await app.send(.POST, "/api/stories/\(story)/cast/suggest", token: ada, json: #"{"llm":"gemini:gemini-2.0-flash"}"#).errorCode == "missing_key")
            // The model on this machine needs no key: it is priced at nothing and timed instead.
            let estimate = try await app.send(.POST, "/api/stories/\(story)/analyze/estimate", token: ada, json: #"{"llm":"local"}"#)
            #expect(estimate.status == .ok)
            let modes = try #require(JSONSerialization.jsonObject(with: Data(estimate.body.readableBytesView)) as? [String: Any])["estimates"] as? [[String: Any]]
            #expect(modes?.allSatisfy { ($0["cost_usd"] as? Double) == 0 && (($0["local_seconds"] as? Double) ?? 0) > 0 } == true, "\(String(describing: modes))")
            // This test server was started without one: said at once, not in a failed job.
            let noLocal = try await app.send(.POST, "/api/stories/\(story)/analyze", token: ada, json: #"{"llm":"local"}"#)
            #expect(noLocal.errorCode == "invalid_model")
            #expect(noLocal.errorMessage?.contains("the local model") == true, "\(noLocal.errorMessage ?? "")")
            #expect(model.requests.isEmpty)
        }
    }

    @Test("suggested voices fill in the characters the user has not cast; invented voices are dropped")
    func suggestVoices() async throws {
        let chooser: LoopbackServer.Handler = { request in
            let prompt = VendorWire.prompt(of: request, provider: .openai)?.user ?? ""
            // The narrator's niece gets a voice that does not exist; everyone else the bass.
            let voice = prompt.contains("Character: the niece") ? "test:soprano" : "test:bass"
            return VendorWire.success(.openai, answer: #"{"voice":"\#(voice)","rate":1.1,"pitch":-1,"reason":"fits"}"#, for: request)
        }
        try await withModelServer(chooser) { app, config, model, ada, story in
            let analysis = try #require(try await app.analysis(story, ada).analysis)
            let speaking = analysis.characters.filter { $0.lines > 0 }
            let mine = try #require(speaking.first { !$0.name.contains("niece") })
            #expect(try await app.send(.PUT, "/api/stories/\(story)/cast/\(mine.id)", token: ada, json: #"{"voice":"test:alto"}"#).status == .ok)

            let worker = app.startWorker(config)
            defer { worker.cancel() }
            let job = try await app.send(.POST, "/api/stories/\(story)/cast/suggest", token: ada, json: #"{"llm":"openai:gpt-4o-mini"}"#)
            #expect(job.status == .accepted, "\(job.body.string)")
            let done = try await app.waitForJob(try job.content.decode(JobReply.self).id, token: ada)
            #expect(done.status == "succeeded", "\(done.error ?? "")")
            let overrides = try await app.analysis(story, ada).overrides.characters
            #expect(overrides[mine.id]?.voice == "test:alto", "the user's own choice wins")
            #expect(model.requests.count == speaking.count - 1)
            for character in speaking where character.id != mine.id {
                if character.name.contains("niece") {
                    #expect(overrides[character.id] == nil, "an invented voice falls back to offline casting")
                } else {
                    #expect(overrides[character.id]?.voice == "test:bass")
                    #expect(overrides[character.id]?.rate == 1.1)
                }
            }
        }
    }
}

@Suite("Model requests: malformed bodies")
struct ModelRequestValidationTests {
    @Test("wrong types and unknown modes answer 400 in the JSON error shape; no job is queued")
    func malformed() async throws {
        try await withNarrationServer { app, config, _ in
            let ada = try await app.register("ada@example.com").access_token
            let story = try await app.analyzedSample(ada, config)
            for (path, json) in [
                ("analyze", #"{"llm":5}"#), ("analyze", #"{"llm":"openai:gpt-4o-mini","mode":"everything"}"#),
                ("analyze/estimate", "[1,2]"), ("analyze/estimate", "{}"), ("cast/suggest", #"{"llm":null}"#),
                ("analyze", #"{"llm":"no-colon"}"#),
            ] {
                let reply = try await app.send(.POST, "/api/stories/\(story)/\(path)", token: ada, json: json)
                #expect([400, 422].contains(reply.status.code), "\(path) \(json): \(reply.status)")
                #expect(reply.errorMessage?.isEmpty == false, "\(path) \(json)")
            }
            struct Jobs: Decodable { struct Job: Decodable { var kind: String; var status: String }; var jobs: [Job] }
            let jobs = try await app.send(.GET, "/api/jobs", token: ada).content.decode(Jobs.self).jobs
            #expect(!jobs.contains { $0.status == "queued" })
        }
    }
}
