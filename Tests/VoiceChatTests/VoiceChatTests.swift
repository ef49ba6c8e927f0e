import Audio
import Foundation
import LanguageModels
import Speech
import SpeechEngines
import Synchronization
import TestSupport
import Testing
import VendorHTTP
import VoiceChat

@Suite("Sentences while the reply is written")
struct SentenceSplitterTests {
    @Test("sentences come out as soon as they end; short pieces and abbreviations wait")
    func splits() {
        var splitter = SentenceSplitter(minimumLength: 12)
        var out: [String] = []
        for piece in ["Mr. Pim", "kin came to tea. He brought", " a cake! Did", " you know? It was 3.", "5 kilos", " heavy"] {
            out += splitter.add(piece)
        }
        #expect(out == ["Mr. Pimkin came to tea.", "He brought a cake!", "Did you know?"])
        #expect(splitter.finish() == "It was 3.5 kilos heavy")
    }

    @Test("closing quotes stay with their sentence; a line break ends one")
    func quotesAndLines() {
        var splitter = SentenceSplitter(minimumLength: 5)
        #expect(splitter.add("She said “Go home.” Then\nleft. ") == ["She said “Go home.”", "Then", "left."])
    }

    @Test("the first clause of a reply goes to the voice at its comma; later ones wait for their sentence")
    func firstClause() {
        var splitter = SentenceSplitter(firstClause: true)
        var out: [String] = []
        for piece in ["Yes, ", "spiders have eight legs", ", which they use", " to walk, climb and spin webs. They also", ", like us, rest."] {
            out += splitter.add(piece)
        }
        #expect(out == ["Yes, spiders have eight legs,", "which they use to walk, climb and spin webs."])
        #expect(splitter.finish() == "They also, like us, rest.")
    }
}

@Suite("The first words of a reply")
struct FirstPhraseTests {
    func split(_ pieces: [String]) -> [String] {
        var splitter = SentenceSplitter(firstClause: true)
        var out: [String] = []
        for piece in pieces { out += splitter.add(piece) }
        return out + [splitter.finish()].compactMap { $0 }
    }

    @Test("a long first sentence with no comma goes to the voice before a word that starts a phrase, once it has four words")
    func phrase() {
        #expect(split(["The boiling", " point of", " water is", " 100 degrees", " Celsius. It boils", " lower up a mountain, too."])
                == ["The boiling point of water", "is 100 degrees Celsius.", "It boils lower up a mountain, too."])
        #expect(split(["The sky is blue because", " of how air scatters light."]) == ["The sky is blue", "because of how air scatters light."])
    }

    @Test("a word still being written, a short start, and words that bind to what precedes do not cut it")
    func noCut() {
        // "is" might be the start of "island": the cut waits for the word to end.
        var splitter = SentenceSplitter(firstClause: true)
        #expect(splitter.add("The capital of France is") == [])
        #expect(splitter.add(" Paris.") == ["The capital of France"])
        #expect(splitter.finish() == "is Paris.")
        #expect(split(["Spiders have eight legs and", " they spin webs."]) == ["Spiders have eight legs", "and they spin webs."])
        #expect(split(["Yes it is from here."]) == ["Yes it is from here."])
        #expect(split(["The point of water to me."]) == ["The point of water to me."])
    }
}

/// A model that streams `reply` in a few pieces, in OpenAI's wire format.
func streamingModel(_ server: LoopbackServer) -> RemoteLanguageModel {
    RemoteLanguageModel(provider: .openaiCompatible, model: "test", baseURL: server.baseURL + "/v1", key: nil,
                        timeout: loopbackTimeout, retry: .none, limiter: ConcurrencyLimiter(limit: 1))
}

func sse(_ pieces: [String]) -> LoopbackReply {
    func chunk(_ text: String?, finish: String? = nil) -> String {
        let delta: JSONValue = text.map { ["content": .string($0)] } ?? [:]
        return JSONValue.object(["choices": [["index": 0, "delta": delta, "finish_reason": finish.map { .string($0) } ?? .null]]]).canonicalText
    }
    return .events(pieces.map { chunk($0) } + [chunk(nil, finish: "stop"), "[DONE]"], pause: .milliseconds(30))
}

@Suite("Speech heard while it is spoken", .serialized)
struct ListeningTests {
    /// Counts the transcriber's passes.
    final class Passes: Sendable {
        let count = LockedValue(0)
        func transcribe(_ audio: PCMAudio) async throws -> String {
            count.withLock { $0 += 1 }
            return try await VoicePipelineTests.whisper(audio)
        }
    }

