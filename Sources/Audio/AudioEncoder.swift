import Foundation
import StoryModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// ffmpeg as an encoder: a WAV file, or PCM streamed as it is produced, in; the format the
/// output's extension names out.
///
/// Memory stays flat however long the book: ffmpeg reads a WAV itself, and streamed audio goes
/// through in bounded chunks. Output is written to a hidden temp file beside `output` and
/// renamed into place on success, so a failure or cancellation leaves nothing half-written.
public struct AudioEncoder: Sendable {
    private let ffmpeg: ExternalTool
    /// Bit rate for lossy formats; nil picks one per format (64 kb/s AAC and MP3, 32 kb/s Opus,
    /// each plenty for mono speech).
    public var bitrateKbps: Int?

    /// - Parameter ffmpegPath: the ffmpeg executable; nil looks `ffmpeg` up on PATH.
    public init(ffmpegPath: String? = nil, bitrateKbps: Int? = nil) {
        self.ffmpeg = ExternalTool(name: "ffmpeg", path: ffmpegPath)
        self.bitrateKbps = bitrateKbps
    }

    /// Whether `ffmpeg` is on PATH.
    public static func isAvailable() -> Bool {
        ExternalTool(name: "ffmpeg").resolvedPath() != nil
    }

    /// The first line of `ffmpeg -version`, or nil when ffmpeg is missing or fails.
    public func version() async -> String? {
        guard let text = try? await ffmpeg.output(["-hide_banner", "-version"], limit: 1 << 20) else { return nil }
        return text.split(whereSeparator: \.isNewline).first.map(String.init)
    }

    /// Encodes `wav` to `output` in the format its extension names.
    ///
    /// - `.m4b`/`.m4a`: AAC in MP4 with chapters, title/artist/album/genre tags and faststart;
    ///   `.m4b` is branded and tagged as an audiobook.
    /// - `.mp3`: LAME with ID3v2.3 tags and chapter frames.
    /// - `.opus`: Opus in Ogg with Vorbis-comment tags and chapters.
    /// - `.wav`: a copy of the input (no ffmpeg needed; WAV carries no chapters).
    public func encode(wav: URL, to output: URL, metadata: AudioMetadata) async throws {
        guard FileManager.default.fileExists(atPath: wav.path) else { throw AudioError.inputMissing(wav) }
        try await writing(output) { partial, format in
            if format == .wav {
                do {
                    try FileManager.default.copyItem(at: wav, to: partial)
                } catch {
                    throw AudioError.io(output, error.localizedDescription)
                }
            } else {
                try await transcode(wav: wav, to: partial, format: format, metadata: metadata)
            }
        }
    }

    /// Encodes the mono 16-bit PCM that `produce` appends to its sink into `output`, in the
    /// format its extension names (as `encode(wav:to:metadata:)`).
    ///
    /// The audio is streamed into ffmpeg's standard input as it is produced: no WAV of the whole
    /// book is written first, and ffmpeg sees the end of its input, finishes and exits when this
    /// process does, even when it is killed. `.wav` is written directly. Output goes to a hidden
    /// partial file renamed into place on success.
    public func encode(sampleRate: Int, to output: URL, metadata: AudioMetadata, audio produce: (PCMSink) async throws -> Void) async throws {
        guard sampleRate > 0 else { throw AudioError.invalidSampleRate(sampleRate) }
        try await writing(output) { partial, format in
            if format == .wav {
                let writer = try WAVFileWriter(url: partial, sampleRate: sampleRate)
                let sink = PCMSink(sampleRate: sampleRate) { try writer.append($0) }
                try await produce(sink)
                try await sink.flush()
                try writer.finish()
            } else {
                try await transcode(sampleRate: sampleRate, to: partial, format: format, metadata: metadata, audio: produce)
            }
        }
    }

