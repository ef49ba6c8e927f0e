import Audio
import Foundation
import Testing

@Suite("Turn detection on the caller's audio")
struct SpeechDetectorTests {
    static func tone(seconds: Double, amplitude: Double) -> [Int16] {
        (0..<Int(seconds * 8000)).map { Int16(amplitude * sin(2 * Double.pi * 300 * Double($0) / 8000)) }
    }

    static func noise(seconds: Double, amplitude: Int16) -> [Int16] {
        var generator = SystemRandomNumberGenerator()
        return (0..<Int(seconds * 8000)).map { _ in Int16.random(in: -amplitude...amplitude, using: &generator) }
    }

    @Test("speech on a hissing line: one start, one end with the utterance (its first syllable kept)")
    func utterance() {
        var detector = SpeechDetector()
        var events = detector.add(Self.noise(seconds: 1, amplitude: 150))
        #expect(events.isEmpty)
        events = detector.add(Self.tone(seconds: 1.2, amplitude: 6000))
        #expect(events == [.started])
        events = detector.add(Self.noise(seconds: 1, amplitude: 150))
        #expect(events.count == 1)
        guard case .ended(let samples) = events.first else { Issue.record("no end"); return }
        #expect(samples.count >= Int(1.2 * 8000))
        #expect(samples.count < Int(2.2 * 8000))
    }

    @Test("a click is not words: it ends empty; the line's noise never starts speech")
    func click() {
        var detector = SpeechDetector()
        #expect(detector.add(Self.noise(seconds: 3, amplitude: 300)).isEmpty)
        var events = detector.add(Self.tone(seconds: 0.08, amplitude: 9000))
        events += detector.add(Self.noise(seconds: 1, amplitude: 100))
        #expect(events == [.started, .ended([])])
    }

    static func tone16k(seconds: Double, amplitude: Double) -> [Int16] {
        (0..<Int(seconds * 16_000)).map { Int16(amplitude * sin(2 * Double.pi * 300 * Double($0) / 16_000)) }
    }

    @Test("a recording of silence or hiss holds no speech; one with words keeps them, not the silence around them")
    func wholeRecording() {
        let silence = PCMAudio(sampleRate: 16_000, samples: Array(repeating: 0, count: 16_000 * 119))
        #expect(SpeechDetector.speech(in: silence).samples.isEmpty)
        var generator = SystemRandomNumberGenerator()
        let hiss = PCMAudio(sampleRate: 16_000, samples: (0..<16_000 * 5).map { _ in Int16.random(in: -200...200, using: &generator) })
        #expect(SpeechDetector.speech(in: hiss).samples.isEmpty)
        let words = PCMAudio(sampleRate: 16_000, samples: Array(repeating: 0, count: 32_000) + Self.tone16k(seconds: 1.5, amplitude: 6000) + Array(repeating: 0, count: 48_000))
        let speech = SpeechDetector.speech(in: words).samples.count
        #expect(speech >= 24_000)
        #expect(speech < 24_000 + 16_000, "the silence around the words is left out, but for the preroll and the end's wait")
        let cutOff = PCMAudio(sampleRate: 16_000, samples: Array(repeating: 0, count: 16_000) + Self.tone16k(seconds: 1, amplitude: 6000))
        #expect(SpeechDetector.speech(in: cutOff).samples.count >= 16_000, "speech still going at the end of the recording is kept")
    }
}
