import Foundation

/// Audiobook loudness: RMS around -20 dBFS (ACX: -23…-18), peaks ≤ -3 dBFS.
public struct LoudnessTarget: Sendable, Hashable {
    public var rmsDBFS: Double
    public var peakDBFS: Double

    public init(rmsDBFS: Double, peakDBFS: Double) {
        self.rmsDBFS = rmsDBFS
        self.peakDBFS = peakDBFS
    }

    /// ACX's window centred: -20 dBFS RMS, -3 dBFS peak ceiling.
    public static let audiobook = LoudnessTarget(rmsDBFS: -20, peakDBFS: -3)
}

/// Measuring and setting the level of speech.
///
/// Levels are dBFS against a full-scale square wave (a full-scale sine reads -3 dBFS RMS).
/// Silence reads `-infinity`.
public enum Loudness {
    /// Frames of this many samples are gated in or out of the RMS (about 23 ms at 22.05 kHz).
    static let frameLength = 512
    /// Frames quieter than this are silence, whatever the rest of the signal does.
    static let absoluteGateDBFS = -60.0
    /// Frames this far below the level of the non-silent frames are pauses and breaths.
    static let relativeGateDB = -20.0

    /// Speech-active RMS: the RMS of the frames that pass an absolute and a relative gate (as
    /// EBU R128 gates loudness), so the pauses between words and lines do not pull it down.
    /// A signal too quiet for any frame to pass reads as its plain RMS.
    public static func rmsDBFS(_ samples: [Int16]) -> Double {
        guard !samples.isEmpty else { return -.infinity }
        var powers: [Double] = []
        powers.reserveCapacity(samples.count / frameLength + 1)
        var total = 0.0
        samples.withUnsafeBufferPointer { buffer in
            var start = 0
            while start < buffer.count {
                let end = min(buffer.count, start + frameLength)
                var sum = 0.0
                for i in start..<end {
                    let v = Double(buffer[i])
                    sum += v * v
                }
                total += sum
                powers.append(sum / Double(end - start))
                start = end
            }
        }
        let fullScale = 32768.0 * 32768.0
        let absoluteGate = fullScale * pow(10, absoluteGateDBFS / 10)
        let loud = powers.filter { $0 > absoluteGate }
        guard !loud.isEmpty else { return decibels(power: total / Double(samples.count) / fullScale) }
        let relativeGate = loud.reduce(0, +) / Double(loud.count) * pow(10, relativeGateDB / 10)
        let active = loud.filter { $0 > relativeGate }
        return decibels(power: active.reduce(0, +) / Double(active.count) / fullScale)
    }

    public static func peakDBFS(_ samples: [Int16]) -> Double {
        let peak = samples.reduce(0) { max($0, abs(Int($1))) }
        return peak == 0 ? -.infinity : 20 * log10(Double(peak) / 32768)
    }

    /// The gain (linear) that brings `audio` to the target RMS without its peak exceeding the ceiling.
    ///
    /// When the speech's crest factor is larger than the gap between target RMS and ceiling, the
    /// ceiling wins and the RMS lands below target; `normalize(_:target:)` limits peaks instead.
    /// Silence gets a gain of 1.
    public static func normalizingGain(for audio: PCMAudio, target: LoudnessTarget = .audiobook) -> Double {
        let rms = rmsDBFS(audio.samples)
        let peak = audio.samples.reduce(0) { max($0, abs(Int($1))) }
        guard rms.isFinite, peak > 0 else { return 1 }
        // Aim half a step below the largest sample under the ceiling, so rounding cannot cross it.
        let peakGain = (Double(ceilingSample(target.peakDBFS)) - 0.5) / Double(peak)
        return min(pow(10, (target.rmsDBFS - rms) / 20), peakGain)
    }

    /// Multiplies every sample by `gain`. Samples pushed past -1 dBFS are bent smoothly towards
    /// full scale (a tanh knee) instead of clipping hard, so an overshoot sounds soft, not cracked.
    public static func apply(gain: Double, to audio: PCMAudio) -> PCMAudio {
        guard gain != 1 else { return audio }
        var out = audio
        out.samples = audio.samples.map { sample(softLimited(Double($0) * gain / 32768)) }
        return out
    }

