import Audio
import ChatStories
import Foundation

/// The video's sound track: the project's own message sounds, synthesised here (no recordings,
/// nothing downloaded), placed at the moments the timeline gives, silence between.
public enum ChatSoundTrack {
    public static let sampleRate = 44_100

    /// Writes the track for `timeline` to a mono 16-bit WAV at `url`, a second at a time
    /// (memory stays flat however long the video).
    public static func write(_ timeline: ChatTimeline, to url: URL) throws {
        let writer = try WAVFileWriter(url: url, sampleRate: sampleRate)
        let total = timeline.durationMS * sampleRate / 1000
        let sounds = timeline.sounds.map { (start: $0.atMS * sampleRate / 1000, samples: samples($0.sound)) }
        var nextSound = 0
        var chunkStart = 0
        while chunkStart < total {
            let chunkEnd = min(total, chunkStart + sampleRate)
            var chunk = [Float](repeating: 0, count: chunkEnd - chunkStart)
            // Sounds are in time order; skip those that ended before this chunk.
            while nextSound < sounds.count, sounds[nextSound].start + sounds[nextSound].samples.count <= chunkStart { nextSound += 1 }
            var index = nextSound
            while index < sounds.count, sounds[index].start < chunkEnd {
                let sound = sounds[index]
                let from = max(chunkStart, sound.start)
                let to = min(chunkEnd, sound.start + sound.samples.count)
                if from < to {
                    for position in from..<to { chunk[position - chunkStart] += sound.samples[position - sound.start] }
                }
                index += 1
            }
            try writer.append(chunk.map { Int16(max(-1, min(1, $0)) * 32_000) })
            chunkStart = chunkEnd
        }
        try writer.finish()
    }

    /// One sound's samples in -1…1.
    static func samples(_ sound: ChatSound) -> [Float] {
        switch sound {
        case .sent: sent
        case .received: received
        case .key: key
        }
    }

    /// A short rising sweep, 600 → 1,400 Hz in 110 ms.
    private static let sent: [Float] = {
        let count = sampleRate * 110 / 1000
        var phase = 0.0
        return (0..<count).map { index in
            let progress = Double(index) / Double(count)
            phase += 2 * Double.pi * (600 + 800 * progress) / Double(sampleRate)
            return Float(0.32 * sin(phase) * envelope(progress, attack: 0.08))
        }
    }()

    /// Two soft notes, 880 Hz then 1,320 Hz.
    private static let received: [Float] = {
        tone(hertz: 880, milliseconds: 80, amplitude: 0.28) + tone(hertz: 1_320, milliseconds: 130, amplitude: 0.26)
    }()

    /// A keyboard tick: 8 ms of decaying noise (fixed seed, so every video sounds alike).
    private static let key: [Float] = {
        var generator = SplitMix(seed: 0x5709_7015)
        let count = sampleRate * 8 / 1000
        var previous: Float = 0
        return (0..<count).map { index in
            let noise = Float(Double(generator.next() % 2001) / 1000 - 1)
            // A first difference takes the rumble out: a tick, not a thud.
            defer { previous = noise }
            return 0.12 * (noise - previous) * Float(exp(-Double(index) / Double(count) * 5))
        }
    }()

    private static func tone(hertz: Double, milliseconds: Int, amplitude: Double) -> [Float] {
        let count = sampleRate * milliseconds / 1000
        return (0..<count).map { index in
            let progress = Double(index) / Double(count)
            return Float(amplitude * sin(2 * Double.pi * hertz * Double(index) / Double(sampleRate)) * envelope(progress, attack: 0.06))
        }
    }

    /// A quick rise, then an exponential fall to silence (no click at either end).
    private static func envelope(_ progress: Double, attack: Double) -> Double {
        progress < attack ? progress / attack : exp(-(progress - attack) * 5) * (1 - progress)
    }
}

/// A small deterministic random number generator (SplitMix64).
struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476C_E5B9_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
