import Foundation
import Testing
@testable import Audio

@Suite struct LoudnessTests {
    /// Speech-like: a tone that talks for 0.4 s and pauses for 0.2 s.
    static func phrases(amplitude: Double, sampleRate: Int = 22050) -> PCMAudio {
        let tone = TestSignals.sine(frequency: 220, seconds: 0.4, sampleRate: sampleRate, amplitude: amplitude)
        let pause = PCMAudio.silence(seconds: 0.2, sampleRate: sampleRate)
        var samples: [Int16] = []
        for _ in 0..<5 { samples += tone.samples + pause.samples }
        return PCMAudio(sampleRate: sampleRate, samples: samples)
    }

    @Test func measuresSineLevels() {
        let tone = TestSignals.sine(frequency: 440, seconds: 1, sampleRate: 22050, amplitude: 0.5)
        // A sine's RMS is 3 dB below its peak; 0.5 of full scale is -6 dBFS.
        #expect(abs(Loudness.peakDBFS(tone.samples) - -6.02) < 0.05)
        #expect(abs(Loudness.rmsDBFS(tone.samples) - -9.03) < 0.1)
        #expect(Loudness.rmsDBFS([0, 0, 0]) == -.infinity)
        #expect(Loudness.peakDBFS([]) == -.infinity)
    }

    @Test func pausesDoNotPullTheRMSDown() {
        let talking = Self.phrases(amplitude: 0.1)
        let continuous = TestSignals.sine(frequency: 220, seconds: 2, sampleRate: 22050, amplitude: 0.1)
        #expect(abs(Loudness.rmsDBFS(talking.samples) - Loudness.rmsDBFS(continuous.samples)) < 0.5)
    }

    @Test(arguments: [0.01, 0.03, 0.9])
    func normalizesToTheAudiobookTarget(amplitude: Double) {
        let audio = Self.phrases(amplitude: amplitude)
        let gain = Loudness.normalizingGain(for: audio)
        let out = Loudness.apply(gain: gain, to: audio)
        #expect(abs(Loudness.rmsDBFS(out.samples) - -20) <= 1)
        #expect(Loudness.peakDBFS(out.samples) <= -3)
        #expect(out.sampleRate == audio.sampleRate && out.samples.count == audio.samples.count)
    }

    /// Speech with clicks: the peak ceiling decides the gain, and `normalize` limits the clicks instead.
    @Test func peakyAudioRespectsTheCeiling() {
        var audio = Self.phrases(amplitude: 0.05)
        for i in stride(from: 1000, to: audio.samples.count, by: 7000) { audio.samples[i] = 30000 }
        let gain = Loudness.normalizingGain(for: audio)
        let gained = Loudness.apply(gain: gain, to: audio)
        #expect(Loudness.peakDBFS(gained.samples) <= -3)
        #expect(Loudness.rmsDBFS(gained.samples) < -21)  // the ceiling won

        let limited = Loudness.normalize(audio)
        #expect(Loudness.peakDBFS(limited.samples) <= -3)
        #expect(abs(Loudness.rmsDBFS(limited.samples) - -20) <= 1)
    }

    @Test func applyBendsOvershootInsteadOfWrapping() {
        let loud = TestSignals.sine(frequency: 440, seconds: 0.1, sampleRate: 22050, amplitude: 0.8)
        let hard = Loudness.apply(gain: 4, to: loud)
        for (original, boosted) in zip(loud.samples, hard.samples) where original != 0 {
            #expect(original.signum() == boosted.signum())
        }
        // Just reaching full scale linearly: bent below it by the knee, untouched below -1 dBFS.
        let touching = Loudness.apply(gain: 1.25, to: loud)
        #expect(touching.samples.map { abs(Int($0)) }.max()! < 32200)
        for (original, gained) in zip(loud.samples, touching.samples) where abs(Double(original) * 1.25) < 0.85 * 32768 {
            #expect(abs(Double(gained) - Double(original) * 1.25) <= 0.5)
        }
        #expect(Loudness.apply(gain: 1, to: loud) == loud)
    }

    @Test func silenceGetsUnityGain() {
        #expect(Loudness.normalizingGain(for: .silence(seconds: 1, sampleRate: 16000)) == 1)
        #expect(Loudness.normalize(.silence(seconds: 0.1, sampleRate: 16000)) == .silence(seconds: 0.1, sampleRate: 16000))
    }
}
