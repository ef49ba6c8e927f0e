import Audio
import CloudSpeech
import Foundation
import LanguageModels
import Speech
import Testing
import TestSupport

@Suite("OpenAI speech")
struct OpenAISpeechTests {
    @Test("Sends the documented request with the key in the header and reads 24 kHz PCM")
    func success() async throws {
        try await LoopbackServer.withServer(handler: speaking(.openai, samples: 4800)) { server in
            let engine = openAI(server)
            let settings = SpeechSettings(delivery: "weary, sardonic old sailor")
            let audio = try await engine.synthesize("Ahoy there.", voice: voice(.openai, "onyx", style: ["deep", "authoritative"]), settings: settings)
            #expect(audio.sampleRate == 24_000)
            #expect(audio.samples.count == 4800)

            let request = try #require(server.requests.first)
            #expect(request.method == "POST")
            #expect(request.uri == "/v1/audio/speech")
            #expect(request.header("authorization") == "Bearer \(testKey)")
            #expect(request.header("content-type") == "application/json")
            let body = try #require(request.json)
            #expect(body["model"] == "gpt-4o-mini-tts")
            #expect(body["input"] == "Ahoy there.")
            #expect(body["voice"] == "onyx")
            #expect(body["response_format"] == "pcm")
            #expect(body["speed"] == nil)  // rate 1 is the default: not sent
            let instructions = try #require(body["instructions"]?.stringValue)
            #expect(instructions.contains("weary, sardonic old sailor"))
            #expect(instructions.contains("deep, authoritative"))
            #expect(!String(decoding: request.body, as: UTF8.self).contains(testKey))
        }
    }

    @Test("instructions go only to gpt-4o-mini-tts", arguments: ["tts-1", "tts-1-hd"])
    func noInstructionsForOlderModels(model: String) async throws {
        try await LoopbackServer.withServer(handler: speaking(.openai)) { server in
            _ = try await openAI(server, model: model).synthesize("Hello.", voice: voice(.openai, "fable"), settings: SpeechSettings(rate: 1.25, delivery: "cheerful"))
            let body = try #require(server.requests.first?.json)
            #expect(body["model"] == .string(model))
            #expect(body["instructions"] == nil)
            #expect(body["speed"] == 1.25)
        }
    }

    @Test("A pitch shift asks for rate ÷ k and resamples: pitch up an octave, same duration")
    func pitchShift() async throws {
        try await LoopbackServer.withServer(handler: speaking(.openai, samples: 24_000)) { server in
            let audio = try await openAI(server).synthesize("Hello.", voice: voice(.openai, "nova"), settings: SpeechSettings(pitch: 12, volume: 0.5))
            let body = try #require(server.requests.first?.json)
            #expect(body["speed"] == 0.5)  // the server would answer twice as long; resampling halves it
            #expect(audio.sampleRate == 24_000)
            #expect(abs(audio.samples.count - 12_000) <= 2)
            #expect((audio.samples.map { abs(Int($0)) }.max() ?? 0) <= 4100)  // volume 0.5 of an 8000 tone
        }
    }

    @Test("A WAV reply at an unexpected rate is read as WAV and resampled to 24 kHz")
    func wavAtOtherRate() async throws {
        let wav = SpeechWire.wav(SpeechWire.pcm(samples: 16_000, rate: 16_000), rate: 16_000)
        try await LoopbackServer.withServer(handler: { _ in SpeechWire.openAIAudio(wav, contentType: "audio/wav") }) { server in
            let audio = try await openAI(server, format: "wav").synthesize("Hello.", voice: voice(.openai, "alloy"), settings: SpeechSettings())
            #expect(server.requests.first?.json?["response_format"] == "wav")
            #expect(audio.sampleRate == 24_000)
            #expect(abs(audio.samples.count - 24_000) <= 2)  // one second either way: no header read as samples
        }
    }

