import Foundation

/// Resampling between engine rates (espeak 22050, flite/festival 16000 ...) and the book's rate.
///
/// A Kaiser-windowed sinc interpolator: the kernel is tabulated once per call at fine phase
/// steps and read with linear interpolation, so any pair of rates works without a rational
/// polyphase table. When downsampling, the kernel is widened to low-pass below the new Nyquist
/// frequency, so sibilants do not alias into the speech band.
public enum Resampler {
    /// Zero crossings on each side of the kernel at the input rate; more is sharper and slower.
    static let zeroCrossings = 16
    /// Table entries per input sample step.
    static let phases = 256
    /// Cut-off as a fraction of the lower Nyquist frequency: a little transition band below it.
    static let passband = 0.92
    static let kaiserBeta = 8.0

    public static func resample(_ audio: PCMAudio, to sampleRate: Int) -> PCMAudio {
        guard sampleRate > 0, audio.sampleRate > 0, sampleRate != audio.sampleRate else {
            return sampleRate == audio.sampleRate || sampleRate <= 0 ? audio : PCMAudio(sampleRate: sampleRate)
        }
        let input = audio.samples
        let ratio = Double(sampleRate) / Double(audio.sampleRate)
        let outputCount = Int((Double(input.count) * ratio).rounded())
        guard !input.isEmpty, outputCount > 0 else { return PCMAudio(sampleRate: sampleRate) }

        // Scale < 1 stretches the kernel in input samples, lowering its cut-off to the output's Nyquist.
        let scale = min(1, ratio) * passband
        let halfWidth = Int((Double(zeroCrossings) / scale).rounded(.up))
        let table = kernelTable(halfWidth: halfWidth, scale: scale)
        let step = 1 / ratio
        let count = input.count
        var output = [Int16](repeating: 0, count: outputCount)

        input.withUnsafeBufferPointer { x in
            table.withUnsafeBufferPointer { h in
                output.withUnsafeMutableBufferPointer { y in
                    for n in 0..<outputCount {
                        let position = Double(n) * step  // exact for any realistic length
                        let center = Int(position.rounded(.down))
                        let fraction = position - Double(center)
                        let first = max(0, center - halfWidth + 1), last = min(count - 1, center + halfWidth)
                        var sum = 0.0, weights = 0.0
                        if first <= last {
                            for i in first...last {
                                let distance = abs(Double(i - center) - fraction) * Double(phases)
                                let index = Int(distance)
                                let t = distance - Double(index)
                                let w = h[index] + (h[index + 1] - h[index]) * t
                                sum += w * Double(x[i])
                                weights += w
                            }
                        }
                        // Dividing by the weights that fell inside the signal keeps unity gain at the edges.
                        let value = weights > 1e-9 ? sum / weights : 0
                        y[n] = Int16(clamping: Int(value.rounded()))
                    }
                }
            }
        }
        return PCMAudio(sampleRate: sampleRate, samples: output)
    }

    /// The kernel at `phases` steps per input sample from 0 to `halfWidth` (plus a guard entry).
    private static func kernelTable(halfWidth: Int, scale: Double) -> [Double] {
        let size = halfWidth * phases + 2
        let normalizer = besselI0(kaiserBeta)
        return (0..<size).map { k in
            let t = Double(k) / Double(phases)
            guard t < Double(halfWidth) else { return 0 }
            let x = scale * t
            let sinc = x == 0 ? 1 : sin(Double.pi * x) / (Double.pi * x)
            let r = t / Double(halfWidth)
            let window = besselI0(kaiserBeta * (1 - r * r).squareRoot()) / normalizer
            return scale * sinc * window
        }
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
}
