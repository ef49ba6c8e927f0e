import Audio
import Foundation
import LanguageModels
import StoryModel
import Testing
import TestSupport
import VendorHTTP

/// The commands with the user's own keys, against loopback servers that speak each vendor's
/// wire format (the real endpoints cannot be reached from here).
@Suite struct UserModelCommandTests {
    static let key = "sk-cli-test-00112233445566"

    @Test func cloudVoicesAppearOnlyWithAKeyAndSpeakThroughTheVendorAPI() async throws {
        let without = try await CLI.run(["voices"], environment: ["OPENAI_API_KEY": ""])
        #expect(without.status == 0, "\(without.stderr)")
        #expect(!without.stdout.contains("openai:onyx"))

        try await LoopbackServer.withServer(handler: { _ in SpeechWire.openAIAudio(SpeechWire.pcm(samples: 24_000)) }) { server in
            let environment = ["OPENAI_API_KEY": Self.key, "OPENAI_BASE_URL": server.baseURL + "/v1"]
            let voices = try await CLI.run(["voices"], environment: environment)
            #expect(voices.stdout.contains("openai:onyx"), "\(voices.stdout)")

            let scratch = try CLI.scratchDirectory()
            defer { try? FileManager.default.removeItem(at: scratch) }
            let output = scratch.appendingPathComponent("hello.wav")
            let said = try await CLI.run(["say", "Hello there.", "--voice", "openai:onyx", "-o", output.path], environment: environment)
            #expect(said.status == 0, "\(said.stderr)")
            let audio = try WAV.decode(Data(contentsOf: output))
            #expect(Double(audio.samples.count) / Double(audio.sampleRate) > 0.9)
            let request = try #require(server.requests.first)
            #expect(request.uri == "/v1/audio/speech")
            #expect(request.header("authorization") == "Bearer \(Self.key)")
            #expect(request.json?["voice"]?.stringValue == "onyx")
            #expect(!(said.stdout + said.stderr).contains(Self.key))
        }
    }

