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

/// First-audio latency per engine (cold: a fresh engine, so Piper includes starting a worker
/// and loading its model; warm: the next line), and Piper's throughput with one worker and a
/// pool of two on concurrent paragraphs. Measurements, printed; enable with STORYVOICE_BENCH=1.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["STORYVOICE_BENCH"] != nil), .serialized)
struct LatencyAndPoolBenchmarks {
    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    @Test(arguments: EngineCase.allCases)
    func firstAudioLatency(_ engineCase: EngineCase) async throws {
        try #require(engineCase.isInstalled)
        let engine: any SpeechSynthesizer = engineCase == .piper
            ? PiperEngine(configuration: Installed.piperConfiguration(poolSize: 1)) : engineCase.engine
        let voice = try #require(try await engine.voices().first { $0.id == engineCase.voiceID })
        let clock = ContinuousClock()
        let line = "Nothing today, miss, he said."
        let cold = try await clock.measure { _ = try await engine.synthesize(line, voice: voice, settings: SpeechSettings()) }
        let warm = try await clock.measure { _ = try await engine.synthesize(line, voice: voice, settings: SpeechSettings()) }
        print("LATENCY \(engineCase.rawValue): cold \(String(format: "%.3f", Self.seconds(cold))) s, warm \(String(format: "%.3f", Self.seconds(warm))) s")
        if let piper = engine as? PiperEngine { await piper.shutdown() }
        #expect(Self.seconds(warm) > 0)
    }

    @Test(arguments: [1, 2])
    func piperPoolThroughput(poolSize: Int) async throws {
        try #require(Installed.piper)
        let engine = PiperEngine(configuration: Installed.piperConfiguration(poolSize: poolSize))
        let voice = try #require(try await engine.voices().first)
        // Start every worker before timing.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<poolSize { group.addTask { _ = try await engine.synthesize("Warm up.", voice: voice, settings: SpeechSettings()) } }
            try await group.waitForAll()
        }
        let clock = ContinuousClock()
        var audioSeconds = 0.0
        let elapsed = try await clock.measure {
            audioSeconds = try await withThrowingTaskGroup(of: Double.self) { group in
                for _ in 0..<4 {
                    group.addTask { try await engine.synthesize(RealTimeFactorTests.paragraph, voice: voice, settings: SpeechSettings()).durationSeconds }
                }
                return try await group.reduce(0, +)
            }
        }
        let wall = Self.seconds(elapsed)
        print("POOL piper workers=\(poolSize): 4 paragraphs, audio \(String(format: "%.1f", audioSeconds)) s, wall \(String(format: "%.2f", wall)) s, \(String(format: "%.1f", audioSeconds / wall))x real time")
        await engine.shutdown()
        #expect(audioSeconds > 40)
    }
}
