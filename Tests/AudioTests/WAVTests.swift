import Foundation
import Testing
@testable import Audio

@Suite struct WAVTests {
    @Test func roundTripsMono16Bit() throws {
        let audio = PCMAudio(sampleRate: 22050, samples: [0, 1, -1, 32767, -32768, 1234])
        let decoded = try WAV.decode(WAV.encode(audio))
        #expect(decoded == audio)
    }

    @Test func mixesStereoDownToMono() throws {
        var bytes = WAV.header(sampleRate: 8000, sampleCount: 0)
        bytes[22] = 2  // channels
        let frames: [Int16] = [1000, 3000, -2000, -4000]
        var data = Data(bytes)
        for s in frames { withUnsafeBytes(of: s.littleEndian) { data.append(contentsOf: $0) } }
        // Patch the data chunk size to the 8 bytes just appended.
        data[40] = 8; data[41] = 0; data[42] = 0; data[43] = 0
        let decoded = try WAV.decode(data)
        #expect(decoded.samples.count == 2)
        #expect(abs(Int(decoded.samples[0]) - 2000) <= 1)
        #expect(abs(Int(decoded.samples[1]) + 3000) <= 1)
    }

    @Test func rejectsNonWAV() {
        #expect(throws: WAV.DecodeError.notRIFF) { try WAV.decode(Data("hello world, not audio".utf8)) }
    }
}