    @Test func castWithLLMTakesTheModelsVoicesAndDropsInventedOnes() async throws {
        let chooser: LoopbackServer.Handler = { request in
            let prompt = VendorWire.prompt(of: request, provider: .openai)?.user ?? ""
            let voice = prompt.contains("Character: Framton") ? "espeak-ng:no-such-voice" : "flite:slt"
            return VendorWire.success(.openai, answer: #"{"voice":"\#(voice)","rate":1.1,"pitch":-1,"reason":"fits"}"#, for: request)
        }
        try await LoopbackServer.withServer(handler: chooser) { server in
            let scratch = try CLI.scratchDirectory()
            defer { try? FileManager.default.removeItem(at: scratch) }
            let output = scratch.appendingPathComponent("sample.wav")
            let result = try await CLI.run(
                ["narrate", CommandTests.sample, "-o", output.path, "--cast-with-llm", "openai:gpt-4o-mini"],
                cacheDirectory: scratch.appendingPathComponent("cache"),
                environment: ["OPENAI_API_KEY": Self.key, "OPENAI_BASE_URL": server.baseURL + "/v1", "STORYVOICE_ENGINES": "espeak-ng,flite"])
            #expect(result.status == 0, "\(result.stderr)")
            let cast = try JSONDecoder().decode(Cast.self, from: Data(contentsOf: scratch.appendingPathComponent("sample.cast.json")))
            let analysis = try JSONDecoder().decode(StoryAnalysis.self, from: Data(
                try await CLI.run(["analyze", CommandTests.sample, "--format", "json"]).stdout.utf8))
            let speaking = analysis.characters.filter { $0.lines > 0 }
            // One question per speaking character. Counted by question, not by request: on a
            // loaded machine a slow answer is legitimately retried (it once made 5 of 4).
            let asked = Set(server.requests.compactMap { VendorWire.prompt(of: $0, provider: .openai)?.user })
            #expect(asked.count == speaking.count, "\(server.requests.count) request(s), \(asked.count) distinct")
            for character in speaking {
                let assignment = try #require(cast.characters[character.id])
                if character.name.contains("Framton") {
                    #expect(assignment.voice != "espeak-ng:no-such-voice", "an invented voice falls back to automatic casting")
                } else {
                    #expect(assignment.voice == "flite:slt" && assignment.rate == 1.1, "\(character.name): \(assignment)")
                }
            }
        }
    }

    /// `analyze --llm openai-compatible:MODEL --base-url URL`: a local server, no key. The
    /// estimate sends nothing; a full run labels every line through the server's chat endpoint.
    /// `--prices FILE` (or the file `STORYVOICE_PRICES` names) prices the estimate; a model the
    /// built-in table lacks has no price until then, and a broken file stops with its path.
    @Test func thePriceTableComesFromTheFileGiven() async throws {
        let scratch = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        // A dollar per input token: the printed cost is then the input token count.
        let prices = scratch.appendingPathComponent("prices.json")
        try Data(#"{"my-finetune": {"input": 1000000, "output": 0}}"#.utf8).write(to: prices)
        let estimate = ["analyze", CommandTests.sample, "--llm", "openai:my-finetune", "--estimate"]
        let environment = ["OPENAI_API_KEY": Self.key, "STORYVOICE_PRICES": ""]

        let unpriced = try await CLI.run(estimate, cacheDirectory: scratch, environment: environment)
        #expect(unpriced.status == 0, "\(unpriced.stderr)")
        #expect(unpriced.stdout.contains("unknown price"), "\(unpriced.stdout)")

        func pricedLines(_ output: String) -> [(tokens: String, cost: String)] {
            output.split(separator: "\n").compactMap { line in
                guard let tokens = line.firstMatch(of: /~(\d+) input/)?.1, let cost = line.firstMatch(of: /\$(\d+)\.0000/)?.1 else { return nil }
                return (String(tokens), String(cost))
            }
        }
        let priced = try await CLI.run(estimate + ["--prices", prices.path], cacheDirectory: scratch, environment: environment)
        #expect(priced.status == 0, "\(priced.stderr)")
        let lines = pricedLines(priced.stdout)
        #expect(lines.count == 2, "both modes are priced: \(priced.stdout)")
        #expect(lines.allSatisfy { $0.tokens == $0.cost }, "\(priced.stdout)")

        let fromEnvironment = try await CLI.run(estimate, cacheDirectory: scratch, environment: ["OPENAI_API_KEY": Self.key, "STORYVOICE_PRICES": prices.path])
        #expect(fromEnvironment.stdout == priced.stdout)

        let broken = scratch.appendingPathComponent("broken.json")
        try Data(#"{"my-finetune": 3}"#.utf8).write(to: broken)
        let refused = try await CLI.run(estimate + ["--prices", broken.path], cacheDirectory: scratch, environment: environment)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains(broken.path), "\(refused.stderr)")
    }

    @Test func analyzeWithALocalCompatibleServerByBaseURL() async throws {
        let labeller: LoopbackServer.Handler = { request in
            let user = VendorWire.prompt(of: request, provider: .openaiCompatible)?.user ?? ""
            guard let list = user.range(of: "Label these spans: ") else {
                return VendorWire.success(.openaiCompatible, answer: #"{"characters":[]}"#, for: request)
            }
            let line = user[list.upperBound...].prefix { $0 != "\n" }
            let spans = line.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).filter { $0.first == "S" }
            let labels: [JSONValue] = spans.map { ["span": .string(String($0)), "speaker": "narration"] }
            return VendorWire.success(.openaiCompatible, answer: JSONValue.object(["labels": .array(labels)]).canonicalText, for: request)
        }
        try await LoopbackServer.withServer(handler: labeller) { server in
            let scratch = try CLI.scratchDirectory()
            defer { try? FileManager.default.removeItem(at: scratch) }
            let model = ["--llm", "openai-compatible:llama3", "--base-url", server.baseURL + "/v1"]
            let estimate = try await CLI.run(["analyze", CommandTests.sample] + model + ["--estimate"], cacheDirectory: scratch)
            #expect(estimate.status == 0, "\(estimate.stderr)")
            #expect(estimate.stdout.contains("hybrid") && estimate.stdout.contains("full") && estimate.stdout.contains("nothing has been sent"))
            #expect(server.requests.isEmpty)

            let run = try await CLI.run(["analyze", CommandTests.sample, "--format", "json", "--mode", "full"] + model, cacheDirectory: scratch)
            #expect(run.status == 0, "\(run.stderr)")
            let request = try #require(server.requests.first)
            #expect(request.uri == "/v1/chat/completions")
            #expect(request.header("authorization") == nil)
            #expect(request.json?["model"]?.stringValue == "llama3")
            let analysis = try JSONDecoder().decode(StoryAnalysis.self, from: Data(run.stdout.utf8))
            #expect(!analysis.segments.isEmpty)
            #expect(analysis.segments.allSatisfy { $0.kind == .narration }, "the server called every line narration")
        }
    }
}
