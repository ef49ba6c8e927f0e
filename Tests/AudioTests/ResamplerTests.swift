import Foundation
import Testing
@testable import Audio

@Suite struct ResamplerTests {
    @Test(arguments: [(22050, 16000), (16000, 22050), (22050, 44100), (16000, 24000), (48000, 22050), (22051, 16000)])
    func preservesDurationAndFrequency(from: Int, to: Int) {
        let tone = TestSignals.sine(frequency: 440, seconds: 1, sampleRate: from, amplitude: 0.5)
        let out = Resampler.resample(tone, to: to)
        #expect(out.sampleRate == to)
        #expect(abs(out.samples.count - to) <= 1)
        #expect(abs(TestSignals.frequency(of: out) - 440) < 440 * 0.02)
        // Level is kept: the interpolator has unity gain in the passband.
        let middle = out.samples[out.samples.count / 4 ..< out.samples.count * 3 / 4]
        #expect(abs(TestSignals.rms(middle) - TestSignals.rms(tone.samples[...])) < 0.5)
    }

    @Test func downsamplingFiltersWhatTheNewRateCannotHold() {
        // 10 kHz is above 16 kHz's Nyquist frequency: kept, it would alias to 6 kHz.
        let high = TestSignals.sine(frequency: 10_000, seconds: 0.5, sampleRate: 22050, amplitude: 0.5)
        let out = Resampler.resample(high, to: 16000)
        let middle = out.samples[out.samples.count / 4 ..< out.samples.count * 3 / 4]
        #expect(TestSignals.rms(middle) < TestSignals.rms(high.samples[...]) - 40)
    }

    /// Rates with no small common ratio (22051 → 16000) take the quantized-phase path.
    @Test(arguments: [16000, 44100])
    func keepsAConstantConstant(to: Int) {
        let constant = PCMAudio(sampleRate: 22051, samples: [Int16](repeating: 12000, count: 22051))
        let out = Resampler.resample(constant, to: to)
        // Away from the edges (where the signal meets silence) every sample is the constant.
        let middle = out.samples[out.samples.count / 10 ..< out.samples.count * 9 / 10]
        #expect(middle.allSatisfy { abs(Int($0) - 12000) <= 2 })
    }

    @Test func sameRateAndEmptyInputPassThrough() {
        let tone = TestSignals.sine(frequency: 300, seconds: 0.1, sampleRate: 16000, amplitude: 0.3)
        #expect(Resampler.resample(tone, to: 16000) == tone)
        #expect(Resampler.resample(PCMAudio(sampleRate: 16000), to: 22050) == PCMAudio(sampleRate: 22050))
    }

    /// Measures resampling speed (prints, asserts only the length); run with STORYVOICE_BENCH=1.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["STORYVOICE_BENCH"] == "1"))
    func resampleThroughput() {
        let speech = TestSignals.sine(frequency: 180, seconds: 60, sampleRate: 16000, amplitude: 0.3)
        let clock = ContinuousClock()
        var out = PCMAudio(sampleRate: 0)
        let elapsed = clock.measure { out = Resampler.resample(speech, to: 22050) }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("resample 60 s 16000 -> 22050 Hz: \(String(format: "%.2f", seconds)) s, \(Int(60 / seconds))x real time")
        #expect(abs(out.samples.count - 60 * 22050) <= 1)
    }
}
