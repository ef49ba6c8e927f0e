import Foundation
import Testing
@testable import Audio

@Suite struct ResamplerTests {
    @Test(arguments: [(22050, 16000), (16000, 22050), (22050, 44100), (16000, 24000), (48000, 22050)])
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

    @Test func sameRateAndEmptyInputPassThrough() {
        let tone = TestSignals.sine(frequency: 300, seconds: 0.1, sampleRate: 16000, amplitude: 0.3)
        #expect(Resampler.resample(tone, to: 16000) == tone)
        #expect(Resampler.resample(PCMAudio(sampleRate: 16000), to: 22050) == PCMAudio(sampleRate: 22050))
    }
}
