import Foundation

/// Resampling between engine rates (espeak 22050, flite/festival 16000 ...) and the book's rate.
///
/// Polyphase Kaiser-windowed sinc. Output sample `n` sits at input position `n·from/to`; its
/// fractional part picks one of `to/gcd` exact phases (or one of 4096 for unusual rate pairs,
/// a timing error under 1/8000 of a sample), each a precomputed row of taps normalised to unity
/// gain, so the inner loop is a plain dot product. When downsampling, the kernel is widened to
/// low-pass below the new Nyquist frequency, so sibilants do not alias into the speech band.
/// Outside the signal counts as silence.
public enum Resampler {
    /// Zero crossings on each side of the kernel; more is sharper and slower.
    static let zeroCrossings = 16
    /// Cut-off as a fraction of the lower Nyquist frequency: a little transition band below it.
    static let passband = 0.92
    static let kaiserBeta = 8.0
    static let maxPhases = 4096

    public static func resample(_ audio: PCMAudio, to sampleRate: Int) -> PCMAudio {
        guard sampleRate != audio.sampleRate else { return audio }
        guard sampleRate > 0, audio.sampleRate > 0 else { return PCMAudio(sampleRate: sampleRate) }
        let from = audio.sampleRate
        let divisor = gcd(from, sampleRate)
        let up = sampleRate / divisor, down = from / divisor
        let outputCount = Int((Double(audio.samples.count) * Double(sampleRate) / Double(from)).rounded())
        guard !audio.samples.isEmpty, outputCount > 0 else { return PCMAudio(sampleRate: sampleRate) }

        // Scale < 1 stretches the kernel in input samples, lowering its cut-off to the output's Nyquist.
        let scale = min(1, Double(sampleRate) / Double(from)) * passband
        let halfWidth = Int((Double(zeroCrossings) / scale).rounded(.up))
        let taps = 2 * halfWidth
        let exact = up <= maxPhases
        let phases = exact ? up : maxPhases
        let table = kernelTable(phases: phases, halfWidth: halfWidth, scale: scale)

        // Zero padding on both sides lets every output read a full row of taps.
        var input = [Float](repeating: 0, count: audio.samples.count + 2 * taps)
        for (i, sample) in audio.samples.enumerated() { input[halfWidth + i] = Float(sample) }
        let step = Double(from) / Double(sampleRate)
        var output = [Int16](repeating: 0, count: outputCount)

        input.withUnsafeBufferPointer { x in
            table.withUnsafeBufferPointer { h in
                output.withUnsafeMutableBufferPointer { y in
                    for n in 0..<outputCount {
                        var center: Int, phase: Int
                        if exact {
                            let position = n * down  // in units of 1/up input samples
                            center = position / up
                            phase = position % up
                        } else {
                            let position = Double(n) * step
                            center = Int(position)
                            phase = Int(((position - Double(center)) * Double(phases)).rounded())
                            if phase == phases { center += 1; phase = 0 }
                        }
                        // Taps cover input center-halfWidth+1 ... center+halfWidth; padding shifts by halfWidth.
                        let row = phase * taps, base = center + 1
                        var sum: Float = 0
                        for k in 0..<taps { sum += h[row + k] * x[base + k] }
                        y[n] = Int16(clamping: Int(sum.rounded()))
                    }
                }
            }
        }
        return PCMAudio(sampleRate: sampleRate, samples: output)
    }

    /// One row of `2·halfWidth` taps per phase; row `p` interpolates at fraction `p/phases` past
    /// its centre sample. Each row sums to 1 so a constant stays constant.
    private static func kernelTable(phases: Int, halfWidth: Int, scale: Double) -> [Float] {
        let taps = 2 * halfWidth
        let normalizer = besselI0(kaiserBeta)
        var table = [Float](repeating: 0, count: phases * taps)
        var row = [Double](repeating: 0, count: taps)
        for phase in 0..<phases {
            let fraction = Double(phase) / Double(phases)
            for k in 0..<taps {
                let t = Double(k - halfWidth + 1) - fraction
                let r = t / Double(halfWidth)
                guard abs(r) < 1 else { row[k] = 0; continue }
                let x = scale * t
                let sinc = x == 0 ? 1 : sin(Double.pi * x) / (Double.pi * x)
                row[k] = sinc * besselI0(kaiserBeta * (1 - r * r).squareRoot()) / normalizer
            }
            let sum = row.reduce(0, +)
            for k in 0..<taps { table[phase * taps + k] = Float(row[k] / sum) }
        }
        return table
    }

    /// The zeroth-order modified Bessel function of the first kind, for the Kaiser window.
    private static func besselI0(_ x: Double) -> Double {
        var sum = 1.0, term = 1.0, k = 1.0
        let quarter = x * x / 4
        while term > 1e-12 * sum {
            term *= quarter / (k * k)
            sum += term
            k += 1
        }
        return sum
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }
}