    /// Encodes the audio in `pieces` consecutive parts, each appended by `produce(part, sink)`,
    /// into `output`, as `encode(sampleRate:to:metadata:audio:)` would encode them one after
    /// the other.
    ///
    /// AAC (`.m4b`, `.m4a`) and MP3 encode the parts at once, one ffmpeg each, and join them
    /// without re-encoding (their frames simply follow each other), then add tags and chapters:
    /// an encoder uses one core, so on N cores this takes about 1/N of the time. Each join adds
    /// the codec's start-up delay (1,024 samples for AAC, about 1,100 for MP3) of near-silence;
    /// callers cut the audio where the book pauses anyway. Other formats encode in one stream.
    public func encode(
        sampleRate: Int, to output: URL, metadata: AudioMetadata, pieces: Int,
        audio produce: @escaping @Sendable (Int, PCMSink) async throws -> Void
    ) async throws {
        guard let format = AudioFormat(url: output), pieces > 1, Self.joinsWithoutReencoding(format) else {
            try await encode(sampleRate: sampleRate, to: output, metadata: metadata) { sink in
                for piece in 0..<max(1, pieces) { try await produce(piece, sink) }
            }
            return
        }
        guard sampleRate > 0 else { throw AudioError.invalidSampleRate(sampleRate) }
        try await writing(output) { partial, format in
            let parts = (0..<pieces).map { partial.deletingPathExtension().appendingPathExtension("part\($0).\(Self.elementaryExtension(format))") }
            defer { for part in parts { try? FileManager.default.removeItem(at: part) } }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (piece, part) in parts.enumerated() {
                    group.addTask {
                        try await streamEncode(sampleRate: sampleRate, into: ["-c:a"] + Self.codec(format) + Self.elementaryStream(format) + ["file:" + part.path]) { sink in
                            try await produce(piece, sink)
                        }
                    }
                }
                try await group.waitForAll()
            }
            let joined = partial.deletingPathExtension().appendingPathExtension("joined.\(Self.elementaryExtension(format))")
            defer { try? FileManager.default.removeItem(at: joined) }
            try Self.concatenate(parts, into: joined)
            try await withMetadataFile(metadata, format: format) { metadataFile in
                var arguments = ["-hide_banner", "-nostdin", "-nostats", "-loglevel", "error", "-y", "-i", "file:" + joined.path]
                arguments += mapping(metadataFile: metadataFile, format: format, mono: false)
                arguments += ["-c:a", "copy"] + Self.container(format, bitrateKbps: bitrateKbps)
                arguments.append("file:" + partial.path)
                try await ffmpeg.run(arguments)
            }
        }
    }

    /// Formats whose encoded frames can be joined end to end.
    static func joinsWithoutReencoding(_ format: AudioFormat) -> Bool {
        format == .m4b || format == .m4a || format == .mp3
    }

    private static func elementaryExtension(_ format: AudioFormat) -> String { format == .mp3 ? "mp3" : "aac" }

    /// A bare stream of frames: ADTS for AAC, MP3 without tags or a Xing header.
    private static func elementaryStream(_ format: AudioFormat) -> [String] {
        format == .mp3 ? ["-write_xing", "0", "-id3v2_version", "0", "-f", "mp3"] : ["-f", "adts"]
    }

    private static func concatenate(_ parts: [URL], into joined: URL) throws {
        guard FileManager.default.createFile(atPath: joined.path, contents: nil), let handle = FileHandle(forWritingAtPath: joined.path) else {
            throw AudioError.io(joined, "could not create the joined stream")
        }
        defer { try? handle.close() }
        for part in parts {
            guard let reader = FileHandle(forReadingAtPath: part.path) else { throw AudioError.io(part, "a part is missing") }
            defer { try? reader.close() }
            while let chunk = try reader.read(upToCount: 1 << 20), !chunk.isEmpty { try handle.write(contentsOf: chunk) }
        }
    }

    /// ffmpeg reading mono 16-bit PCM from standard input, as `produce` appends it.
    private func streamEncode(sampleRate: Int, into outputArguments: [String], audio produce: (PCMSink) async throws -> Void) async throws {
        let arguments = ["-hide_banner", "-nostdin", "-nostats", "-loglevel", "error", "-y",
                         "-f", "s16le", "-ar", "\(sampleRate)", "-ac", "1", "-i", "pipe:0"] + outputArguments
        try await ffmpeg.run(arguments) { writer in
            let sink = PCMSink(sampleRate: sampleRate) { samples in
                let bytes = samples.map(\.littleEndian).withUnsafeBytes { Array($0) }
                try await writer.write(bytes)
            }
            try await produce(sink)
            try await sink.flush()
        }
    }

    /// Checks `output`'s format and folder (and finds ffmpeg) before creating anything, lets
    /// `write` fill a hidden partial file beside it, and renames that into place on success;
    /// on failure or cancellation the partial file is removed.
    private func writing(_ output: URL, _ write: (_ partial: URL, AudioFormat) async throws -> Void) async throws {
        guard let format = AudioFormat(url: output) else {
            throw AudioError.unsupportedFormat(output.pathExtension.isEmpty ? output.lastPathComponent : "." + output.pathExtension)
        }
        try await PartialFile.write(output) { partial in
            if format != .wav { _ = try ffmpeg.requirePath() }
            try await write(partial, format)
        }
    }

    private func transcode(sampleRate: Int, to partial: URL, format: AudioFormat, metadata: AudioMetadata, audio produce: (PCMSink) async throws -> Void) async throws {
        try await withMetadataFile(metadata, format: format) { metadataFile in
            let arguments = mapping(metadataFile: metadataFile, format: format) + codecArguments(for: format) + ["file:" + partial.path]
            try await streamEncode(sampleRate: sampleRate, into: arguments, audio: produce)
        }
    }

    private func transcode(wav: URL, to partial: URL, format: AudioFormat, metadata: AudioMetadata) async throws {
        try await withMetadataFile(metadata, format: format) { metadataFile in
            // `file:` keeps ffmpeg from reading a colon in a path as a protocol name.
            var arguments = ["-hide_banner", "-nostdin", "-nostats", "-loglevel", "error", "-y", "-i", "file:" + wav.path]
            arguments += mapping(metadataFile: metadataFile, format: format)
            arguments += codecArguments(for: format)
            arguments.append("file:" + partial.path)
            try await ffmpeg.run(arguments)
        }
    }

    /// Writes the tags and chapters as an ffmetadata file for the length of `body`.
    private func withMetadataFile(_ metadata: AudioMetadata, format: AudioFormat, _ body: (URL) async throws -> Void) async throws {
        let metadataFile = FileManager.default.temporaryDirectory.appendingPathComponent("storyvoice-\(UUID.random().uuidString).ffmetadata")
        defer { try? FileManager.default.removeItem(at: metadataFile) }
        var tags = Self.tags(for: metadata, format: format)
        if Self.chaptersAsTags(format) { tags += FFMetadata.vorbisChapterComments(metadata.chapters) }
        let text = FFMetadata.render(tags: tags, chapters: Self.chaptersAsTags(format) ? [] : metadata.chapters)
        do {
            try Data(text.utf8).write(to: metadataFile)
        } catch {
            throw AudioError.io(metadataFile, error.localizedDescription)
        }
        try await body(metadataFile)
    }

    /// ffmpeg 5.1's Ogg muxer rounds a chapter's seconds before appending its milliseconds
    /// (4.5 s is written 00:00:05.500), so Opus chapters are written as Vorbis comments instead.
    private static func chaptersAsTags(_ format: AudioFormat) -> Bool { format == .opus }

    /// The audio from input 0, tags and chapters from the metadata file (input 1), mono unless
    /// the audio is copied as it is.
    private func mapping(metadataFile: URL, format: AudioFormat, mono: Bool = true) -> [String] {
        ["-f", "ffmetadata", "-i", "file:" + metadataFile.path,
         "-map", "0:a:0", "-map_metadata", "1", "-map_chapters", Self.chaptersAsTags(format) ? "-1" : "1"] + (mono ? ["-ac", "1"] : [])
    }

    func codecArguments(for format: AudioFormat) -> [String] {
        ["-c:a"] + Self.codec(format, bitrateKbps: bitrateKbps) + Self.container(format, bitrateKbps: bitrateKbps)
    }

    /// The encoder and its bit rate (after `-c:a`).
    private static func codec(_ format: AudioFormat, bitrateKbps: Int? = nil) -> [String] {
        switch format {
        case .m4b, .m4a: ["aac", "-b:a", "\(bitrateKbps ?? 64)k"]
        case .mp3: ["libmp3lame", "-b:a", "\(bitrateKbps ?? 64)k"]
        case .opus: ["libopus", "-b:a", "\(bitrateKbps ?? 32)k"]
        case .wav: ["pcm_s16le"]
        }
    }

    /// The container and its options.
    private static func container(_ format: AudioFormat, bitrateKbps: Int?) -> [String] {
        switch format {
        case .m4b: ["-movflags", "+faststart", "-brand", "M4B ", "-f", "ipod"]
        case .m4a: ["-movflags", "+faststart", "-f", "ipod"]
        case .mp3: ["-id3v2_version", "3", "-f", "mp3"]
        case .opus: ["-f", "opus"]
        case .wav: ["-f", "wav"]
        }
    }

    static func tags(for metadata: AudioMetadata, format: AudioFormat) -> [(key: String, value: String)] {
        var tags: [(key: String, value: String)] = [("title", metadata.title), ("album", metadata.title)]
        if let author = metadata.author, !author.isEmpty {
            tags += [("artist", author), ("album_artist", author)]
        }
        tags.append(("genre", "Audiobook"))
        // iTunes media kind 2 ("stik" = Audiobook): players file it with books, not music.
        if format == .m4b { tags.append(("media_type", "2")) }
        return tags
    }
}
