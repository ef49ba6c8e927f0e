/// Mono 16-bit PCM audio held in memory: one synthesized line, a pause, a preview.
///
/// Whole books are never held this way; they stream from cached segment files to disk.
public struct PCMAudio: Sendable, Hashable {
    public var sampleRate: Int
    public var samples: [Int16]

    public init(sampleRate: Int, samples: [Int16] = []) {
        self.sampleRate = sampleRate
        self.samples = samples
    }

    public var durationSeconds: Double {
        sampleRate > 0 ? Double(samples.count) / Double(sampleRate) : 0
    }

    public static func silence(seconds: Double, sampleRate: Int) -> PCMAudio {
        PCMAudio(sampleRate: sampleRate, samples: Array(repeating: 0, count: max(0, Int((seconds * Double(sampleRate)).rounded()))))
    }
}
