import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// ffmpeg as an encoder: a WAV file in, the format the output's extension names out.
///
/// ffmpeg reads the WAV itself, so nothing of the audio passes through this process and memory
/// stays flat however long the book. Output is written to a hidden temp file beside `output`
/// and renamed into place on success, so a failure or cancellation leaves nothing half-written.
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
        guard let format = AudioFormat(url: output) else {
            throw AudioError.unsupportedFormat(output.pathExtension.isEmpty ? output.lastPathComponent : "." + output.pathExtension)
        }
        guard FileManager.default.fileExists(atPath: wav.path) else { throw AudioError.inputMissing(wav) }
        let directory = output.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw AudioError.outputDirectoryMissing(directory)
        }
        // Find ffmpeg before creating anything, so a missing one leaves no trace.
        if format != .wav { _ = try ffmpeg.requirePath() }

        let partial = directory.appendingPathComponent(".\(output.deletingPathExtension().lastPathComponent).\(UUID().uuidString).partial.\(format.rawValue)")
        do {
            if format == .wav {
                do {
                    try FileManager.default.copyItem(at: wav, to: partial)
                } catch {
                    throw AudioError.io(output, error.localizedDescription)
                }
            } else {
                try await transcode(wav: wav, to: partial, format: format, metadata: metadata)
            }
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

    private func transcode(wav: URL, to partial: URL, format: AudioFormat, metadata: AudioMetadata) async throws {
        let metadataFile = FileManager.default.temporaryDirectory.appendingPathComponent("storyvoice-\(UUID().uuidString).ffmetadata")
        defer { try? FileManager.default.removeItem(at: metadataFile) }
        // ffmpeg 5.1's Ogg muxer rounds a chapter's seconds before appending its milliseconds
        // (4.5 s is written 00:00:05.500), so Opus chapters are written as Vorbis comments here.
        let chaptersAsTags = format == .opus
        var tags = Self.tags(for: metadata, format: format)
        if chaptersAsTags { tags += FFMetadata.vorbisChapterComments(metadata.chapters) }
        let text = FFMetadata.render(tags: tags, chapters: chaptersAsTags ? [] : metadata.chapters)
        do {
            try Data(text.utf8).write(to: metadataFile)
        } catch {
            throw AudioError.io(metadataFile, error.localizedDescription)
        }
        // `file:` keeps ffmpeg from reading a colon in a path as a protocol name.
        var arguments = ["-hide_banner", "-nostdin", "-nostats", "-loglevel", "error", "-y",
                         "-i", "file:" + wav.path,
                         "-f", "ffmetadata", "-i", "file:" + metadataFile.path,
                         "-map", "0:a:0", "-map_metadata", "1", "-map_chapters", chaptersAsTags ? "-1" : "1", "-ac", "1"]
        arguments += codecArguments(for: format)
        arguments.append("file:" + partial.path)
        try await ffmpeg.run(arguments)
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
