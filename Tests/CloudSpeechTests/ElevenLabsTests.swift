import Audio
import CloudSpeech
import Foundation
import LanguageModels
import Speech
import StoryModel
import Testing
import TestSupport

@Suite("ElevenLabs")
struct ElevenLabsTests {
    static let listing = SpeechWire.elevenLabsVoices([
        SpeechWire.elevenLabsVoice(id: "JBFqnCBsd6RMkjVDRZzb", name: "George", labels: [
            "accent": "british", "description": "warm", "age": "middle_aged", "gender": "male", "use_case": "narrative_story",
        ]),
        SpeechWire.elevenLabsVoice(id: "EXAVITQu4vr4xnSDxMaL", name: "Sarah", labels: [
            "accent": "american", "descriptive": "professional", "age": "young", "gender": "female", "use_case": "entertainment_tv",
        ]),
        SpeechWire.elevenLabsVoice(id: "pqHfZKP75CvOlQylNhV4", name: "Bill", labels: ["accent": "american", "age": "old", "gender": "male", "description": "trustworthy"]),
        SpeechWire.elevenLabsVoice(id: "IKne3meq5aSn9XLyUdCD", name: "Charlie", labels: ["accent": "australian", "gender": "male", "age": "young"]),
        SpeechWire.elevenLabsVoice(id: "custom01", name: "My Clone", labels: [:], category: "cloned"),
        ["name": "no id, skipped"],
    ])

    @Test("The voices list maps labels to catalogue attributes")
    func voicesList() async throws {
        try await LoopbackServer.withServer(handler: { _ in Self.listing }) { server in
            let voices = try await elevenLabs(server).voices()
            let request = try #require(server.requests.first)
            #expect(request.method == "GET")
            #expect(request.uri == "/v1/voices")
            #expect(request.header("xi-api-key") == testKey)

            #expect(voices.map(\.id) == ["elevenlabs:JBFqnCBsd6RMkjVDRZzb", "elevenlabs:EXAVITQu4vr4xnSDxMaL", "elevenlabs:pqHfZKP75CvOlQylNhV4", "elevenlabs:IKne3meq5aSn9XLyUdCD", "elevenlabs:custom01"])
            let george = voices[0]
            #expect(george.displayName == "George" && george.engineVoice == "JBFqnCBsd6RMkjVDRZzb")
            #expect(george.gender == .male && george.age == .adult && george.accent == "en-GB")
            #expect(george.style == ["warm", "narrative story"])
            #expect(george.costPer1000Characters == 0.10)
            #expect(george.quality == VoiceQuality.studio.rawValue)
            #expect(voices[1].gender == .female && voices[1].accent == "en-US" && voices[1].style.contains("professional"))
            #expect(voices[2].age == .elderly)
            #expect(voices[3].accent == "en-AU")
            #expect(voices[4].gender == .unknown && voices[4].style == ["cloned"])
        }
    }

    @Test("Speech: voice id in the path, pcm_24000, {text, model_id}; the speed only when the rate asks")
    func success() async throws {
        try await LoopbackServer.withServer(handler: speaking(.elevenlabs, samples: 3000)) { server in
            let engine = elevenLabs(server)
            let audio = try await engine.synthesize("Good evening.", voice: voice(.elevenlabs, "JBFqnCBsd6RMkjVDRZzb"), settings: SpeechSettings())
            #expect(audio.sampleRate == 24_000 && audio.samples.count == 3000)
            let request = try #require(server.requests.first)
            #expect(request.method == "POST")
            #expect(request.uri == "/v1/text-to-speech/JBFqnCBsd6RMkjVDRZzb?output_format=pcm_24000")
            #expect(request.header("xi-api-key") == testKey)
            #expect(request.json == ["text": "Good evening.", "model_id": "eleven_multilingual_v2"])

            _ = try await engine.synthesize("Slowly now.", voice: voice(.elevenlabs, "JBFqnCBsd6RMkjVDRZzb"), settings: SpeechSettings(rate: 0.9))
            #expect(server.requests.last?.json?["voice_settings"]?["speed"] == 0.9)
        }
    }

