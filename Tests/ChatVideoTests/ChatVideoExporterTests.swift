import Audio
import ChatStories
import Foundation
import Testing

@testable import ChatFrames
import ChatVideo

/// Real exports through ffmpeg, probed with ffprobe. Short chats at `fast` keep them quick.
struct ChatVideoExporterTests {
    static let conversation = ChatFrameTests.conversation([("alex", "hi 👋"), ("me", "hey")])

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("chatvideo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test(arguments: [(VideoFormat.tiktok, 30, true), (.instagram, 60, false), (.youtube, 30, true)])
    func theVideoHasTheFormatsSizeRateAndTheTimelinesLength(format: VideoFormat, fps: Int, sounds: Bool) async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("chat.mp4")
        let settings = ChatExportSettings(format: format, typingSpeed: .fast, sounds: sounds, fps: fps)
        let summary = try await ChatVideoExporter().export(Self.conversation, settings: settings, to: output)
        let probe = try await Probe.streams(of: output)
        let video = try #require(probe.first { $0.codecType == "video" })
        #expect(video.codecName == "h264" && video.pixelFormat == "yuv420p")
        #expect(video.width == format.width && video.height == format.height)
        #expect(video.frameRate == "\(fps)/1")
        let timeline = ChatTimeline(conversation: Self.conversation, settings: settings)
        #expect(summary.durationMS == timeline.durationMS)
        let duration = try #require(video.duration)
        #expect(abs(duration - Double(timeline.durationMS) / 1000) <= 1.0 / Double(fps) + 0.001, "video \(duration) s, timeline \(timeline.durationMS) ms")
        let audio = probe.first { $0.codecType == "audio" }
        #expect((audio?.codecName == "aac") == sounds, "an AAC track exactly when sounds are on")
        #expect(summary.framesDrawn < summary.frameCount, "unchanged frames are repeated, not drawn")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(leftovers == ["chat.mp4"], "no partial files or sound tracks left behind")
    }

    @Test func theVideosLastFrameShowsTheBubblesInTheLooksColours() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("chat.mp4")
        var conversation = Self.conversation
        conversation.theme = .whatsapp
        try await ChatVideoExporter().export(conversation, settings: ChatExportSettings(format: .instagram, typingSpeed: .fast, sounds: false), to: output)
        let frame = try Probe.lastFrameRGB(of: output, width: 1080, height: 1080)
        let geometry = ChatGeometry(format: .instagram)
        let top = geometry.header + geometry.newSpeakerGap
        func pixel(_ x: Double, _ y: Double) -> Pixel {
            let offset = (Int(y) * 1080 + Int(x)) * 3
            return Pixel(red: Int(frame[offset]), green: Int(frame[offset + 1]), blue: Int(frame[offset + 2]))
        }
        let palette = ChatTheme.whatsapp.palette(dark: false)
        // Decoded H.264 is close to, not exactly, what was drawn.
        let receiver = pixel(geometry.margin + 12, top + 44)
        #expect(receiver.isClose(to: RGBColor(hex: palette.receiver)!, tolerance: 6), "\(receiver)")
        let sender = pixel(geometry.columnWidth - geometry.margin - 12, top + 88 + geometry.newSpeakerGap + 44)
        #expect(sender.isClose(to: RGBColor(hex: palette.sender)!, tolerance: 6), "\(sender)")
        let background = pixel(540, 700)
        #expect(background.isClose(to: RGBColor(hex: palette.background)!, tolerance: 6), "\(background)")
    }

    @Test func missingFFmpegIsReportedAndNothingIsWritten() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        await #expect(throws: AudioError.self) {
            try await ChatVideoExporter(ffmpegPath: "/nonexistent/ffmpeg").export(Self.conversation, settings: ChatExportSettings(), to: directory.appendingPathComponent("a.mp4"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func anFFmpegThatDiesMidwayIsReportedWithItsOwnWordsAndLeavesNoFile() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // An encoder that reads a little of its input, complains and dies, as a crashing ffmpeg would.
        let script = directory.appendingPathComponent("ffmpeg")
        try "#!/bin/sh\nhead -c 1000000 >/dev/null\necho 'Conversion failed!' >&2\nexit 1\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        let output = directory.appendingPathComponent("a.mp4")
        do {
            try await ChatVideoExporter(ffmpegPath: script.path).export(Self.conversation, settings: ChatExportSettings(typingSpeed: .fast), to: output)
            Issue.record("the export should have failed")
        } catch let error as AudioError {
            #expect("\(error)".contains("Conversion failed!"), "\(error)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["ffmpeg"])
    }

    @Test func aCancelledExportStopsAndLeavesNoFile() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let long = ChatFrameTests.conversation((0..<30).map { ($0 % 2 == 0 ? "alex" : "me", "a message long enough to take a while to type \($0)") })
        let started = AsyncStream<Void>.makeStream()
        let export = Task {
            try await ChatVideoExporter().export(long, settings: ChatExportSettings(typingSpeed: .slow), to: directory.appendingPathComponent("a.mp4")) { progress in
                if progress.frame > 0 { started.continuation.yield() }
            }
        }
        for await _ in started.stream { break }
        export.cancel()
        await #expect(throws: CancellationError.self) { try await export.value }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
}

/// ffprobe's view of a file's streams.
enum Probe {
    struct Stream: Decodable {
        var codecType: String
        var codecName: String?
        var width: Int?
        var height: Int?
        var pixelFormat: String?
        var frameRate: String?
        var durationText: String?
        var duration: Double? { durationText.flatMap(Double.init) }

        enum CodingKeys: String, CodingKey {
            case codecType = "codec_type", codecName = "codec_name", width, height
            case pixelFormat = "pix_fmt", frameRate = "r_frame_rate", durationText = "duration"
        }
    }

    /// The last frame as RGB bytes, decoded by ffmpeg.
    static func lastFrameRGB(of url: URL, width: Int, height: Int) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-v", "error", "-sseof", "-0.2", "-i", url.path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(data.count == width * height * 3)
        return [UInt8](data)
    }

    static func streams(of url: URL) async throws -> [Stream] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffprobe", "-v", "error", "-show_streams", "-of", "json", url.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        struct Output: Decodable { var streams: [Stream] }
        return try JSONDecoder().decode(Output.self, from: data).streams
    }
}
