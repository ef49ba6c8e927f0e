import Foundation

/// A chapter of the finished audio: its title and where it sits, in milliseconds.
public struct ChapterMark: Codable, Sendable, Hashable {
    public var title: String
    public var startMs: Int
    public var endMs: Int

    public init(title: String, startMs: Int, endMs: Int) {
        self.title = title
        self.startMs = startMs
        self.endMs = endMs
    }
}

/// What the encoder writes into the file besides the audio.
public struct AudioMetadata: Sendable, Hashable {
    public var title: String
    public var author: String?
    public var chapters: [ChapterMark]

    public init(title: String, author: String? = nil, chapters: [ChapterMark] = []) {
        self.title = title
        self.author = author
        self.chapters = chapters
    }
}

/// The files StoryVoice writes, named by their extension.
public enum AudioFormat: String, Sendable, CaseIterable {
    /// AAC in MP4 marked as an audiobook: chapters, bookmarking in Apple Books and most players.
    case m4b
    /// AAC in MP4: the same audio for players that ignore `.m4b`.
    case m4a
    /// MP3 with ID3v2 tags and chapter frames.
    case mp3
    /// Uncompressed 16-bit PCM, written without ffmpeg.
    case wav
    /// Opus in Ogg: the smallest at a given quality.
    case opus

    public init?(fileExtension: String) {
        let ext = fileExtension.hasPrefix(".") ? String(fileExtension.dropFirst()) : fileExtension
        self.init(rawValue: ext.lowercased())
    }

    /// The format `url`'s extension names.
    public init?(url: URL) {
        self.init(fileExtension: url.pathExtension)
    }
}