    @Test("401 and 404 are explained; the echoed key is scrubbed")
    func errors() async throws {
        try await LoopbackServer.withServer(handler: { _ in SpeechWire.elevenLabsError(status: 401, message: "Invalid API key: \(testKey)") }) { server in
            let error = try await #require(throws: CloudSpeechError.self) {
                try await elevenLabs(server).synthesize("Hi.", voice: voice(.elevenlabs, "abc"), settings: SpeechSettings())
            }
            #expect(error.kind == .invalidKey)
            #expect(error.description.contains("ElevenLabs") && error.description.contains("ELEVENLABS_API_KEY"))
            #expect(!error.description.contains(testKey) && !(error.detail ?? "").contains(String(testKey.prefix(12))))
        }
        try await LoopbackServer.withServer(handler: { _ in SpeechWire.elevenLabsError(status: 404, message: "A voice with the voice_id nope was not found.") }) { server in
            let error = try await #require(throws: CloudSpeechError.self) {
                try await elevenLabs(server).synthesize("Hi.", voice: voice(.elevenlabs, "nope"), settings: SpeechSettings())
            }
            #expect(error.kind == .noAccess(status: 404))
            #expect(error.description.contains("storyvoice voices"))
            #expect(server.requests.count == 1)
        }
    }

    @Test("429 is retried after Retry-After; an empty body is empty audio")
    func rateLimitAndEmpty() async throws {
        try await LoopbackServer.withServer(handler: speaking(.elevenlabs)) { server in
            server.enqueue(SpeechWire.elevenLabsError(status: 429, message: "too many concurrent requests", retryAfter: "0"))
            let audio = try await elevenLabs(server).synthesize("Hi.", voice: voice(.elevenlabs, "abc"), settings: SpeechSettings())
            #expect(audio.samples.count == 2400 && server.requests.count == 2)
        }
        try await LoopbackServer.withServer(handler: { _ in SpeechWire.elevenLabsAudio(Data()) }) { server in
            _ = await #expect(throws: SpeechError.self) {
                try await elevenLabs(server).synthesize("Hi.", voice: voice(.elevenlabs, "abc"), settings: SpeechSettings())
            }
        }
    }

    @Test("5xx is retried to the limit, then reported as the vendor's server error")
    func serverError() async throws {
        try await LoopbackServer.withServer(handler: { _ in SpeechWire.elevenLabsError(status: 500, message: "internal error") }) { server in
            let error = try await #require(throws: CloudSpeechError.self) {
                try await elevenLabs(server).synthesize("Hi.", voice: voice(.elevenlabs, "abc"), settings: SpeechSettings())
            }
            #expect(error.kind == .providerError(status: 500))
            #expect(error.isTransient)
            #expect(error.description.contains("ElevenLabs") && error.description.contains("server error"))
            #expect(server.requests.count == 3)
        }
    }

    @Test("A WAV reply at another rate than asked is read as WAV and resampled, keeping its duration")
    func wavAtOtherRate() async throws {
        let wav = SpeechWire.wav(SpeechWire.pcm(samples: 16_000, rate: 16_000), rate: 16_000)
        try await LoopbackServer.withServer(handler: { _ in SpeechWire.elevenLabsAudio(wav) }) { server in
            let audio = try await elevenLabs(server).synthesize("Hi.", voice: voice(.elevenlabs, "abc"), settings: SpeechSettings())
            #expect(audio.sampleRate == 24_000)
            #expect(abs(audio.samples.count - 24_000) <= 2)  // one second either way: no header read as samples
        }
    }

    @Test("A rejected key on the voices list is explained, not an empty catalogue")
    func voicesListRejected() async throws {
        try await LoopbackServer.withServer(handler: { _ in SpeechWire.elevenLabsError(status: 401, message: "Invalid API key") }) { server in
            let error = try await #require(throws: CloudSpeechError.self) { try await elevenLabs(server).voices() }
            #expect(error.kind == .invalidKey)
            #expect(error.description.contains("ELEVENLABS_API_KEY"))
        }
    }

    @Test("Text over 5,000 characters is cut into several requests")
    func chunked() async throws {
        let text = longText(characters: 12_000)
        try await LoopbackServer.withServer(handler: speaking(.elevenlabs, samples: 500)) { server in
            let audio = try await elevenLabs(server).synthesize(text, voice: voice(.elevenlabs, "abc"), settings: SpeechSettings())
            let texts = server.requests.compactMap { $0.json?["text"]?.stringValue }
            #expect(texts.count == 3)
            #expect(texts.allSatisfy { $0.unicodeScalars.count <= 5000 })
            #expect(texts.joined(separator: " ") == text)
            #expect(audio.samples.count == 1500)
        }
    }
}
