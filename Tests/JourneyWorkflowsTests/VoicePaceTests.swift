import Audio
import Foundation
@testable import JourneyWorkflows
import Journeys
import Speech
import SpeechEngines
import Synchronization
import Testing

/// A voice's pace measured with a real engine (espeak-ng reads about 175 words a minute).
@Suite struct VoicePaceTests {
    static func espeak(rate: Double = 1, _ text: String) async throws -> Data {
        let engine = EspeakEngine()
        let voices = try await engine.voices()
        let voice = try #require(voices.first { $0.id == "espeak-ng:en-us" } ?? voices.first)
        return WAV.encode(try await engine.synthesize(text, voice: voice, settings: SpeechSettings(rate: rate)))
    }

    static func pace(_ wav: Data, _ text: String) throws -> Double {
        try #require(StorytellingPace.wordsPerMinute(of: text, seconds: try WAV.decode(wav).durationSeconds))
    }

    @Test("a voice on this machine is measured once, then spoken at a storyteller's pace")
    func aLocalVoiceIsSlowedToTheTarget() async throws {
        let paces = VoicePaces()
        let samples = Mutex(0)
        let speak: @Sendable (String) async throws -> Data = { text in
            samples.withLock { $0 += 1 }
            return try await Self.espeak(text)
        }
        let natural = try Self.pace(try await Self.espeak(StorytellingPace.sample), StorytellingPace.sample)
        let rate = await paces.rate(for: "espeak-ng:en-us", isCloud: false, speakAtOwnRate: speak)
        #expect(natural > 150, "espeak-ng reads faster than a storyteller: \(natural) words a minute")
        #expect(rate < 1 && rate >= StorytellingPace.slowestRate)
        // Spoken at that rate, the voice reads near the storyteller's 145 words a minute.
        let paced = try Self.pace(try await Self.espeak(rate: rate, StorytellingPace.sample), StorytellingPace.sample)
        #expect(paced < natural * 0.95)
        #expect(abs(paced - max(145, natural * StorytellingPace.slowestRate)) < 20, "paced at \(paced) words a minute")
        _ = await paces.rate(for: "espeak-ng:en-us", isCloud: false, speakAtOwnRate: speak)
        #expect(samples.withLock { $0 } == 1)
    }

    @Test("a cloud voice is not charged for a sample: it keeps its own pace")
    func aCloudVoiceKeepsItsPace() async {
        let asked = Mutex(false)
        let rate = await VoicePaces().rate(for: "gemini:Kore", isCloud: true) { _ in
            asked.withLock { $0 = true }
            return Data()
        }
        #expect(rate == 1)
        #expect(!asked.withLock { $0 })
    }

    @Test("a voice that cannot read the sample keeps rate 1, and is measured again next time")
    func aFailingVoiceKeepsItsRate() async throws {
        let paces = VoicePaces()
        let rate = await paces.rate(for: "espeak-ng:en-us", isCloud: false) { _ in throw CancellationError() }
        #expect(rate == 1)
        let again = await paces.rate(for: "espeak-ng:en-us", isCloud: false) { text in try await Self.espeak(text) }
        #expect(again < 1)
    }
}
