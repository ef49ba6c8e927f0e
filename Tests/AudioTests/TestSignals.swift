import Foundation
@testable import Audio

/// Signals and scratch space shared by the audio tests (no shared mutable state).
enum TestSignals {
    /// A sine of `frequency` Hz at `amplitude` (0...1 of full scale).
    static func sine(frequency: Double, seconds: Double, sampleRate: Int, amplitude: Double) -> PCMAudio {
        let count = Int(seconds * Double(sampleRate))
        let samples = (0..<count).map { n in
            Int16((amplitude * 32767 * sin(2 * Double.pi * frequency * Double(n) / Double(sampleRate))).rounded())
        }
        return PCMAudio(sampleRate: sampleRate, samples: samples)
    }

    /// Frequency estimated from upward zero crossings.
    static func frequency(of audio: PCMAudio) -> Double {
        var crossings = 0
        for i in 1..<audio.samples.count where audio.samples[i - 1] < 0 && audio.samples[i] >= 0 { crossings += 1 }
        return Double(crossings) / audio.durationSeconds
    }

    static func rms(_ samples: ArraySlice<Int16>) -> Double {
        let power = samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, samples.count))
        return 10 * log10(max(power, 1e-12) / (32768 * 32768))
    }
}

/// A fresh directory under the system temp dir, one per test.
struct ScratchDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("storyvoice-audio-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }

    func remove() { try? FileManager.default.removeItem(at: url) }

    /// Writes `audio` through the streaming writer in chunks, as Narration does.
    func writeWAV(_ name: String, _ audio: PCMAudio, chunk: Int = 4096) throws -> URL {
        let target = file(name)
        let writer = try WAVFileWriter(url: target, sampleRate: audio.sampleRate)
        var start = 0
        while start < audio.samples.count {
            let end = min(audio.samples.count, start + chunk)
            try writer.append(Array(audio.samples[start..<end]))
            start = end
        }
        try writer.finish()
        return target
    }
}