    static func spoken(_ text: String) async throws -> PCMAudio {
        let file = try await VoicePipelineTests.recording(text)
        defer { try? FileManager.default.removeItem(at: file) }
        return Resampler.resample(try WAV.decode(Data(contentsOf: file)), to: 16_000)
    }

    @Test("speech sent in pieces is heard as it comes; at the end only what came after the last pass is transcribed")
    func piecesAsSpoken() async throws {
        let question = try await Self.spoken("What is the capital of France, and how many people live there?")
        let passes = Passes()
        let listening = Listening(sampleRate: 16_000, transcribe: passes.transcribe)
        let silence = [Int16](repeating: 0, count: 8_000)
        try await listening.add(silence)
        var heardWhileSpeaking = ""
        for start in stride(from: 0, to: question.samples.count, by: 1_600) {
            let heard = try await listening.add(Array(question.samples[start..<min(start + 1_600, question.samples.count)]))
            if !heard.text.isEmpty { heardWhileSpeaking = heard.text }
            await Task.yield()
        }
        // The speaker stops: the pause starts a pass over everything said (waited for here
        // rather than raced), and the silence sent as the button is let go adds no speech.
        await listening.settle()
        try await listening.add(silence)
        await listening.settle()
        let before = passes.count.withLock { $0 }
        try await listening.add(silence)
        let words = try await listening.finish().lowercased()
        #expect(words.contains("capital") && words.contains("france"), "\(words)")
        #expect(before >= 1)
        #expect(passes.count.withLock { $0 } == before, "at the end nothing was left to transcribe: the pass at the pause is the words")
        _ = heardWhileSpeaking  // shown to the speaker; how far it got depends on the machine's speed
    }

    @Test("silence and hiss are never transcribed: nothing is heard")
    func silenceIsNothing() async throws {
        let passes = Passes()
        let listening = Listening(sampleRate: 16_000, transcribe: passes.transcribe)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<30 {
            try await listening.add((0..<1_600).map { _ in Int16.random(in: -150...150, using: &generator) })
        }
        #expect(try await listening.finish() == "")
        #expect(passes.count.withLock { $0 } == 0)
    }

    @Test("more than the limit is refused")
    func tooLong() async throws {
        let listening = Listening(sampleRate: 16_000, maxSeconds: 2) { _ in "" }
        try await listening.add([Int16](repeating: 0, count: 16_000))
        await #expect(throws: Listening.TooLong.self) { try await listening.add([Int16](repeating: 0, count: 24_000)) }
    }

    @Test("a turn given a listening session starts with its words")
    func turnFromListening() async throws {
        let question = try await Self.spoken("How many legs does a spider have?")
        try await LoopbackServer.withServer { server in
            server.enqueue(sse(["Spiders have eight legs."]))
            let listening = Listening(sampleRate: 16_000, transcribe: VoicePipelineTests.whisper)
            try await listening.add(question.samples + [Int16](repeating: 0, count: 16_000))
            let pipeline = VoicePipeline(transcribe: VoicePipelineTests.transcribe, model: streamingModel(server), speak: VoicePipelineTests.speak)
            var events: [VoiceTurnEvent] = []
            for await event in pipeline.run(.listened(listening)) { events.append(event) }
            guard case .sttEnd(let heard) = events[2] else { Issue.record("no transcript: \(events.map(\.name))"); return }
            #expect(heard.lowercased().contains("spider"), "\(heard)")
            #expect(events.map(\.name).contains("tts-audio"))
        }
    }
}

@Suite("A spoken turn", .serialized)
struct VoicePipelineTests {
    static let espeak = EspeakEngine()

    /// `text` spoken by espeak-ng into a WAV file: the question a user would say.
    static func recording(_ text: String) async throws -> URL {
        let voices = try await espeak.voices()
        let voice = try #require(voices.first { $0.id == "espeak-ng:en-us" } ?? voices.first)
        let audio = try await espeak.synthesize(text, voice: voice, settings: SpeechSettings())
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("voice-\(UUID().uuidString).wav")
        try WAV.encode(audio).write(to: file)
        return file
    }

    static func speak(_ text: String) async throws -> Data {
        let voices = try await espeak.voices()
        let voice = try #require(voices.first)
        return WAV.encode(try await espeak.synthesize(text, voice: voice, settings: SpeechSettings()))
    }

    static let whisper = WhisperTranscriber.Configuration.locate().map(WhisperTranscriber.init)

