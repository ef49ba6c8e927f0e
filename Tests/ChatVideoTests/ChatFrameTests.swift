import ChatStories
import Foundation
import Testing

@testable import ChatFrames

/// Pixel checks on drawn frames: bubbles in their look's colours where the layout puts them,
/// emoji in colour, the watermark only when asked for.
struct ChatFrameTests {
    static let me = ChatCharacter(id: "me", name: "Me", color: "#007AFF", isMe: true)
    static let alex = ChatCharacter(id: "alex", name: "Alex", color: "#34C759", isMe: false)

    static func conversation(_ texts: [(String, String)], theme: ChatTheme = .imessage) -> ChatConversation {
        ChatConversation(id: "c", title: "T", theme: theme, characters: [me, alex],
                         messages: texts.enumerated().map { ChatMessage(id: "m\($0.offset)", characterID: $0.element.0, text: $0.element.1) })
    }

    /// Renders the end of the conversation (every message sent) and returns the renderer.
    static func finalFrame(_ conversation: ChatConversation, settings: ChatExportSettings = ChatExportSettings()) -> ChatFrameRenderer {
        let renderer = ChatFrameRenderer(conversation: conversation, settings: settings)
        let timeline = ChatTimeline(conversation: conversation, settings: settings)
        var cursor = ChatSceneCursor(timeline)
        // Walk every frame so the scroll has settled, as in a video.
        for frame in 0..<timeline.frameCount(fps: 30) {
            let ms = frame * 1000 / 30
            renderer.render(cursor.scene(atMS: ms), atMS: ms)
        }
        return renderer
    }

    @Test(arguments: ChatTheme.allCases, [false, true])
    func bubblesAndBackgroundWearTheLooksColours(theme: ChatTheme, dark: Bool) throws {
        let conversation = Self.conversation([("alex", "hi"), ("me", "hello there")], theme: theme)
        let renderer = Self.finalFrame(conversation, settings: ChatExportSettings(keyboard: false, dark: dark))
        let palette = theme.palette(dark: dark)
        let geometry = ChatGeometry(format: .tiktok)
        let top = geometry.header + geometry.newSpeakerGap
        // "hi": a bubble at the left margin, one line high; sampled left of its text.
        let receiver = renderer.canvas.pixel(x: Int(geometry.margin + 12), y: Int(top + 44))
        #expect(receiver.isClose(to: try #require(RGBColor(hex: palette.receiver))), "\(theme) receiver \(receiver)")
        // "hello there": on the right, below it; sampled right of its text.
        let senderTop = top + 88 + geometry.newSpeakerGap
        let sender = renderer.canvas.pixel(x: Int(geometry.columnWidth - geometry.margin - 12), y: Int(senderTop + 44))
        #expect(sender.isClose(to: try #require(RGBColor(hex: palette.sender))), "\(theme) sender \(sender)")
        let background = renderer.canvas.pixel(x: 540, y: 1200)
        #expect(background.isClose(to: try #require(RGBColor(hex: palette.background))), "\(theme) background \(background)")
    }

    @Test func emojiAreDrawnInColour() {
        let renderer = Self.finalFrame(Self.conversation([("alex", "😀😀😀 🍋🍋")]), settings: ChatExportSettings(keyboard: false))
        let geometry = ChatGeometry(format: .tiktok)
        let top = Int(geometry.header + geometry.newSpeakerGap)
        var yellow = 0
        for y in top..<(top + 90) {
            for x in 30..<500 where renderer.canvas.pixel(x: x, y: y).isYellow { yellow += 1 }
        }
        #expect(yellow > 500, "only \(yellow) yellow pixels: the emoji font is missing (fonts-noto-color-emoji)")
    }

    @Test func theWatermarkIsOnFreeFramesOnly() {
        let conversation = Self.conversation([("alex", "hi")])
        let marked = Self.finalFrame(conversation, settings: ChatExportSettings(keyboard: false, watermark: true))
        let clean = Self.finalFrame(conversation, settings: ChatExportSettings(keyboard: false))
        let geometry = ChatGeometry(format: .tiktok)
        var differing = 0
        for y in Int(geometry.header)..<Int(geometry.header + 100) {
            for x in 500..<1080 where marked.canvas.pixel(x: x, y: y) != clean.canvas.pixel(x: x, y: y) { differing += 1 }
        }
        #expect(differing > 5_000, "the watermark changed only \(differing) pixels")
        let white = RGBColor(red: 1, green: 1, blue: 1)
        #expect(clean.canvas.pixel(x: 900, y: Int(geometry.header + 40)).isClose(to: white))
    }

