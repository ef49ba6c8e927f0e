import Audio
import ChatFrames
import ChatStories
import Foundation

/// How far an export has got.
public struct ChatExportProgress: Sendable, Hashable {
    public var frame: Int
    public var frameCount: Int

    public var fraction: Double { frameCount == 0 ? 1 : Double(frame) / Double(frameCount) }
}

/// What an export made.
public struct ChatExportSummary: Sendable, Hashable {
    public var durationMS: Int
    public var frameCount: Int
    /// Frames actually drawn; the others repeat the frame before them.
    public var framesDrawn: Int
}

/// A conversation made into an MP4: frames drawn with Cairo and Pango, streamed raw into
/// ffmpeg (H.264, yuv420p, faststart) with an AAC track of the message sounds.
///
/// The output is written to a hidden partial file and renamed into place when complete, so a
/// failed or cancelled export leaves no half-written video, and the conversation is untouched.
public struct ChatVideoExporter: Sendable {
    private let ffmpeg: ExternalTool

    /// - Parameter ffmpegPath: the ffmpeg executable; nil looks `ffmpeg` up on PATH.
    public init(ffmpegPath: String? = nil) {
        ffmpeg = ExternalTool(name: "ffmpeg", path: ffmpegPath)
    }

    @discardableResult
    public func export(
        _ conversation: ChatConversation, settings: ChatExportSettings, to output: URL,
        progress: @escaping @Sendable (ChatExportProgress) async -> Void = { _ in }
    ) async throws -> ChatExportSummary {
        try conversation.validateForExport()
        let settings = try settings.validated()
        let ffmpegPath = try ffmpeg.requirePath()
        let timeline = ChatTimeline(conversation: conversation, settings: settings)
        return try await PartialFile.write(output) { partial in
            let soundTrack = PartialFile.sibling(of: output, kind: "sounds", extension: "wav")
            defer { try? FileManager.default.removeItem(at: soundTrack) }
            if settings.sounds { try ChatSoundTrack.write(timeline, to: soundTrack) }
            return try await encode(conversation, settings: settings, timeline: timeline, sounds: settings.sounds ? soundTrack : nil,
                                    into: partial, ffmpeg: ExternalTool(name: "ffmpeg", path: ffmpegPath), progress: progress)
        }
    }

    private func encode(
        _ conversation: ChatConversation, settings: ChatExportSettings, timeline: ChatTimeline, sounds: URL?, into partial: URL,
        ffmpeg: ExternalTool, progress: @escaping @Sendable (ChatExportProgress) async -> Void
    ) async throws -> ChatExportSummary {
        let format = settings.format
        var arguments = ["-hide_banner", "-nostdin", "-nostats", "-loglevel", "error", "-y",
                         "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "\(format.width)x\(format.height)", "-framerate", "\(settings.fps)",
                         "-thread_queue_size", "2", "-i", "pipe:0"]
        if let sounds { arguments += ["-i", "file:" + sounds.path] }
        arguments += ["-map", "0:v:0"] + (sounds == nil ? [] : ["-map", "1:a:0"])
        // A chat is mostly still: veryfast with a constant quality keeps text crisp and is quick.
        // zerolatency drops the look-ahead and B-frames, whose buffered 1080p frames took the
        // encoder to ~290 MB (~105 MB without); two encoder threads and a two-frame input queue
        // take the whole export (this process and ffmpeg) from 212 to 185 MB at the same speed.
        // The frames arrive as BT.709 YUV 4:2:0 (see YUV420) and are tagged so.
        arguments += ["-c:v", "libx264", "-preset", "veryfast", "-tune", "zerolatency", "-threads", "2", "-crf", "21", "-pix_fmt", "yuv420p", "-r", "\(settings.fps)",
                      "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv"]
        if sounds != nil { arguments += ["-c:a", "aac", "-b:a", "128k", "-shortest"] }
        arguments += ["-movflags", "+faststart", "-f", "mp4", "file:" + partial.path]

        let frameCount = timeline.frameCount(fps: settings.fps)
        let frames = FrameFeed(conversation: conversation, settings: settings, timeline: timeline, progress: progress)
        // No loop writing to ffmpeg here: Swift 6.3.1's optimiser crashed (signal 11 splitting
        // the coroutine) on every such loop written in this module; Audio's is compiled fine.
        try await ffmpeg.run(arguments, chunks: { try await frames.next() })
        await progress(ChatExportProgress(frame: frameCount, frameCount: frameCount))
        return ChatExportSummary(durationMS: timeline.durationMS, frameCount: frameCount, framesDrawn: frames.drawn)
    }
}

/// The video's frames in order, as the bytes ffmpeg reads: a frame is drawn only when it
/// differs from the one before, otherwise the same bytes go again.
///
/// The drawing is synchronous, in ChatFrames; see `encode` for why no loop here writes to ffmpeg.
private final class FrameFeed {
    private let renderer: ChatFrameRenderer
    private var cursor: ChatSceneCursor
    private let fps: Int
    private var bytes: [UInt8]
    private let count: Int
    private let progress: @Sendable (ChatExportProgress) async -> Void
    private(set) var drawn = 0
    private var index = 0

    init(conversation: ChatConversation, settings: ChatExportSettings, timeline: ChatTimeline, progress: @escaping @Sendable (ChatExportProgress) async -> Void) {
        renderer = ChatFrameRenderer(conversation: conversation, settings: settings)
        cursor = ChatSceneCursor(timeline)
        fps = settings.fps
        count = timeline.frameCount(fps: settings.fps)
        self.progress = progress
        bytes = [UInt8](repeating: 0, count: YUV420.size(width: settings.format.width, height: settings.format.height))
    }

    /// The next frame's bytes, or nil after the last; progress is reported once a second of video.
    func next() async throws -> [UInt8]? {
        guard index < count else { return nil }
        try Task.checkCancellation()
        if index % fps == 0 { await progress(ChatExportProgress(frame: index, frameCount: count)) }
        let bytes = frame(index)
        index += 1
        return bytes
    }

    private func frame(_ index: Int) -> [UInt8] {
        let ms = index * 1000 / fps
        if renderer.render(cursor.scene(atMS: ms), atMS: ms) {
            drawn += 1
            let canvas = renderer.canvas
            canvas.withPixels { pixels in
                bytes.withUnsafeMutableBytes { YUV420.convert(bgra: pixels, stride: canvas.stride, width: canvas.width, height: canvas.height, into: $0) }
            }
        }
        return bytes
    }
}
