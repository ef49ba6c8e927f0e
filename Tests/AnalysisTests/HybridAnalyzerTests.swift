import Analysis
import Foundation
import LanguageModels
import StoryModel
import Testing
import TestSupport
import VendorHTTP

@Suite("Hybrid labelling")
struct HybridAnalyzerTests {
    let noEnrichment = LabellingOptions(enrichCharacters: false)

    @Test("Hybrid sends only the low-confidence spans, and applies the answers")
    func hybridSendsOnlyUncertainSpans() async throws {
        let story = smallStory()
        let truth = story.truth
        try await LoopbackServer.withServer(handler: labeller(text: story.document.text) { span in truth[Int(span.dropFirst())!]! }) { server in
            let analyzer = HybridAnalyzer(model: makeModel(server: server), options: noEnrichment)
            let events = LockedValue<[LabellingProgress]>([])
            let result = try await analyzer.label(document: story.document, analysis: story.analysis, mode: .hybrid) { event in
                events.withLock { $0.append(event) }
            }
            #expect(events.value == [LabellingProgress(step: "Speaker labelling", completedRequests: 1, totalRequests: 1)])
            #expect(Set(sentSpans(server.requests)) == ["S3", "S9"])
            // The prompts number only those spans; the rest of the text is unnumbered context.
            let prompts = server.requests.compactMap { VendorWire.prompt(of: $0, provider: .openai)?.user }.joined()
            #expect(prompts.contains("[S3] \u{201C}It has been on since dawn.\u{201D} [/S3]"))
            #expect(!prompts.contains("[S1]"))
            #expect(!prompts.contains("[S5]"))
            #expect(prompts.contains("c1: Anna Bell (also: Anna)"))
            // Confident neighbours carry their offline speaker as context.
            #expect(prompts.contains("(c1) \u{201C}Then we shall have tea.\u{201D}"))

            #expect(result.analysis.segments[3].speaker == "c2")
            #expect(result.analysis.segments[9].speaker == "c1")
            #expect(result.modelLabelled == [3, 9])
            #expect(result.fallbacks.isEmpty)
            // Everything else is exactly as the offline analysis had it: same spans, same text.
            for index in story.analysis.segments.indices where ![3, 9].contains(index) {
                #expect(result.analysis.segments[index] == story.analysis.segments[index])
            }
            #expect(result.analysis.segments.map(\.start) == story.analysis.segments.map(\.start))
            #expect(result.analysis.segments.map(\.end) == story.analysis.segments.map(\.end))
            #expect(result.analysis.character(id: "c2")?.lines == 1)
            #expect(result.usage.requests == server.requests.count)
        }
    }

    /// The model on this machine with a small window, answered by the loopback (OpenAI's wire).
    struct SmallWindowHost: LocalModelHost {
        let modelName = "small-window"
        let baseURL: String
        let contextTokens: Int
        func endpoint() async throws -> LocalEndpoint {
            LocalEndpoint(baseURL: baseURL, key: Secret("loopback-local-key"), model: modelName, contextTokens: contextTokens)
        }
        func serverFailed(_ endpoint: LocalEndpoint) async {}
    }

    @Test("A request longer than the local model reads is sent in halves, and every span is still labelled")
    func tooLongForTheLocalModelIsHalved() async throws {
        let story = smallStory()
        let truth = story.truth
        try await LoopbackServer.withServer(handler: labeller(text: story.document.text) { span in truth[Int(span.dropFirst())!]! }) { server in
            // Room for a request of one or two spans, not for all six in one (the build before
            // this change stopped the whole labelling with "cannot take this request").
            let local = LocalLanguageModel(host: SmallWindowHost(baseURL: server.baseURL + "/v1", contextTokens: 900), scheduler: ModelScheduler())
            let result = try await HybridAnalyzer(model: local, options: noEnrichment).label(document: story.document, analysis: story.analysis, mode: .full)
            for (index, speaker) in truth {
                #expect(result.analysis.segments[index].speaker == speaker)
            }
            let requests = server.requests.compactMap { VendorWire.prompt(of: $0, provider: .openai)?.user }.filter { $0.contains("Label these spans: ") }
            #expect(requests.count > 1)
            #expect(requests.allSatisfy { listedIDs($0, after: "Label these spans: ").count < 6 })
            #expect(Set(sentSpans(server.requests)) == ["S1", "S3", "S5", "S7", "S9", "S11"])
        }
    }

