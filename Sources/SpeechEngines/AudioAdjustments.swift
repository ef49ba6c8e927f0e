import Foundation
import Audio

/// The small amount of signal processing engines need when they lack a setting themselves.
enum AudioAdjustments {
    /// Scales every sample by `gain`, clipping at full scale. A gain of 1 returns `audio` as is.
    static func applyingGain(_ gain: Double, to audio: PCMAudio) -> PCMAudio {
        guard gain != 1 else { return audio }
        var scaled = audio
        scaled.samples = audio.samples.map { Int16(clamping: Int((Double($0) * gain).rounded())) }
        return scaled
    }

    /// Resamples `samples` from `sourceRate` to `targetRate` with a windowed-sinc filter
    /// (Hann window, 16 taps each side), low-passing at the lower of the two Nyquist rates so
    /// raising pitch does not fold high frequencies back into the band.
    static func resample(_ samples: [Int16], from sourceRate: Double, to targetRate: Double) -> [Int16] {
        guard sourceRate > 0, targetRate > 0, !samples.isEmpty else { return [] }
        if sourceRate == targetRate { return samples }
        let ratio = targetRate / sourceRate
        let outputCount = Int((Double(samples.count) * ratio).rounded())
        let cutoff = min(1, ratio)  // relative to the source Nyquist rate
        let halfWidth = 16.0 / cutoff
        let input = samples.map(Double.init)
        var output = [Int16](repeating: 0, count: outputCount)
        for index in 0..<outputCount {
            let center = Double(index) / ratio
            let first = max(0, Int((center - halfWidth).rounded(.up)))
            let last = min(input.count - 1, Int((center + halfWidth).rounded(.down)))
            guard first <= last else { continue }
            var sum = 0.0
            var weightSum = 0.0
            for source in first...last {
                let distance = Double(source) - center
                let x = distance * cutoff
                let sinc = x == 0 ? 1 : sin(Double.pi * x) / (Double.pi * x)
                let window = 0.5 + 0.5 * cos(Double.pi * distance / halfWidth)
                let weight = sinc * window
                sum += input[source] * weight
                weightSum += weight
            }
            output[index] = Int16(clamping: Int((weightSum != 0 ? sum / weightSum : 0).rounded()))
        }
        return output
    }
}