    /// Issue 51: the mark covered the top message's text. It now has a band of its own under the
    /// header, and the messages scroll beneath the band, never under the mark.
    @Test(arguments: VideoFormat.allCases)
    func theWatermarkNeverCoversAMessage(format: VideoFormat) throws {
        let texts = (0..<30).map { ($0.isMultiple(of: 2) ? "alex" : "me", "message number \($0), long enough to stretch its bubble right across the screen") }
        let conversation = Self.conversation(texts)
        let marked = Self.finalFrame(conversation, settings: ChatExportSettings(format: format, watermark: true))
        let clean = Self.finalFrame(conversation, settings: ChatExportSettings(format: format))
        let palette = ChatTheme.imessage.palette(dark: false)
        let bubbles = [try #require(RGBColor(hex: palette.sender)), try #require(RGBColor(hex: palette.receiver))]
        let geometry = ChatGeometry(format: format)
        // The rows just under the header, where the mark is drawn.
        let rows = Int(geometry.header)..<Int(geometry.header + 70)
        // Pixels of a bubble's fill: runs of its colour 16 px or longer (the mark's anti-aliased
        // letters have light grey edges of a pixel or two, as the receiver's bubble is light grey).
        func bubblePixels(_ renderer: ChatFrameRenderer) -> Int {
            var count = 0
            for y in rows {
                var run = 0
                for x in stride(from: 0, to: format.width, by: 2) {
                    let pixel = renderer.canvas.pixel(x: x, y: y)
                    run = bubbles.contains(where: { pixel.isClose(to: $0) }) ? run + 1 : 0
                    if run >= 8 { count += 1 }
                }
            }
            return count
        }
        #expect(bubblePixels(clean) > 1_000, "without the mark the messages fill those rows (the test can see an overlap)")
        #expect(bubblePixels(marked) == 0, "no bubble under the mark")
        var markPixels = 0
        for y in rows {
            for x in stride(from: 0, to: format.width, by: 2) where marked.canvas.pixel(x: x, y: y) != clean.canvas.pixel(x: x, y: y) { markPixels += 1 }
        }
        #expect(markPixels > 1_000, "the mark is drawn there")
    }

    @Test func aLongChatScrollsToItsNewestMessage() {
        let texts = (0..<40).map { ($0 == 0 ? "alex" : "me", "message number \($0)") }
        let renderer = Self.finalFrame(Self.conversation(texts), settings: ChatExportSettings(typingSpeed: .fast, keyboard: false, typingIndicator: false))
        let geometry = ChatGeometry(format: .tiktok)
        // The first bubble (the only one on the left) has scrolled away: background where it was.
        let first = renderer.canvas.pixel(x: Int(geometry.margin + 12), y: Int(geometry.header + geometry.newSpeakerGap + 44))
        #expect(first.isClose(to: RGBColor(red: 1, green: 1, blue: 1)), "\(first)")
        // The last ("me", blue) sits just above the input bar.
        let inputTop = 1920 - (40 * 1.25 + 36 + 36)
        var blue = 0
        for y in Int(inputTop - 110)..<Int(inputTop) where renderer.canvas.pixel(x: 1000, y: y).isClose(to: RGBColor(hex: "#007AFF")!) { blue += 1 }
        #expect(blue > 40, "the newest bubble is not at the bottom (\(blue) rows)")
    }

    @Test func aWordLongerThanABubbleBreaksInsideIt() {
        let word = String(repeating: "abcdefghij", count: 30)
        let renderer = Self.finalFrame(Self.conversation([("alex", word)]), settings: ChatExportSettings(keyboard: false))
        let geometry = ChatGeometry(format: .tiktok)
        let layout = renderer.canvas.layout(word, font: geometry.bubbleFont, wrapWidth: geometry.maxBubbleTextWidth)
        #expect(layout.size.width <= geometry.maxBubbleTextWidth && layout.lineCount >= 5)
        // Nothing of the bubble spills past 70 % of the frame: the right third is background.
        let top = Int(geometry.header + geometry.newSpeakerGap)
        for y in stride(from: top, to: top + 200, by: 10) {
            #expect(renderer.canvas.pixel(x: 1000, y: y).isClose(to: RGBColor(red: 1, green: 1, blue: 1)))
        }
    }

    @Test func aSceneAlreadyOnScreenIsNotDrawnAgain() {
        let conversation = Self.conversation([("alex", "hi")])
        let renderer = ChatFrameRenderer(conversation: conversation, settings: ChatExportSettings())
        var scene = ChatScene()
        #expect(renderer.render(scene, atMS: 0))
        #expect(!renderer.render(scene, atMS: 33))
        scene.typing = (0, 1)
        #expect(renderer.render(scene, atMS: 66))
    }

    @Test(arguments: VideoFormat.allCases)
    func everyFormatDrawsAtItsSize(format: VideoFormat) {
        let renderer = Self.finalFrame(Self.conversation([("alex", "hi"), ("me", "yo")]), settings: ChatExportSettings(format: format))
        #expect(renderer.canvas.width == format.width && renderer.canvas.height == format.height)
        #expect(renderer.canvas.stride == format.width * 4, "ffmpeg reads rows of width × 4 bytes")
    }
}

struct Pixel: Equatable {
    var red: Int, green: Int, blue: Int