    /// As the server hears: speech found first (silence never reaches Whisper), then Whisper.
    static func transcribe(_ recording: VoicePipeline.Recording) async throws -> String {
        let audio = switch recording {
        case .file(let file): try await AudioDecoder().decode(file)
        case .samples(let samples): samples
        }
        let speech = SpeechDetector.speech(in: audio)
        return speech.samples.isEmpty ? "" : try await whisper(speech)
    }

    static func whisper(_ audio: PCMAudio) async throws -> String {
        let whisper = try #require(whisper, "faster-whisper is not installed: run scripts/setup")
        return try await whisper.transcribe(audio)
    }

    @Test("real speech in: transcribed, answered as it streams, each sentence spoken in order")
    func endToEnd() async throws {
        let question = try await Self.recording("What is the capital of France?")
        defer { try? FileManager.default.removeItem(at: question) }
        try await LoopbackServer.withServer { server in
            // The model's last piece waits until the first sentence is being spoken: the pipeline
            // must speak while the model still writes (on a loaded machine it could otherwise
            // finish writing before speech starts, and the order below would prove nothing).
            let speaking = LockedValue(false)
            var reply = sse(["The capital", " of France is Paris.", " It lies on the river", " Seine, in the north."])
            reply.beforePiece = { index in
                if index == 3 { await eventually { speaking.withLock { $0 } } }
            }
            server.enqueue(reply)
            let pipeline = VoicePipeline(transcribe: Self.transcribe, model: streamingModel(server), speak: Self.speak)
            var events: [VoiceTurnEvent] = []
            for await event in pipeline.run(.audio(question), history: [ChatTurn(.user, "Hello"), ChatTurn(.assistant, "Hi there!")]) {
                if event.name == "tts-start" { speaking.withLock { $0 = true } }
                events.append(event)
            }
            let names = events.map(\.name)
            #expect(names.first == "run-start" && names.last == "run-end")
            #expect(Array(names.prefix(3)) == ["run-start", "stt-start", "stt-end"])
            guard case .sttEnd(let heard) = events[2] else { Issue.record("no transcript"); return }
            #expect(heard.lowercased().contains("capital") && heard.lowercased().contains("france"), "\(heard)")
            // Two sentences, the first begun at its phrase; each piece started, voiced and ended in order.
            let spoken = events.compactMap { event -> String? in if case .ttsStart(_, let text) = event { text } else { nil } }
            #expect(spoken == ["The capital of France", "is Paris.", "It lies on the river Seine, in the north."])
            let audio = events.compactMap { event -> Data? in if case .ttsAudio(_, let wav) = event { wav } else { nil } }
            #expect(audio.count == 3)
            #expect(try audio.allSatisfy { try WAV.decode($0).samples.count > 1000 })
            // Speech of the first sentence started before the model had finished writing.
            let firstSpeech = try #require(names.firstIndex(of: "tts-start"))
            let replyEnd = try #require(names.firstIndex(of: "llm-end"))
            #expect(firstSpeech < replyEnd)
            // The transcript went to the model after the earlier turns.
            let messages = server.requests.first?.json?["messages"]?.arrayValue?.compactMap { $0["content"]?.stringValue }
            #expect(messages?.suffix(3) == ["Hello", "Hi there!", heard])
        }
    }

    @Test("a failed stage says which, and whether to retry; earlier stages keep their results")
    func failuresPerStage() async throws {
        try await LoopbackServer.withServer { server in
            server.enqueue(LoopbackReply(status: 503, json: ["error": ["message": "overloaded"]]))
            let failing = VoicePipeline(transcribe: Self.transcribe, model: streamingModel(server), speak: Self.speak)
            var events: [VoiceTurnEvent] = []
            for await event in failing.run(.text("Tell me a joke.")) { events.append(event) }
            #expect(events.map(\.name) == ["run-start", "error", "run-end"])
            if case .error(let stage, _, let retryable, let spoken) = events[1] {
                #expect(stage == .llm)
                #expect(retryable)
                // Said aloud too, in the turn's voice.
                #expect(spoken?.prefix(4) == Data("RIFF".utf8))
            }

            // The retry sends the same text, without recording again; this time the voice fails.
            server.enqueue(sse(["Why did the chicken cross the road?", " To get to the other side."]))
            let mute = VoicePipeline(transcribe: Self.transcribe, model: streamingModel(server),
                                     speak: { _ in throw SpeechError.engineFailed(engine: "test", status: "down", message: "no voice") })
            events = []
            for await event in mute.run(.text("Tell me a joke.")) { events.append(event) }
            let errors = events.compactMap { event -> VoiceStage? in if case .error(let stage, _, _, let spoken) = event, spoken == nil { stage } else { nil } }
            #expect(errors == [.tts])  // not said aloud: the voice is what failed
            #expect(events.contains(.llmEnd(text: "Why did the chicken cross the road? To get to the other side.")))
        }
    }

