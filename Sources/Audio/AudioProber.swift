import Foundation

/// What ffprobe says about an audio file.
public struct AudioProbe: Sendable, Hashable {
    public var durationSeconds: Double
    public var chapters: [ChapterMark]
    /// Container and audio-stream tags, keys lowercased (Ogg keeps its tags on the stream, MP4 and
    /// MP3 on the container; container tags win).
    public var tags: [String: String]
    /// The first audio stream's codec (`aac`, `mp3`, `opus`, `pcm_s16le` ...).
    public var codec: String?
    public var sampleRate: Int?
    public var channels: Int?

    public init(durationSeconds: Double, chapters: [ChapterMark] = [], tags: [String: String] = [:], codec: String? = nil,
                sampleRate: Int? = nil, channels: Int? = nil) {
        self.durationSeconds = durationSeconds
        self.chapters = chapters
        self.tags = tags
        self.codec = codec
        self.sampleRate = sampleRate
        self.channels = channels
    }
}

/// Reads duration, chapters, tags and codec back from a file with ffprobe.
public enum AudioProber {
    public static func probe(_ url: URL) async throws -> AudioProbe {
        try await probe(url, ffprobePath: nil)
    }

    /// - Parameter ffprobePath: the ffprobe executable; nil looks `ffprobe` up on PATH.
    public static func probe(_ url: URL, ffprobePath: String?) async throws -> AudioProbe {
        guard FileManager.default.fileExists(atPath: url.path) else { throw AudioError.inputMissing(url) }
        let tool = ExternalTool(name: "ffprobe", path: ffprobePath)
        let json = try await tool.output(["-v", "error", "-print_format", "json", "-show_format", "-show_chapters", "-show_streams",
                                          "file:" + url.path])
        return try parse(Data(json.utf8), url: url)
    }

    static func parse(_ json: Data, url: URL) throws -> AudioProbe {
        let report: FFProbeReport
        do {
            report = try JSONDecoder().decode(FFProbeReport.self, from: json)
        } catch {
            throw AudioError.unreadable(url, "ffprobe's report was not understood (\(error))")
        }
        let audio = report.streams?.first { $0.codec_type == "audio" }
        var tags: [String: String] = [:]
        for (key, value) in audio?.tags ?? [:] { tags[key.lowercased()] = value }
        for (key, value) in report.format?.tags ?? [:] { tags[key.lowercased()] = value }
        let chapters = (report.chapters ?? []).map { chapter in
            ChapterMark(title: chapter.tags?.first { $0.key.lowercased() == "title" }?.value ?? "",
                        startMs: milliseconds(chapter.start_time), endMs: milliseconds(chapter.end_time))
        }
        let duration = report.format?.duration.flatMap(Double.init) ?? audio?.duration.flatMap(Double.init) ?? 0
        return AudioProbe(durationSeconds: duration, chapters: chapters, tags: tags, codec: audio?.codec_name,
                          sampleRate: audio?.sample_rate.flatMap { Int($0) }, channels: audio?.channels)
    }

    private static func milliseconds(_ seconds: String?) -> Int {
        Int(((seconds.flatMap(Double.init) ?? 0) * 1000).rounded())
    }
}

/// The parts of `ffprobe -print_format json` this module reads; ffprobe prints numbers as strings.
private struct FFProbeReport: Decodable {
    struct Format: Decodable {
        var duration: String?
        var tags: [String: String]?
    }
    struct Stream: Decodable {
        var codec_type: String?
        var codec_name: String?
        var sample_rate: String?
        var channels: Int?
        var duration: String?
        var tags: [String: String]?
    }
    struct Chapter: Decodable {
        var start_time: String?
        var end_time: String?
        var tags: [String: String]?
    }
    var format: Format?
    var streams: [Stream]?
    var chapters: [Chapter]?
}