    func isClose(to color: RGBColor, tolerance: Int = 3) -> Bool {
        abs(red - Int((color.red * 255).rounded())) <= tolerance && abs(green - Int((color.green * 255).rounded())) <= tolerance
            && abs(blue - Int((color.blue * 255).rounded())) <= tolerance
    }

    var isYellow: Bool { red > 200 && green > 150 && blue < 90 }
}

extension ChatCanvas {
    /// The colour at a point (frames are opaque, so premultiplication changes nothing).
    func pixel(x: Int, y: Int) -> Pixel {
        withPixels { bytes in
            let offset = y * stride + x * 4
            return Pixel(red: Int(bytes[offset + 2]), green: Int(bytes[offset + 1]), blue: Int(bytes[offset]))
        }
    }
}

struct YUV420Tests {
    /// BT.709 limited range, computed in floating point.
    static func expected(_ color: RGBColor) -> (y: Int, u: Int, v: Int) {
        let (r, g, b) = (color.red, color.green, color.blue)
        let y = 16 + 219 * (0.2126 * r + 0.7152 * g + 0.0722 * b)
        let u = 128 + 224 * (-0.1146 * r - 0.3854 * g + 0.5 * b)
        let v = 128 + 224 * (0.5 * r - 0.4542 * g - 0.0458 * b)
        return (Int(y.rounded()), Int(u.rounded()), Int(v.rounded()))
    }

    @Test(arguments: ["#FFFFFF", "#000000", "#007AFF", "#E5E5EA", "#DCF8C6", "#5865F2", "#FF2D55"])
    func aFlatColourBecomesItsBT709Values(hex: String) throws {
        let color = try #require(RGBColor(hex: hex))
        let canvas = ChatCanvas(width: 4, height: 2)
        canvas.fill(x: 0, y: 0, width: 4, height: 2, color: color)
        var yuv = [UInt8](repeating: 0, count: YUV420.size(width: 4, height: 2))
        canvas.withPixels { pixels in
            yuv.withUnsafeMutableBytes { YUV420.convert(bgra: pixels, stride: canvas.stride, width: 4, height: 2, into: $0) }
        }
        let want = Self.expected(color)
        #expect(yuv[0..<8].allSatisfy { abs(Int($0) - want.y) <= 1 }, "\(hex): Y \(yuv[0]) want \(want.y)")
        #expect(abs(Int(yuv[8]) - want.u) <= 1 && abs(Int(yuv[9]) - want.u) <= 1, "\(hex): U \(yuv[8]) want \(want.u)")
        #expect(abs(Int(yuv[10]) - want.v) <= 1 && abs(Int(yuv[11]) - want.v) <= 1, "\(hex): V \(yuv[10]) want \(want.v)")
    }
}

/// The input bar lays out only the newest lines of what is typed, and they are the lines the
/// whole typed text has: the same words on the same lines, however the text wraps.
struct InputTextWindowTests {
    static func lines(_ layout: TextLayout, of text: String) -> [String] {
        let bytes = Array(text.utf8)
        let starts = layout.lineStarts + [bytes.count]
        return zip(starts, starts.dropFirst()).map { String(decoding: bytes[$0..<$1], as: UTF8.self) }
    }

    @Test func theNewestLinesAreThoseOfTheWholeTypedText() {
        let canvas = ChatCanvas(width: 1080, height: 1920)
        let geometry = ChatGeometry(format: .tiktok)
        let width = geometry.inputFieldWidth - 2 * geometry.bubblePaddingX
        let text = "So I went back to the lighthouse at midnight 🔦 and the door was open.\nNobody there. "
            + "Supercalifragilisticexpialidociousandthensomemorelettersthatneverend! " + String(repeating: "Ça va, Zoë? 👨‍👩‍👧 e\u{0301}tait la\u{0300} ", count: 8)
            + String(repeating: "a few more short words to wrap ", count: 6)
        var window = InputTextWindow()
        for count in 1...text.count {
            let typed = String(text.prefix(count))
            let whole = Self.lines(canvas.layout(typed, font: geometry.bubbleFont, wrapWidth: width), of: typed)
            let (shown, layout) = window.visible(message: 0, text: text, count: count, lines: geometry.inputMaxLines) {
                canvas.layout($0, font: geometry.bubbleFont, wrapWidth: width)
            }
            // Each frame lays out a few lines, not everything typed: linear in the message.
            #expect(layout.lineCount <= geometry.inputMaxLines + 1, "typed \(count)")
            let newest = Self.lines(layout, of: shown).suffix(geometry.inputMaxLines)
            #expect(Array(newest) == Array(whole.suffix(geometry.inputMaxLines)), "typed \(count)")
            #expect(shown.hasSuffix(newest.joined()) && typed.hasSuffix(shown))
        }
        #expect(Self.lines(canvas.layout(text, font: geometry.bubbleFont, wrapWidth: width), of: text).count > 12, "the text wraps over many lines")
    }
}
