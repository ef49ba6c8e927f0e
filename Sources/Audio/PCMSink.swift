import Foundation

/// Mono 16-bit PCM on its way to an encoder: buffered, counted, and handed on in large chunks.
///
/// One task appends; the sink is not shared. `samplesWritten` counts what was appended, so a
/// producer can lay out timings as it goes.
public final class PCMSink {
    public let sampleRate: Int
    public private(set) var samplesWritten = 0

    private var pending: [Int16] = []
    /// Samples buffered before a hand-off: large enough to make writes rare, small enough not to matter.
    private let chunkSamples = 128 * 1024
    private let deliver: ([Int16]) async throws -> Void

    init(sampleRate: Int, deliver: @escaping ([Int16]) async throws -> Void) {
        self.sampleRate = sampleRate
        self.deliver = deliver
        pending.reserveCapacity(chunkSamples)
    }

    public func append(_ samples: [Int16]) async throws {
        pending += samples
        samplesWritten += samples.count
        if pending.count >= chunkSamples { try await flush() }
    }

    public func appendSilence(seconds: Double) async throws {
        var remaining = Self.samples(seconds: seconds, sampleRate: sampleRate)
        while remaining > 0 {
            let count = min(remaining, chunkSamples)
            try await append([Int16](repeating: 0, count: count))
            remaining -= count
        }
    }

    func flush() async throws {
        guard !pending.isEmpty else { return }
        let chunk = pending
        pending.removeAll(keepingCapacity: true)
        try await deliver(chunk)
    }

    /// The samples `seconds` of silence take: the same rounding `PCMAudio.silence` and
    /// `WAVFileWriter.appendSilence` use, so a layout computed ahead matches what is written.
    public static func samples(seconds: Double, sampleRate: Int) -> Int {
        max(0, Int((seconds * Double(sampleRate)).rounded()))
    }
}
