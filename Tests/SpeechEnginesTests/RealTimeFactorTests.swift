import Foundation
import Speech
import SpeechEngines
import Testing

/// Prints how many times faster than real time each engine speaks a paragraph. A measurement,
/// not a test of speed: enable with `STORYVOICE_BENCH=1 swift test --filter RealTimeFactor`.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["STORYVOICE_BENCH"] != nil))
struct RealTimeFactorTests {
    static let paragraph = """
        The lamps were lit along the harbour wall when Margaret finally reached the inn. She set \
        her bag down by the fire, shook the rain from her coat, and asked the landlord whether a \
        letter had come for her. He shook his head slowly. "Nothing today, miss," he said, "but \
        the mail coach was late again, and the road from the north is flooded past the old mill."
        """

    @Test(arguments: EngineCase.allCases)
    func realTimeFactor(_ engineCase: EngineCase) async throws {
        try #require(engineCase.isInstalled)
        let voice = try #require(try await engineCase.voice())
        _ = try await engineCase.engine.synthesize("Warm up.", voice: voice, settings: SpeechSettings())
        let clock = ContinuousClock()
        var audioSeconds = 0.0
        let elapsed = try await clock.measure {
            for _ in 0..<3 {
                audioSeconds += try await engineCase.engine.synthesize(Self.paragraph, voice: voice, settings: SpeechSettings()).durationSeconds
            }
        }
        let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("RTF \(engineCase.rawValue) \(voice.id): \(Self.paragraph.count) chars, audio \(String(format: "%.2f", audioSeconds / 3)) s, wall \(String(format: "%.3f", wall / 3)) s, \(String(format: "%.1f", audioSeconds / wall))x real time")
        #expect(audioSeconds / 3 > 10)
    }
}
