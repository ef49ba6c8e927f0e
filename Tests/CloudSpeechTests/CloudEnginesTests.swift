import Audio
import CloudSpeech
import Foundation
import LanguageModels
import Speech
import StoryModel
import Testing
import TestSupport
import VendorHTTP

@Suite("Cloud engines")
struct CloudEnginesTests {
    @Test("Without keys the engines are listed as not installed and add no voices")
    func absentWithoutKey() async throws {
        let engines = CloudEngines.configured(environment: [:])
        #expect(engines.map(\.engineID) == ["openai", "elevenlabs", "gemini"])
        let catalog = await VoiceCatalog.load(from: engines)
        #expect(catalog.voices.isEmpty)
        #expect(catalog.engines.allSatisfy { !$0.installed && $0.installHint?.contains("_API_KEY") == true })
        #expect(catalog.failures.isEmpty)
        // Synthesizing anyway says which key is missing, without a request.
        let error = await #expect(throws: CloudSpeechError.self) {
            try await engines[0].synthesize("Hi.", voice: voice(.openai, "alloy"), settings: SpeechSettings())
        }
        #expect(error?.kind == .missingKey)
        #expect(error?.description.contains("OPENAI_API_KEY") == true)
    }

    @Test("A key from the environment or from Settings brings an engine's voices into the catalogue")
    func presentWithKey() async throws {
        let fromEnvironment = await VoiceCatalog.load(from: CloudEngines.configured(environment: ["OPENAI_API_KEY": testKey, "GEMINI_API_KEY": ""]))
        #expect(fromEnvironment.voices.count == 11)
        #expect(fromEnvironment.voice(id: "openai:onyx")?.costPer1000Characters == 0.017)
        #expect(fromEnvironment.info(engine: "gemini")?.installed == false)

        let fromSettings = await VoiceCatalog.load(from: CloudEngines.configured(environment: ["OPENAI_TTS_MODEL": "tts-1"], keys: [.gemini: Secret(testKey)]))
        #expect(fromSettings.voices.count == 30)
        #expect(fromSettings.info(engine: "openai")?.installed == false)
        #expect(fromSettings.voice(id: "gemini:Kore") != nil)
    }

    @Test("Base URLs come from OPENAI_BASE_URL, ELEVENLABS_BASE_URL and GEMINI_BASE_URL")
    func baseURLs() async throws {
        try await LoopbackServer.withServer(handler: { request in
            if request.uri == "/v1/voices" { return ElevenLabsTests.listing }
            if request.uri.hasPrefix("/v1beta/") { return SpeechWire.geminiAudio(SpeechWire.pcm(samples: 100)) }
            return SpeechWire.openAIAudio(SpeechWire.pcm(samples: 100))
        }) { server in
            let environment = [
                "OPENAI_API_KEY": testKey, "ELEVENLABS_API_KEY": testKey, "GEMINI_API_KEY": testKey,
                "OPENAI_BASE_URL": server.baseURL + "/v1", "ELEVENLABS_BASE_URL": server.baseURL + "/", "GEMINI_BASE_URL": server.baseURL,
                "OPENAI_TTS_MODEL": "tts-1-hd",
            ]
            let catalog = await VoiceCatalog.load(from: CloudEngines.configured(environment: environment, timeout: loopbackTimeout))
            #expect(catalog.failures.isEmpty)
            #expect(catalog.voices.count == 9 + 5 + 30)
            for id in ["openai:onyx", "elevenlabs:JBFqnCBsd6RMkjVDRZzb", "gemini:Kore"] {
                let voice = try #require(catalog.voice(id: id))
                let audio = try await #require(catalog.engine(for: voice)).synthesize("Hello.", voice: voice, settings: SpeechSettings())
                #expect(audio.samples.count == 100)
            }
            #expect(server.requests.map(\.uri) == [
                "/v1/voices", "/v1/audio/speech", "/v1/text-to-speech/JBFqnCBsd6RMkjVDRZzb?output_format=pcm_24000",
                "/v1beta/models/gemini-2.5-flash-preview-tts:generateContent",
            ])
            #expect(server.requests[1].json?["model"] == "tts-1-hd")
        }
    }

    @Test("Per-vendor concurrency limit holds")
    func concurrency() async throws {
        try await LoopbackServer.withServer(handler: { _ in
            LoopbackReply(status: 200, headers: [("content-type", "audio/pcm")], body: SpeechWire.pcm(samples: 10), delay: .milliseconds(150))
        }) { server in
            let limiter = ConcurrencyLimiter(limit: 2)
            let engine = OpenAISpeechEngine(configuration: .init(baseURL: server.baseURL), transport: makeTransport(limiter: limiter), logger: quietLogger)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<6 {
                    group.addTask { _ = try await engine.synthesize("Line \(index).", voice: voice(.openai, "alloy"), settings: SpeechSettings()) }
                }
                try await group.waitForAll()
            }
            #expect(server.requests.count == 6)
            #expect(await limiter.peak == 2)
            #expect(server.peakInFlight <= 2)
        }
    }

    @Test("No log line or error ever contains the key")
    func keyNeverLogged() async throws {
        let capture = LogCapture()
        let logger = capture.logger()
        try await LoopbackServer.withServer(handler: { request in
            if request.uri == "/v1/voices" { return ElevenLabsTests.listing }
            if request.uri.hasPrefix("/v1beta/") { return SpeechWire.geminiAudio(SpeechWire.pcm(samples: 100)) }
            if request.uri.hasPrefix("/v1/text-to-speech") { return SpeechWire.elevenLabsAudio(SpeechWire.pcm(samples: 100)) }
            return SpeechWire.openAIAudio(SpeechWire.pcm(samples: 100))
        }) { server in
            let echo = "Invalid key \(testKey) (\(testKey.prefix(10))…\(testKey.suffix(4)))"
            server.enqueue(
                VendorWire.error(.openai, status: 429, message: echo, retryAfter: "0"),
                VendorWire.error(.openai, status: 401, message: echo),
                SpeechWire.elevenLabsError(status: 500, message: echo),
                SpeechWire.elevenLabsError(status: 401, message: echo),
                VendorWire.error(.gemini, status: 403, message: echo)
            )
            let engines: [any SpeechSynthesizer] = [openAI(server, logger: logger), elevenLabs(server, logger: logger), gemini(server, logger: logger)]
            var descriptions: [String] = []
            for engine in engines {
                for text in ["Hello.", longText(characters: 9000)] {
                    do {
                        _ = try await engine.synthesize(text, voice: voice(CloudService(rawValue: engine.engineID)!, "Kore"), settings: SpeechSettings())
                    } catch {
                        descriptions.append("\(error)")
                        descriptions.append(String(reflecting: error))
                    }
                }
                var dumped = ""
                dump(engine, to: &dumped)
                descriptions.append(dumped)
            }
            _ = try await engines[1].voices()
            #expect(descriptions.count >= 6)
            #expect(capture.count >= 10)
            for text in descriptions + [capture.text] {
                #expect(!text.contains(testKey))
                #expect(!text.contains(String(testKey.prefix(10))))
            }
        }
    }

    @Test("Voice JSON without a cost decodes as free; with one round-trips")
    func voiceJSON() throws {
        let old = #"{"id":"flite:slt","engine":"flite","engineVoice":"slt","displayName":"SLT","gender":"female","age":"adult","accent":"en-US","pitch":-1.2,"quality":2,"style":["clear"]}"#
        let voice = try JSONDecoder().decode(Voice.self, from: Data(old.utf8))
        #expect(voice.costPer1000Characters == 0 && !voice.readsDelivery)
        #expect(voice.quality == 2 && voice.style == ["clear"] && voice.speaker == nil)
        let cloud = OpenAISpeechEngine.voices(model: "tts-1-hd")[0]
        let again = try JSONDecoder().decode(Voice.self, from: JSONEncoder().encode(cloud))
        #expect(again == cloud)
        #expect(abs(cloud.cost(of: String(repeating: "a", count: 2000)) - 0.06) < 1e-9)
    }

    @Test("Only gpt-4o-mini-tts voices read the delivery (and so key a line on it)")
    func readsDelivery() throws {
        #expect(OpenAISpeechEngine.voices(model: "gpt-4o-mini-tts").allSatisfy { $0.readsDelivery })
        #expect(OpenAISpeechEngine.voices(model: "gpt-4o-mini-tts-2025-03-20").allSatisfy { $0.readsDelivery })
        #expect(!OpenAISpeechEngine.voices(model: "tts-1").contains { $0.readsDelivery })
        #expect(!OpenAISpeechEngine.voices(model: "tts-1-hd").contains { $0.readsDelivery })
        #expect(!GeminiSpeechEngine.voices(model: "gemini-2.5-flash-preview-tts").contains { $0.readsDelivery })
        let directed = OpenAISpeechEngine.voices(model: "gpt-4o-mini-tts")[0]
        #expect(try JSONDecoder().decode(Voice.self, from: JSONEncoder().encode(directed)).readsDelivery)
    }
}
