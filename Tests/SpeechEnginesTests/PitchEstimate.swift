import Audio

/// A rough fundamental-frequency estimate (autocorrelation over voiced 40 ms frames), enough
/// to tell that a pitch setting moved the voice.
enum PitchEstimate {
    static func median(_ audio: PCMAudio) -> Double? {
        let rate = audio.sampleRate
        let samples = audio.samples.map(Double.init)
        let frame = rate / 25, hop = rate / 100
        let minLag = rate / 400, maxLag = rate / 60
        var estimates: [Double] = []
        var start = 0
        while start + frame + maxLag < samples.count {
            let window = Array(samples[start..<(start + frame + maxLag)])
            let energy = (0..<frame).reduce(0.0) { $0 + window[$1] * window[$1] }
            if (energy / Double(frame)).squareRoot() > 500 {
                var bestLag = 0, best = 0.0
                for lag in minLag...maxLag {
                    var sum = 0.0
                    for i in 0..<frame { sum += window[i] * window[i + lag] }
                    if sum > best { best = sum; bestLag = lag }
                }
                if bestLag > 0, best > 0.5 * energy { estimates.append(Double(rate) / Double(bestLag)) }
            }
            start += hop
        }
        guard estimates.count >= 5 else { return nil }
        return estimates.sorted()[estimates.count / 2]
    }
}