    /// Brings `audio` to the target RMS, turning down only the moments that would peak above
    /// the ceiling (a look-ahead limiter, ±5 ms around each peak), so peaky speech still reaches
    /// the target level. Gain is capped at `maxGainDB` so near-silence is not blown up into noise.
    public static func normalize(_ audio: PCMAudio, target: LoudnessTarget = .audiobook, maxGainDB: Double = 30) -> PCMAudio {
        let rms = rmsDBFS(audio.samples)
        guard rms.isFinite else { return audio }
        let ceiling = ceilingSample(target.peakDBFS)
        let radius = max(1, audio.sampleRate / 200)
        var gainDB = min(maxGainDB, target.rmsDBFS - rms)
        var result = audio
        // Limiting lowers the RMS a little; a couple of corrections land it on target.
        for _ in 0..<3 {
            result.samples = PeakLimiter.limit(audio.samples, gain: pow(10, gainDB / 20), ceiling: ceiling, radius: radius)
            let error = target.rmsDBFS - rmsDBFS(result.samples)
            if abs(error) < 0.1 || gainDB >= maxGainDB { break }
            gainDB = min(maxGainDB, gainDB + error)
        }
        return result
    }

    /// The largest sample magnitude at or below `dBFS`.
    static func ceilingSample(_ dBFS: Double) -> Int {
        Int((pow(10, dBFS / 20) * 32768).rounded(.down))
    }

    static func decibels(power: Double) -> Double {
        power > 0 ? 10 * log10(power) : -.infinity
    }

    /// Identity below the knee, tanh above it: continuous with slope 1 and never reaching 1.
    static func softLimited(_ x: Double) -> Double {
        let knee = 0.891  // -1 dBFS
        let magnitude = abs(x)
        guard magnitude > knee else { return x }
        let bent = knee + (1 - knee) * tanh((magnitude - knee) / (1 - knee))
        return x < 0 ? -bent : bent
    }

    static func sample(_ x: Double) -> Int16 {
        Int16(clamping: Int((x * 32768).rounded()))
    }
}

/// A look-ahead peak limiter in two linear passes: the gain each sample needs, its minimum over
/// ±radius, then a moving average over ±radius. Every sample's gain is an average of minima that
/// include its own need, so no sample exceeds the ceiling, and the gain ramps instead of stepping.
enum PeakLimiter {
    /// - Parameter ceiling: the largest sample magnitude allowed out.
    static func limit(_ samples: [Int16], gain: Double, ceiling ceilingSample: Int, radius: Int) -> [Int16] {
        let n = samples.count
        guard n > 0 else { return [] }
        let ceiling = Double(ceilingSample) / 32768
        let scaled = samples.map { Double($0) / 32768 * gain }
        let needed = scaled.map { abs($0) > ceiling ? ceiling / abs($0) : 1 }
        guard needed.contains(where: { $0 < 1 }) else { return scaled.map(Loudness.sample) }

        let minimum = slidingMinimum(needed, radius: radius)
        var prefix = [Double](repeating: 0, count: n + 1)
        for i in 0..<n { prefix[i + 1] = prefix[i] + minimum[i] }
        return (0..<n).map { i in
            let lower = max(0, i - radius), upper = min(n - 1, i + radius)
            let smoothed = (prefix[upper + 1] - prefix[lower]) / Double(upper - lower + 1)
            // Rounding can add half a step; the ceiling is a ceiling.
            let value = Int((scaled[i] * smoothed * 32768).rounded())
            return Int16(min(ceilingSample, max(-ceilingSample, value)))
        }
    }

    /// min(values[i-radius ... i+radius]) for every i, with a monotonic deque.
    static func slidingMinimum(_ values: [Double], radius: Int) -> [Double] {
        let n = values.count
        var out = [Double](repeating: 1, count: n)
        var deque = [Int](repeating: 0, count: n)
        var head = 0, tail = 0
        var next = 0
        for i in 0..<n {
            while next < n, next <= i + radius {
                while tail > head, values[deque[tail - 1]] >= values[next] { tail -= 1 }
                deque[tail] = next
                tail += 1
                next += 1
            }
            while deque[head] < i - radius { head += 1 }
            out[i] = values[deque[head]]
        }
        return out
    }
}