    @Test("each provider's stream, error and timeout: speech starts before the reply ends; a failure is a retryable llm error",
          arguments: [Provider.openai, .anthropic, .gemini])
    func providers(_ provider: Provider) async throws {
        try await LoopbackServer.withServer { server in
            func model(timeout: Double = loopbackTimeout) -> RemoteLanguageModel {
                RemoteLanguageModel(provider: provider, model: "test-model", baseURL: provider == .openai ? server.baseURL + "/v1" : server.baseURL,
                                    key: Secret("sk-test-0123456789"), timeout: timeout, retry: .none, limiter: ConcurrencyLimiter(limit: 1))
            }
            func turn(_ model: RemoteLanguageModel) async -> [VoiceTurnEvent] {
                var events: [VoiceTurnEvent] = []
                for await event in VoicePipeline(transcribe: Self.transcribe, model: model, speak: Self.speak).run(.text("Where is Paris?")) {
                    events.append(event)
                }
                return events
            }
            func llmFailure(_ events: [VoiceTurnEvent]) -> Bool? {
                events.lazy.compactMap { event -> Bool? in if case .error(.llm, _, let retryable, _) = event { retryable } else { nil } }.first
            }

            server.enqueue(VendorWire.streamed(provider, pieces: ["Paris is the capital", " of France. It lies on", " the Seine."], pause: .milliseconds(300)))
            let events = await turn(model())
            let names = events.map(\.name)
            #expect(!names.contains("error"), "\(events)")
            #expect(events.contains(.llmEnd(text: "Paris is the capital of France. It lies on the Seine.")))
            #expect(events.filter { $0.name == "llm-delta" }.count == 3)
            let firstSpeech = try #require(names.firstIndex(of: "tts-start"))
            #expect(firstSpeech < (names.firstIndex(of: "llm-end") ?? 0))

            server.enqueue(VendorWire.error(provider, status: 500, message: "overloaded"))
            #expect(llmFailure(await turn(model())) == true)

            var late = VendorWire.streamed(provider, pieces: ["Too late."])
            late.delay = .seconds(5)
            server.enqueue(late)
            #expect(llmFailure(await turn(model(timeout: 1))) == true)
        }
    }

    @Test("interruption: the user speaking over the answer stops the model mid-reply")
    func interruption() async throws {
        try await LoopbackServer.withServer { server in
            server.enqueue(VendorWire.streamed(.openai, pieces: ["It began to rain. "] + Array(repeating: "And it rained on. ", count: 60), pause: .milliseconds(100)))
            let pipeline = VoicePipeline(transcribe: Self.transcribe, model: streamingModel(server), speak: Self.speak)
            let listener = Task {
                var names: [String] = []
                for await event in pipeline.run(.text("Tell me about the weather.")) {
                    names.append(event.name)
                    if event.name == "tts-audio" { break }  // the first sentence is playing: the user speaks
                }
                return names
            }
            let names = await listener.value
            #expect(names.last == "tts-audio" && !names.contains("llm-end"))
            // The model's connection is closed long before its 60 pieces would have ended.
            for _ in 0..<100 where server.abandoned == 0 { try await Task.sleep(for: .milliseconds(50)) }
            #expect(server.abandoned == 1)
        }
    }

    @Test("silence is not sent to the model: the user is told nothing was heard")
    func silence() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("silence-\(UUID().uuidString).wav")
        try WAV.encode(PCMAudio.silence(seconds: 1.5, sampleRate: 16_000)).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try await LoopbackServer.withServer { server in
            let pipeline = VoicePipeline(transcribe: Self.transcribe, model: streamingModel(server), speak: Self.speak)
            var events: [VoiceTurnEvent] = []
            for await event in pipeline.run(.audio(file)) { events.append(event) }
            #expect(events.map(\.name) == ["run-start", "stt-start", "error", "run-end"])
            #expect(server.requests.isEmpty)
            if case .error(_, _, let retryable, let spoken) = events[2] {
                #expect(!retryable)
                #expect((spoken?.count ?? 0) > 44)
            }
        }
    }
}
