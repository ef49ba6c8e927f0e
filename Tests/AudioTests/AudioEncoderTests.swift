import Foundation
import Testing
@testable import Audio

@Suite struct AudioEncoderTests {
    static let chapters = [
        ChapterMark(title: "Chapter One; In which = things # begin", startMs: 0, endMs: 2000),
        ChapterMark(title: "Chapter Two", startMs: 2000, endMs: 4500),
        ChapterMark(title: "Chapter Three", startMs: 4500, endMs: 6000),
    ]
    static let metadata = AudioMetadata(title: "The Gift of the Magi", author: "O. Henry", chapters: chapters)

    static func toneWAV(in scratch: ScratchDirectory, seconds: Double = 6) throws -> URL {
        try scratch.writeWAV("book.wav", TestSignals.sine(frequency: 330, seconds: seconds, sampleRate: 22050, amplitude: 0.3))
    }

    @Test(arguments: [AudioFormat.m4b, .m4a, .mp3, .opus])
    func encodesWithChaptersAndTags(format: AudioFormat) async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let wav = try Self.toneWAV(in: scratch)
        let output = scratch.file("book.\(format.rawValue)")
        try await AudioEncoder().encode(wav: wav, to: output, metadata: Self.metadata)

        let probe = try await AudioProber.probe(output)
        #expect(abs(probe.durationSeconds - 6) <= 0.1)
        #expect(probe.chapters.map(\.title) == Self.chapters.map(\.title))
        #expect(zip(probe.chapters, Self.chapters).allSatisfy { abs($0.startMs - $1.startMs) <= 20 })
        #expect(probe.tags["title"] == "The Gift of the Magi")
        #expect(probe.tags["artist"] == "O. Henry")
        #expect(probe.tags["genre"] == "Audiobook")
        #expect(probe.codec == ["m4b": "aac", "m4a": "aac", "mp3": "mp3", "opus": "opus"][format.rawValue])
        #expect(probe.channels == 1)
        // Only the input and the output remain: no temp files beside the output.
        #expect(try scratch.contents() == ["book.\(format.rawValue)", "book.wav"].sorted())
    }

    @Test("parts encoded at once join into one book, in order, with its chapters and tags", arguments: [AudioFormat.m4b, .mp3, .opus])
    func encodesInParts(format: AudioFormat) async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let output = scratch.file("book.\(format.rawValue)")
        // Tone, silence, tone: the middle part must stay in the middle.
        let parts = [TestSignals.sine(frequency: 330, seconds: 2, sampleRate: 22050, amplitude: 0.3),
                     PCMAudio.silence(seconds: 2, sampleRate: 22050),
                     TestSignals.sine(frequency: 550, seconds: 2, sampleRate: 22050, amplitude: 0.3)]
        try await AudioEncoder().encode(sampleRate: 22050, to: output, metadata: Self.metadata, pieces: 3) { piece, sink in
            try await sink.append(parts[piece].samples)
        }

        let probe = try await AudioProber.probe(output)
        // Each join adds at most one codec delay of near-silence.
        #expect(probe.durationSeconds >= 5.95 && probe.durationSeconds <= 6.3, "\(probe.durationSeconds)")
        #expect(probe.chapters.map(\.title) == Self.chapters.map(\.title))
        #expect(probe.tags["title"] == "The Gift of the Magi")
        #expect(probe.tags["artist"] == "O. Henry")
        #expect(probe.codec == ["m4b": "aac", "mp3": "mp3", "opus": "opus"][format.rawValue])
        let audio = try await AudioDecoder().decode(output, sampleRate: 22050)
        func loudness(_ from: Double, _ to: Double) -> Double {
            let slice = audio.samples[Int(from * 22050)..<min(audio.samples.count, Int(to * 22050))]
            return (slice.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, slice.count))).squareRoot()
        }
        #expect(loudness(0.3, 1.7) > 3000)
        #expect(loudness(2.4, 3.6) < 300)
        #expect(loudness(4.4, 5.7) > 3000)
        #expect(try scratch.contents() == ["book.\(format.rawValue)"])
    }

    @Test func m4bIsBrandedAsAnAudiobook() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let output = scratch.file("book.m4b")
        try await AudioEncoder().encode(wav: Self.toneWAV(in: scratch, seconds: 1), to: output, metadata: AudioMetadata(title: "Short"))
        let probe = try await AudioProber.probe(output)
        #expect(probe.tags["major_brand"]?.hasPrefix("M4B") == true)
        #expect(probe.tags["media_type"] == "2")
        #expect(probe.chapters.isEmpty)
    }

    @Test func wavIsCopiedAndReplacesAnExistingFile() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let wav = try Self.toneWAV(in: scratch, seconds: 0.5)
        let output = scratch.file("out.wav")
        try Data("old".utf8).write(to: output)
        try await AudioEncoder(ffmpegPath: "/nonexistent/ffmpeg").encode(wav: wav, to: output, metadata: Self.metadata)
        #expect(try Data(contentsOf: output) == Data(contentsOf: wav))
    }

    @Test func missingFolderFailsClearlyAndWritesNothing() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let wav = try Self.toneWAV(in: scratch, seconds: 0.5)
        let output = scratch.file("no/such/folder/book.m4b")
        let error = await #expect(throws: AudioError.self) {
            try await AudioEncoder().encode(wav: wav, to: output, metadata: Self.metadata)
        }
        #expect(error?.description.contains("does not exist") == true)
        #expect(try scratch.contents() == ["book.wav"])
    }

    @Test func unsupportedFormatFailsClearlyAndWritesNothing() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let wav = try Self.toneWAV(in: scratch, seconds: 0.5)
        let error = await #expect(throws: AudioError.self) {
            try await AudioEncoder().encode(wav: wav, to: scratch.file("book.xyz"), metadata: Self.metadata)
        }
        #expect(error?.description.contains(".xyz") == true)
        #expect(error?.description.contains(".m4b") == true)
        #expect(try scratch.contents() == ["book.wav"])
    }

    @Test func ffmpegFailureReportsItsStderrAndLeavesNoPartialFile() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let garbage = scratch.file("garbage.wav")
        try Data("this is not a wave file at all".utf8).write(to: garbage)
        let error = await #expect(throws: AudioError.self) {
            try await AudioEncoder().encode(wav: garbage, to: scratch.file("book.m4b"), metadata: Self.metadata)
        }
        guard case .toolFailed(let tool, let status, let stderr)? = error else {
            Issue.record("expected toolFailed, got \(String(describing: error))")
            return
        }
        #expect(tool == "ffmpeg" && status.contains("exit status"))
        #expect(!stderr.isEmpty)
        #expect(try scratch.contents() == ["garbage.wav"])
    }

    @Test func missingFFmpegSaysHowToInstallIt() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let wav = try Self.toneWAV(in: scratch, seconds: 0.5)
        let error = await #expect(throws: AudioError.self) {
            try await AudioEncoder(ffmpegPath: "/nonexistent/ffmpeg").encode(wav: wav, to: scratch.file("book.mp3"), metadata: Self.metadata)
        }
        #expect(error?.description.contains("scripts/setup") == true)
        #expect(try scratch.contents() == ["book.wav"])
        #expect(AudioEncoder.isAvailable())
    }

    @Test func cancellationLeavesNoPartialFile() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let wav = try Self.toneWAV(in: scratch, seconds: 240)
        let output = scratch.file("book.m4b")
        let encoding = Task { try await AudioEncoder().encode(wav: wav, to: output, metadata: Self.metadata) }
        try await Task.sleep(for: .milliseconds(300))
        encoding.cancel()
        let result = await encoding.result
        // Cancelled (almost always) or finished first on a fast machine: never anything half-written.
        switch result {
        case .failure(let error):
            #expect(error is CancellationError)
            #expect(try scratch.contents() == ["book.wav"])
        case .success: #expect(try scratch.contents() == ["book.m4b", "book.wav"])
        }
    }

    @Test func metadataEscapesFFMetadataSpecials() {
        #expect(FFMetadata.escape("a=b;c#d\\e\nf") == "a\\=b\\;c\\#d\\\\e\\\nf")
        let text = FFMetadata.render(tags: [("title", "T")], chapters: [ChapterMark(title: "B", startMs: 500, endMs: 500), ChapterMark(title: "A", startMs: 0, endMs: 500)])
        #expect(text.hasPrefix(";FFMETADATA1\ntitle=T\n"))
        #expect(text.components(separatedBy: "[CHAPTER]").count == 3)
        #expect(text.range(of: "title=A")!.lowerBound < text.range(of: "title=B")!.lowerBound)
        #expect(text.contains("START=500\nEND=501"))
        let vorbis = FFMetadata.vorbisChapterComments([ChapterMark(title: "Two", startMs: 4500, endMs: 6000), ChapterMark(title: "One", startMs: 0, endMs: 4500)])
        #expect(vorbis.map(\.key) == ["CHAPTER000", "CHAPTER000NAME", "CHAPTER001", "CHAPTER001NAME"])
        #expect(vorbis.map(\.value) == ["00:00:00.000", "One", "00:00:04.500", "Two"])
    }

    @Test func formatsFromExtensions() {
        #expect(AudioFormat(fileExtension: "M4B") == .m4b)
        #expect(AudioFormat(fileExtension: ".mp3") == .mp3)
        #expect(AudioFormat(fileExtension: "flac") == nil)
        #expect(AudioFormat(url: URL(fileURLWithPath: "/x/book.opus")) == .opus)
    }

    /// Measures encode speed for 10 minutes of audio. Prints, does not assert on time;
    /// run with STORYVOICE_BENCH=1.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["STORYVOICE_BENCH"] == "1"))
    func encodeThroughputForTenMinutes() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let minute = TestSignals.sine(frequency: 220, seconds: 60, sampleRate: 22050, amplitude: 0.3)
        let wav = scratch.file("ten.wav")
        let writer = try WAVFileWriter(url: wav, sampleRate: 22050)
        for _ in 0..<10 { try writer.append(minute.samples) }
        try writer.finish()
        for format in [AudioFormat.m4b, .mp3, .opus] {
            let output = scratch.file("ten.\(format.rawValue)")
            let clock = ContinuousClock()
            let elapsed = try await clock.measure {
                try await AudioEncoder().encode(wav: wav, to: output, metadata: AudioMetadata(title: "Bench", chapters: [ChapterMark(title: "All", startMs: 0, endMs: 600_000)]))
            }
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            print("encode 600 s to \(format.rawValue): \(String(format: "%.2f", seconds)) s, \(Int(600 / seconds))x real time")
            #expect(abs(try await AudioProber.probe(output).durationSeconds - 600) < 0.2)
        }
    }
}
