import Foundation

/// Any audio ffmpeg reads (a browser's WebM/Opus or WAV recording, an m4a from a phone) to mono
/// 16-bit PCM at the rate asked for: what speech recognisers take.
public struct AudioDecoder: Sendable {
    private let ffmpeg: ExternalTool
    /// Longer recordings are refused rather than decoded (memory stays bounded).
    public var maxSeconds: Double

    public init(ffmpegPath: String? = nil, maxSeconds: Double = 600) {
        self.ffmpeg = ExternalTool(name: "ffmpeg", path: ffmpegPath)
        self.maxSeconds = maxSeconds
    }

    public func decode(_ file: URL, sampleRate: Int = 16_000) async throws -> PCMAudio {
        guard FileManager.default.fileExists(atPath: file.path) else { throw AudioError.inputMissing(file) }
        let limit = Int(maxSeconds * Double(sampleRate)) * 2
        let bytes = try await ffmpeg.outputBytes(
            ["-hide_banner", "-nostdin", "-nostats", "-loglevel", "error", "-i", "file:" + file.path,
             "-t", String(maxSeconds), "-vn", "-ac", "1", "-ar", String(sampleRate), "-f", "s16le", "pipe:1"],
            limit: limit + 4096)
        let samples = bytes.withUnsafeBytes { raw in
            Array(raw.bindMemory(to: Int16.self)).map { Int16(littleEndian: $0) }
        }
        return PCMAudio(sampleRate: sampleRate, samples: samples)
    }
}