    @Test("Characters too many for the local model's window are described in smaller groups; one that never fits keeps its metadata")
    func enrichmentTooLongIsHalved() async throws {
        let story = smallStory()
        let truth = story.truth
        try await LoopbackServer.withServer(handler: labeller(text: story.document.text) { span in truth[Int(span.dropFirst())!]! }) { server in
            func run(window: Int) async throws -> (LabelledAnalysis, [[String]]) {
                let before = server.requests.count
                let local = LocalLanguageModel(host: SmallWindowHost(baseURL: server.baseURL + "/v1", contextTokens: window), scheduler: ModelScheduler())
                // A threshold of its own: by default the local model is sent no line (below).
                let result = try await HybridAnalyzer(model: local, options: LabellingOptions(confidenceThreshold: 0.80))
                    .label(document: story.document, analysis: story.analysis, mode: .hybrid)
                let described = server.requests.dropFirst(before).compactMap { VendorWire.prompt(of: $0, provider: .openai)?.user }
                    .map { listedIDs($0, after: "Describe each of these characters: ") }.filter { !$0.isEmpty }
                return (result, described)
            }
            // Three characters do not fit 2,000 tokens together; one and two do (the build
            // before this change stopped the analysis with "cannot take this request").
            let (halved, groups) = try await run(window: 2_000)
            #expect(Set(halved.profiles.map(\.id)) == ["c1", "c2", "c3"])
            #expect(groups.count > 1 && groups.allSatisfy { $0.count < 3 })
            // In 900 tokens no character fits: the labels are still the model's, the metadata
            // stays as it was, and the notes say why.
            let (unchanged, _) = try await run(window: 900)
            #expect(unchanged.profiles.isEmpty)
            #expect(unchanged.notes.contains { $0.contains("longer than the model reads") })
            #expect(unchanged.analysis.segments[3].speaker == "c2" && unchanged.analysis.segments[9].speaker == "c1")
        }
    }

    @Test("The model on this machine, which labels worse than the offline analysis, is sent no line by default and only describes the characters")
    func localModelDefaults() async throws {
        let story = smallStory()
        let truth = story.truth
        try await LoopbackServer.withServer(handler: labeller(text: story.document.text) { span in truth[Int(span.dropFirst())!]! }) { server in
            let local = LocalLanguageModel(host: SmallWindowHost(baseURL: server.baseURL + "/v1", contextTokens: 4_096), scheduler: ModelScheduler())
            #expect(HybridAnalyzer(model: local).options.confidenceThreshold == 0)
            #expect(HybridAnalyzer(model: makeModel(server: server)).options.confidenceThreshold == 0.85)
            #expect(HybridAnalyzer(model: local, options: LabellingOptions(confidenceThreshold: 0.5)).options.confidenceThreshold == 0.5)

            let estimate = HybridAnalyzer(model: local).estimate(document: story.document, analysis: story.analysis, mode: .hybrid)
            #expect(estimate.spansSent == 0 && estimate.requests > 0)
            let result = try await HybridAnalyzer(model: local).label(document: story.document, analysis: story.analysis, mode: .hybrid)
            #expect(sentSpans(server.requests).isEmpty)
            #expect(result.analysis.segments.map(\.speaker) == story.analysis.segments.map(\.speaker))
            #expect(Set(result.profiles.map(\.id)) == ["c1", "c2", "c3"])
        }
    }

    @Test("Full mode sends every dialogue span")
    func fullSendsEverything() async throws {
        let story = smallStory()
        let truth = story.truth
        try await LoopbackServer.withServer(handler: labeller(text: story.document.text) { span in truth[Int(span.dropFirst())!]! }) { server in
            let analyzer = HybridAnalyzer(model: makeModel(server: server), options: noEnrichment)
            let result = try await analyzer.label(document: story.document, analysis: story.analysis, mode: .full)
            #expect(Set(sentSpans(server.requests)) == ["S1", "S3", "S5", "S7", "S9", "S11"])
            for (index, speaker) in truth {
                #expect(result.analysis.segments[index].speaker == speaker)
            }
        }
    }

