import Foundation
import Testing
@testable import Audio

@Suite struct MuLawTests {
    @Test("the G.711 reference points: zero is 0xFF, the extremes clip to 0x80 and 0x00")
    func referencePoints() {
        #expect(MuLaw.encode(0) == 0xFF)
        #expect(MuLaw.encode(Int16.max) == 0x80)
        #expect(MuLaw.encode(Int16.min) == 0x00)
        #expect(MuLaw.decode(0xFF) == 0)
        #expect(MuLaw.decode(0x7F) == 0)
        #expect(MuLaw.decode(0x80) == 32124)
        #expect(MuLaw.decode(0x00) == -32124)
    }

    @Test("every byte decodes and encodes back to itself (but negative zero, 0x7F, which is 0xFF)")
    func everyByteRoundTrips() {
        for byte in UInt8.min...UInt8.max {
            let again = MuLaw.encode(MuLaw.decode(byte))
            #expect(again == (byte == 0x7F ? 0xFF : byte), "byte \(byte)")
        }
    }

    @Test("the error of a round trip stays within the segment's step (about 3% of the sample)")
    func quantisationError() {
        for sample in stride(from: -32000, through: 32000, by: 37) {
            let back = Int(MuLaw.decode(MuLaw.encode(Int16(sample))))
            let allowed = max(8, abs(sample) / 16)
            #expect(abs(back - sample) <= allowed, "sample \(sample) came back as \(back)")
        }
    }

    @Test("encoding is monotonic: a louder sample never decodes quieter")
    func monotonic() {
        var previous = Int.min
        for sample in stride(from: -32768, through: 32767, by: 11) {
            let back = Int(MuLaw.decode(MuLaw.encode(Int16(sample))))
            #expect(back >= previous)
            previous = back
        }
    }

    @Test("a 24 kHz tone becomes 8 kHz μ-law: a third of the samples, the tone kept")
    func resampledTone() {
        let rate = 24_000
        let samples = (0..<rate).map { Int16(8000 * sin(2 * Double.pi * 440 * Double($0) / Double(rate))) }
        let bytes = MuLaw.encode(PCMAudio(sampleRate: rate, samples: samples))
        #expect(bytes.count == 8000)
        let back = MuLaw.audio(bytes)
        #expect(back.sampleRate == 8000)
        let peak = back.samples.dropFirst(100).dropLast(100).map { abs(Int($0)) }.max() ?? 0
        #expect(peak > 7000 && peak < 9000)
    }
}
