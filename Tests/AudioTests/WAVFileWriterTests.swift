import Foundation
import Testing
@testable import Audio

@Suite struct WAVFileWriterTests {
    @Test func writesAValidFileInChunks() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let tone = TestSignals.sine(frequency: 440, seconds: 1.3, sampleRate: 22050, amplitude: 0.4)
        let url = scratch.file("chunks.wav")
        let writer = try WAVFileWriter(url: url, sampleRate: 22050)
        try writer.append(Array(tone.samples[..<1000]))
        try writer.appendSilence(seconds: 0.5)
        try writer.append(PCMAudio(sampleRate: 22050, samples: Array(tone.samples[1000...])))
        try writer.append([])
        #expect(writer.samplesWritten == tone.samples.count + 11025)
        try writer.finish()
        try writer.finish()  // a second finish is harmless

        let data = try Data(contentsOf: url)
        let decoded = try WAV.decode(data)
        let expected = Array(tone.samples[..<1000]) + [Int16](repeating: 0, count: 11025) + Array(tone.samples[1000...])
        #expect(decoded == PCMAudio(sampleRate: 22050, samples: expected))
        // The RIFF and data sizes in the header agree with the file.
        let bytes = [UInt8](data)
        #expect(Int(bytes.readLE(UInt32.self, at: 4)) == bytes.count - 8)
        #expect(Int(bytes.readLE(UInt32.self, at: 76)) == expected.count * 2)
        #expect(bytes.count == WAVFileWriter.headerSize + expected.count * 2)
    }

    @Test func ffmpegReadsBothRIFFAndRF64() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let tone = TestSignals.sine(frequency: 440, seconds: 2, sampleRate: 16000, amplitude: 0.4)
        let riff = try scratch.writeWAV("riff.wav", tone)
        let rf64URL = scratch.file("rf64.wav")
        let writer = try WAVFileWriter(url: rf64URL, sampleRate: 16000)
        writer.forceRF64 = true
        try writer.append(tone.samples)
        try writer.finish()

        #expect(try WAV.decode(Data(contentsOf: rf64URL)) == tone)
        for url in [riff, rf64URL] {
            let probe = try await AudioProber.probe(url)
            #expect(abs(probe.durationSeconds - 2) < 0.01)
            #expect(probe.codec == "pcm_s16le")
            #expect(probe.sampleRate == 16000 && probe.channels == 1)
        }
    }

    @Test func refusesWrongRatesAppendsAfterFinishAndMissingFolders() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let writer = try WAVFileWriter(url: scratch.file("a.wav"), sampleRate: 22050)
        #expect(throws: AudioError.self) { try writer.append(PCMAudio(sampleRate: 16000, samples: [1, 2])) }
        try writer.finish()
        #expect(throws: AudioError.self) { try writer.append([1]) }
        #expect(throws: AudioError.self) { try WAVFileWriter(url: scratch.file("missing/a.wav"), sampleRate: 22050) }
        #expect(throws: AudioError.self) { try WAVFileWriter(url: scratch.file("b.wav"), sampleRate: 0) }
    }
}
