import Audio
import CloudSpeech
import Foundation
import LanguageModels
import Speech
import Testing
import TestSupport

@Suite("Gemini speech")
struct GeminiSpeechTests {
    @Test("Sends generateContent with AUDIO and the voice name; decodes base64 PCM at the mime type's rate")
    func success() async throws {
        let pcm = SpeechWire.pcm(samples: 4800)
        try await LoopbackServer.withServer(handler: { _ in SpeechWire.geminiAudio(pcm) }) { server in
            let audio = try await gemini(server).synthesize("Once upon a time.", voice: voice(.gemini, "Kore"), settings: SpeechSettings())
            #expect(audio.sampleRate == 24_000)
            #expect(audio.samples.count == 4800)
            #expect(Data(audio.samples.flatMap { withUnsafeBytes(of: $0.littleEndian) { Array($0) } }) == pcm)

            let request = try #require(server.requests.first)
            #expect(request.method == "POST")
            #expect(request.uri == "/v1beta/models/gemini-2.5-flash-preview-tts:generateContent")
            #expect(request.header("x-goog-api-key") == testKey)
            #expect(!request.uri.contains(testKey))  // the key goes in the header, never the query
            let body = try #require(request.json)
            #expect(body["contents"]?[0]?["parts"]?[0]?["text"] == "Once upon a time.")
            #expect(body["generationConfig"]?["responseModalities"] == ["AUDIO"])
            #expect(body["generationConfig"]?["speechConfig"]?["voiceConfig"]?["prebuiltVoiceConfig"]?["voiceName"] == "Kore")
        }
    }

    @Test("Audio at another rate (16 kHz in the mime type) is resampled to 24 kHz, keeping its duration")
    func otherRate() async throws {
        let pcm = SpeechWire.pcm(samples: 16_000, rate: 16_000)
        try await LoopbackServer.withServer(handler: { _ in SpeechWire.geminiAudio(pcm, mimeType: "audio/L16;codec=pcm;rate=16000") }) { server in
            let audio = try await gemini(server).synthesize("Hello.", voice: voice(.gemini, "Puck"), settings: SpeechSettings())
            #expect(audio.sampleRate == 24_000)
            #expect(abs(audio.samples.count - 24_000) <= 2)
        }
    }

    @Test("Data that is already a WAV file is read as WAV, not wrapped again")
    func riff() async throws {
        let wav = SpeechWire.wav(SpeechWire.pcm(samples: 2400), rate: 24_000)
        try await LoopbackServer.withServer(handler: { _ in SpeechWire.geminiAudio(wav, mimeType: "audio/wav") }) { server in
            let audio = try await gemini(server).synthesize("Hello.", voice: voice(.gemini, "Puck"), settings: SpeechSettings())
            #expect(audio.samples.count == 2400)  // 44 header bytes would have added 22 samples
            #expect(audio.samples.first == 0)
        }
    }

    @Test("Empty audio, a missing inlineData and an unusable mime type are clear errors")
    func rejects() async throws {
        try await LoopbackServer.withServer(handler: { _ in SpeechWire.geminiAudio(Data()) }) { server in
            let error = try await #require(throws: SpeechError.self) {
                try await gemini(server).synthesize("Hello.", voice: voice(.gemini, "Puck"), settings: SpeechSettings())
            }
            #expect(error.description.contains("Gemini produced no audio"))
        }
        try await LoopbackServer.withServer(handler: { request in VendorWire.success(.gemini, answer: "I can't speak.", for: request) }) { server in
            let error = try await #require(throws: CloudSpeechError.self) {
                try await gemini(server).synthesize("Hello.", voice: voice(.gemini, "Puck"), settings: SpeechSettings())
            }
            #expect(error.kind == .unparseableAnswer)
            #expect(error.description.contains("inlineData"))
        }
        try await LoopbackServer.withServer(handler: { _ in SpeechWire.geminiAudio(SpeechWire.pcm(samples: 10), mimeType: "audio/mpeg") }) { server in
            let error = try await #require(throws: CloudSpeechError.self) {
                try await gemini(server).synthesize("Hello.", voice: voice(.gemini, "Puck"), settings: SpeechSettings())
            }
            #expect(error.description.contains("audio/mpeg"))
        }
    }

    @Test("401, 429 then success, 5xx")
    func statuses() async throws {
        try await LoopbackServer.withServer(handler: { _ in VendorWire.error(.gemini, status: 401, message: "API key not valid.") }) { server in
            let error = try await #require(throws: CloudSpeechError.self) {
                try await gemini(server).synthesize("Hello.", voice: voice(.gemini, "Puck"), settings: SpeechSettings())
            }
            #expect(error.kind == .invalidKey && error.description.contains("GEMINI_API_KEY"))
        }
        try await LoopbackServer.withServer(handler: speaking(.gemini)) { server in
            server.enqueue(VendorWire.error(.gemini, status: 429, message: "Resource has been exhausted", retryAfter: "0"))
            let audio = try await gemini(server).synthesize("Hello.", voice: voice(.gemini, "Puck"), settings: SpeechSettings())
            #expect(audio.samples.count == 2400 && server.requests.count == 2)
        }
        try await LoopbackServer.withServer(handler: { _ in VendorWire.error(.gemini, status: 500, message: "Internal error") }) { server in
            let error = try await #require(throws: CloudSpeechError.self) {
                try await gemini(server).synthesize("Hello.", voice: voice(.gemini, "Puck"), settings: SpeechSettings())
            }
            #expect(error.kind == .providerError(status: 500) && server.requests.count == 3)
        }
    }

    @Test("Mime types: rate read, raw PCM without a rate is 24 kHz, compressed types refused")
    func mimeTypes() {
        #expect(GeminiSpeechEngine.sampleRate(mimeType: "audio/L16;codec=pcm;rate=24000") == 24_000)
        #expect(GeminiSpeechEngine.sampleRate(mimeType: "audio/l16; rate=16000") == 16_000)
        #expect(GeminiSpeechEngine.sampleRate(mimeType: "audio/pcm") == 24_000)
        #expect(GeminiSpeechEngine.sampleRate(mimeType: "audio/mpeg") == nil)
        #expect(GeminiSpeechEngine.sampleRate(mimeType: "audio/L16;rate=zero") == nil)
    }

    @Test("Thirty prebuilt voices with gender and style")
    func catalogue() {
        let voices = GeminiSpeechEngine.voices(model: "gemini-2.5-flash-preview-tts")
        #expect(voices.count == 30)
        #expect(Set(voices.map(\.id)).count == 30)
        #expect(voices.filter { $0.gender == .female }.count == 14)
        #expect(voices.first { $0.engineVoice == "Kore" }?.style == ["firm"])
        #expect(voices.first { $0.engineVoice == "Charon" }?.gender == .male)
        #expect(voices.allSatisfy { $0.costPer1000Characters > 0 })
    }
}
