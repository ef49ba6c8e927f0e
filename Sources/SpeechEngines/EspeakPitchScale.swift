/// How espeak-ng's `-p` pitch setting (0–99, 50 = the voice's own pitch) moves the voice.
///
/// Measured here on espeak-ng 1.51 (median F0 of a sentence, male and female variants agree
/// within 0.2 semitones). Below about 20 the pitch stops falling, so shifts lower than
/// about −4.6 semitones are clamped there.
enum EspeakPitchScale {
    /// (`-p` value, semitones relative to `-p 50`), increasing.
    static let calibration: [(value: Double, semitones: Double)] = [
        (20, -4.6), (30, -3.1), (40, -1.7), (50, 0), (60, 1.7), (70, 3.5), (80, 5.4), (90, 7.3), (99, 9.0),
    ]

    /// The `-p` value that shifts the voice by `semitones`, clamped to what espeak-ng can do.
    static func value(forSemitones semitones: Double) -> Int {
        let points = calibration
        if semitones <= points[0].semitones { return Int(points[0].value) }
        if semitones >= points[points.count - 1].semitones { return Int(points[points.count - 1].value) }
        for (lower, upper) in zip(points, points.dropFirst()) where semitones <= upper.semitones {
            let fraction = (semitones - lower.semitones) / (upper.semitones - lower.semitones)
            return Int((lower.value + fraction * (upper.value - lower.value)).rounded())
        }
        return 50
    }
}