    @Test("401 is an actionable error, sent once")
    func invalidKey() async throws {
        try await LoopbackServer.withServer(handler: { _ in VendorWire.error(.openai, status: 401, message: "Incorrect API key provided: \(testKey)") }) { server in
            let error = try await #require(throws: CloudSpeechError.self) {
                try await openAI(server).synthesize("Hello.", voice: voice(.openai, "alloy"), settings: SpeechSettings())
            }
            #expect(error.kind == .invalidKey)
            #expect(error.description.contains("OpenAI"))
            #expect(error.description.contains("OPENAI_API_KEY"))
            #expect(!error.description.contains(testKey))
            #expect(!(error.detail ?? "").contains(testKey))
            #expect(server.requests.count == 1)
        }
    }

    @Test("429 with Retry-After waits as asked, then succeeds")
    func rateLimitedThenSuccess() async throws {
        let waits = LockedValue<[Double]>([])
        try await LoopbackServer.withServer(handler: speaking(.openai)) { server in
            server.enqueue(VendorWire.error(.openai, status: 429, message: "Rate limit reached", retryAfter: "1.5"))
            let engine = openAI(server, sleep: { seconds in waits.withLock { $0.append(seconds) } })
            let audio = try await engine.synthesize("Hello.", voice: voice(.openai, "alloy"), settings: SpeechSettings())
            #expect(audio.samples.count == 2400)
            #expect(server.requests.count == 2)
            #expect(waits.value == [1.5])
        }
    }

    @Test("5xx is retried to the limit, then reported")
    func serverError() async throws {
        try await LoopbackServer.withServer(handler: { _ in VendorWire.error(.openai, status: 503, message: "overloaded") }) { server in
            let error = try await #require(throws: CloudSpeechError.self) {
                try await openAI(server).synthesize("Hello.", voice: voice(.openai, "alloy"), settings: SpeechSettings())
            }
            #expect(error.kind == .providerError(status: 503))
            #expect(error.isTransient)
            #expect(error.description.contains("server error"))
            #expect(server.requests.count == 3)
        }
    }

    @Test("An empty reply is rejected as empty audio")
    func emptyAudio() async throws {
        try await LoopbackServer.withServer(handler: { _ in SpeechWire.openAIAudio(Data()) }) { server in
            let error = try await #require(throws: SpeechError.self) {
                try await openAI(server).synthesize("Hello there.", voice: voice(.openai, "alloy"), settings: SpeechSettings())
            }
            guard case .emptyAudio(let engine, let text) = error else { Issue.record("wrong error \(error)"); return }
            #expect(engine == "OpenAI")
            #expect(text == "Hello there.")
        }
    }

    @Test("Text over 4,096 characters goes in several requests cut on sentence boundaries, audio joined in order")
    func chunked() async throws {
        let text = longText(characters: 10_000)
        try await LoopbackServer.withServer(handler: speaking(.openai, samples: 1000)) { server in
            let audio = try await openAI(server).synthesize(text, voice: voice(.openai, "alloy"), settings: SpeechSettings())
            let inputs = server.requests.compactMap { $0.json?["input"]?.stringValue }
            #expect(inputs.count >= 3)
            #expect(inputs == TextChunker.chunks(text, limit: 4096))
            #expect(audio.samples.count == 1000 * inputs.count)
            for input in inputs {
                #expect(input.unicodeScalars.count <= 4096)
                #expect([".", "!", "?", "”"].contains(input.last.map(String.init) ?? ""))
            }
            #expect(inputs.joined(separator: " ") == text)
        }
    }

    @Test("Voices: eleven for gpt-4o-mini-tts, nine for tts-1, with attributes and prices")
    func catalogue() {
        let mini = OpenAISpeechEngine.voices(model: "gpt-4o-mini-tts")
        #expect(mini.map(\.engineVoice) == ["alloy", "ash", "ballad", "coral", "echo", "fable", "nova", "onyx", "sage", "shimmer", "verse"])
        let tts1 = OpenAISpeechEngine.voices(model: "tts-1")
        #expect(tts1.count == 9 && !tts1.contains { $0.engineVoice == "ballad" || $0.engineVoice == "verse" })
        #expect(tts1.allSatisfy { $0.costPer1000Characters == 0.015 && $0.quality == VoiceQuality.neural.rawValue })
        #expect(OpenAISpeechEngine.voices(model: "tts-1-hd").allSatisfy { $0.costPer1000Characters == 0.030 && $0.quality == VoiceQuality.studio.rawValue })
        let fable = mini.first { $0.engineVoice == "fable" }
        #expect(fable?.accent == "en-GB")
        let onyx = mini.first { $0.engineVoice == "onyx" }
        #expect(onyx?.gender == .male && onyx?.style.contains("deep") == true)
        #expect(Set(mini.map(\.id)).count == 11)
    }
}
