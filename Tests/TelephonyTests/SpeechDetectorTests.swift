import Audio
import Foundation
@testable import Telephony
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
}