    @Test("An answer with an unknown span id is asked again once; then the offline labels stand",
          arguments: [Provider.openai, .anthropic, .gemini])
    func invalidAnswerFallsBack(provider: Provider) async throws {
        let story = smallStory()
        try await LoopbackServer.withServer(handler: { request in
            VendorWire.success(provider, answer: #"{"labels":[{"span":"S999","speaker":"c1"}]}"#, for: request)
        }) { server in
            let analyzer = HybridAnalyzer(model: makeModel(provider, server: server), options: LabellingOptions(maxSpansPerRequest: 10, enrichCharacters: false))
            let result = try await analyzer.label(document: story.document, analysis: story.analysis, mode: .hybrid)
            // Both chapters fit one request (S3 in chapter 1, S9 in chapter 2): asked twice.
            #expect(server.requests.count == 2)
            let retries = server.requests.compactMap { VendorWire.prompt(of: $0, provider: provider)?.user }.filter { $0.contains("Your previous answer could not be used: unknown span id S999") }
            #expect(retries.count == 1)
            #expect(result.analysis.segments == story.analysis.segments)
            #expect(result.fallbacks == [3, 9])
            #expect(result.modelLabelled.isEmpty)
            #expect(result.notes.count == 1)
            #expect(result.notes.allSatisfy { $0.contains("unusable twice") && $0.contains("offline labels") })
        }
    }

    @Test("An invented character id, then a good answer: the second answer is used",
          arguments: [Provider.openai, .anthropic, .gemini])
    func inventedCharacterThenGood(provider: Provider) async throws {
        let story = smallStory()
        let truth = story.truth
        let good = labeller(provider, text: story.document.text) { span in truth[Int(span.dropFirst())!]! }
        try await LoopbackServer.withServer(handler: { request in
            let user = VendorWire.prompt(of: request, provider: provider)?.user ?? ""
            if user.contains("could not be used") { return await good(request) }
            let spans = listedIDs(user, after: "Label these spans: ")
            let labels: [JSONValue] = spans.map { ["span": .string($0), "speaker": "c42"] }
            return VendorWire.success(provider, answer: JSONValue.object(["labels": .array(labels)]).canonicalText, for: request)
        }) { server in
            let analyzer = HybridAnalyzer(model: makeModel(provider, server: server), options: noEnrichment)
            let result = try await analyzer.label(document: story.document, analysis: story.analysis, mode: .hybrid)
            #expect(server.requests.count == 2)
            #expect(result.analysis.segments[3].speaker == "c2")
            #expect(result.analysis.segments[9].speaker == "c1")
            #expect(result.fallbacks.isEmpty)
            #expect(result.notes.contains { $0.contains("unknown character id c42") && $0.contains("second was used") })
        }
    }

    @Test("Malformed JSON is retried once, then falls back", arguments: [Provider.openai, .anthropic, .gemini])
    func malformedJSON(provider: Provider) async throws {
        let story = smallStory()
        try await LoopbackServer.withServer(handler: { request in
            VendorWire.success(provider, answer: #"{"labels": [{"span": "S3", "spea"#, for: request)
        }) { server in
            let analyzer = HybridAnalyzer(model: makeModel(provider, server: server), options: LabellingOptions(maxSpansPerRequest: 10, enrichCharacters: false))
            let result = try await analyzer.label(document: story.document, analysis: story.analysis, mode: .hybrid)
            #expect(server.requests.count == 2)
            #expect(result.fallbacks == [3, 9])
            #expect(result.analysis.segments == story.analysis.segments)
        }
    }

    @Test("A speaker not in the roster becomes a new character with a fresh id, once per name")
    func newCharacters() async throws {
        let story = smallStory()
        try await LoopbackServer.withServer(handler: labeller(text: story.document.text) { _ in "new:The Curate" }) { server in
            let analyzer = HybridAnalyzer(model: makeModel(server: server), options: noEnrichment)
            let result = try await analyzer.label(document: story.document, analysis: story.analysis, mode: .hybrid)
            #expect(result.analysis.characters.count == 4)
            let curate = try #require(result.analysis.characters.last)
            #expect(curate.name == "The Curate")
            #expect(curate.id == "c4")
            #expect(curate.lines == 2)
            #expect(result.analysis.segments[3].speaker == "c4")
            #expect(result.analysis.segments[9].speaker == "c4")
        }
    }

    @Test("A model that says a span is narration turns it into narration")
    func narrationLabel() async throws {
        let story = smallStory()
        try await LoopbackServer.withServer(handler: labeller(text: story.document.text) { _ in "narration" }) { server in
            let result = try await HybridAnalyzer(model: makeModel(server: server), options: noEnrichment)
                .label(document: story.document, analysis: story.analysis, mode: .hybrid)
            #expect(result.analysis.segments[3].kind == .narration)
            #expect(result.analysis.segments[3].speaker == nil)
        }
    }

    @Test("A rejected key stops the run with the step and the story named")
    func rejectedKey() async throws {
        let story = smallStory()
        try await LoopbackServer.withServer(handler: { _ in VendorWire.error(.openai, status: 401, message: "Incorrect API key provided") }) { server in
            let analyzer = HybridAnalyzer(model: makeModel(server: server))
            let error = try await #require(throws: AnalysisError.self) {
                try await analyzer.label(document: story.document, analysis: story.analysis, mode: .hybrid)
            }
            #expect(error.description == "Speaker labelling failed for The Test Story: the OpenAI key was rejected — update it in Settings or OPENAI_API_KEY")
        }
        // With nothing uncertain, the enrichment pass is the first to ask.
        var confident = story.analysis
        for index in confident.segments.indices where confident.segments[index].kind == .dialogue { confident.segments[index].confidence = 0.99 }
        try await LoopbackServer.withServer(handler: { _ in VendorWire.error(.openai, status: 401, message: "Incorrect API key provided") }) { server in
            let error = try await #require(throws: AnalysisError.self) {
                try await HybridAnalyzer(model: makeModel(server: server)).label(document: story.document, analysis: confident, mode: .hybrid)
            }
            #expect(error.description.hasPrefix("Character extraction failed for The Test Story: the OpenAI key was rejected"))
        }
    }

    @Test("The Anthropic tool path works end to end")
    func anthropicEndToEnd() async throws {
        let story = smallStory()
        let truth = story.truth
        try await LoopbackServer.withServer(handler: labeller(.anthropic, text: story.document.text) { span in truth[Int(span.dropFirst())!]! }) { server in
            let result = try await HybridAnalyzer(model: makeModel(.anthropic, server: server), options: noEnrichment)
                .label(document: story.document, analysis: story.analysis, mode: .hybrid)
            #expect(result.analysis.segments[3].speaker == "c2")
            #expect(server.requests.allSatisfy { $0.uri == "/v1/messages" })
        }
    }
}
