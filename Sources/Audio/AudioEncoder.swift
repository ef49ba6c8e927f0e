import Foundation

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

    /// Checks `output`'s format and folder (and finds ffmpeg) before creating anything, lets
    /// `write` fill a hidden partial file beside it, and renames that into place on success;
    /// on failure or cancellation the partial file is removed.
    private func writing(_ output: URL, _ write: (_ partial: URL, AudioFormat) async throws -> Void) async throws {
        guard let format = AudioFormat(url: output) else {
            throw AudioError.unsupportedFormat(output.pathExtension.isEmpty ? output.lastPathComponent : "." + output.pathExtension)
        }
        let directory = output.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw AudioError.outputDirectoryMissing(directory)
        }
        if format != .wav { _ = try ffmpeg.requirePath() }

        let partial = directory.appendingPathComponent(".\(output.deletingPathExtension().lastPathComponent).\(UUID().uuidString).partial.\(format.rawValue)")
        do {
            try await write(partial, format)
            try Task.checkCancellation()
            // rename(2) replaces an existing file atomically; FileManager.moveItem refuses to.
            guard rename(partial.path, output.path) == 0 else {
                throw AudioError.io(output, String(cString: strerror(errno)))
            }
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
    }

    private func transcode(sampleRate: Int, to partial: URL, format: AudioFormat, metadata: AudioMetadata, audio produce: (PCMSink) async throws -> Void) async throws {
        try await withMetadataFile(metadata, format: format) { metadataFile in
            var arguments = ["-hide_banner", "-nostdin", "-nostats", "-loglevel", "error", "-y",
                             "-f", "s16le", "-ar", "\(sampleRate)", "-ac", "1", "-i", "pipe:0"]
            arguments += mapping(metadataFile: metadataFile, format: format)
            arguments += codecArguments(for: format)
            arguments.append("file:" + partial.path)
            try await ffmpeg.run(arguments) { writer in
                let sink = PCMSink(sampleRate: sampleRate) { samples in
                    let bytes = samples.map(\.littleEndian).withUnsafeBytes { Array($0) }
                    _ = try await writer.write(bytes)
                }
                try await produce(sink)
                try await sink.flush()
            }
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
        let metadataFile = FileManager.default.temporaryDirectory.appendingPathComponent("storyvoice-\(UUID().uuidString).ffmetadata")
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

    /// The audio from input 0, tags and chapters from the metadata file (input 1), mono.
    private func mapping(metadataFile: URL, format: AudioFormat) -> [String] {
        ["-f", "ffmetadata", "-i", "file:" + metadataFile.path,
         "-map", "0:a:0", "-map_metadata", "1", "-map_chapters", Self.chaptersAsTags(format) ? "-1" : "1", "-ac", "1"]
    }

    func codecArguments(for format: AudioFormat) -> [String] {
        switch format {
        case .m4b:
            ["-c:a", "aac", "-b:a", "\(bitrateKbps ?? 64)k", "-movflags", "+faststart", "-brand", "M4B ", "-f", "ipod"]
        case .m4a:
            ["-c:a", "aac", "-b:a", "\(bitrateKbps ?? 64)k", "-movflags", "+faststart", "-f", "ipod"]
        case .mp3:
            ["-c:a", "libmp3lame", "-b:a", "\(bitrateKbps ?? 64)k", "-id3v2_version", "3", "-f", "mp3"]
        case .opus:
            ["-c:a", "libopus", "-b:a", "\(bitrateKbps ?? 32)k", "-f", "opus"]
        case .wav:
            ["-c:a", "pcm_s16le", "-f", "wav"]
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
