import CCairoPango
import ChatStories

/// Draws the frames of a conversation's video, one scene at a time, in time order.
///
/// Message sizes are measured once; only the bubbles on screen are drawn, so memory and time
/// per frame do not grow with the conversation. A scene that looks the same as the last one
/// is not drawn again (`render` says whether it drew).
package final class ChatFrameRenderer {
    package let canvas: ChatCanvas
    private let conversation: ChatConversation
    private let settings: ChatExportSettings
    private let palette: ResolvedPalette
    private let geometry: ChatGeometry
    private let senders: [Bool]
    /// Each message's block (name, bubble, gap above) height, and its top within the chat.
    private var blockHeights: [Double] = []
    private var blockTops: [Double] = []
    private var bubbleLayouts: [Int: TextLayout] = [:]
    private var input = InputTextWindow()
    private var scroll = ScrollMotion()
    private var lastFrame: FrameKey?
    private lazy var keyboardImage = KeyboardImage(geometry: geometry, dark: settings.dark)
    private let showsAvatars: Bool

    package init(conversation: ChatConversation, settings: ChatExportSettings) {
        self.conversation = conversation
        self.settings = settings
        geometry = ChatGeometry(format: settings.format)
        palette = ResolvedPalette(conversation.theme.palette(dark: settings.dark))
        canvas = ChatCanvas(width: settings.format.width, height: settings.format.height)
        let me = Set(conversation.characters.filter(\.isMe).map(\.id))
        senders = conversation.messages.map { me.contains($0.characterID) }
        showsAvatars = conversation.isGroup || conversation.characters.contains { !$0.isMe && !($0.avatarEmoji ?? "").isEmpty }
        measure()
    }

    /// Draws the scene at `ms` unless it would look exactly as the last frame drawn.
    @discardableResult
    package func render(_ scene: ChatScene, atMS ms: Int) -> Bool {
        let viewport = viewportHeight(keyboard: scene.keyboard, typing: scene.typing)
        let target = max(0, contentHeight(scene) - viewport)
        let offset = scroll.offset(target: target, atMS: ms)
        let frame = FrameKey(
            sent: scene.sentCount, typingMessage: scene.typing?.message, typingCount: scene.typing?.count ?? 0,
            indicator: scene.indicator, indicatorPhase: scene.indicator == nil ? 0 : (ms / 200) % 3,
            keyboard: scene.keyboard, offset: Int(offset.rounded())
        )
        guard frame != lastFrame else { return false }
        lastFrame = frame
        draw(scene, offset: offset.rounded(), viewport: viewport, phase: frame.indicatorPhase)
        return true
    }

    // MARK: Measuring

    private func measure() {
        var top = geometry.newSpeakerGap
        for index in conversation.messages.indices {
            let bubble = bubbleLayout(index).size.height + 2 * geometry.bubblePaddingY
            let height = gapAbove(index) + (showsName(index) ? geometry.nameHeight : 0) + bubble
            blockTops.append(top)
            blockHeights.append(height)
            top += height
        }
        bubbleLayouts.removeAll()
    }

    private func gapAbove(_ index: Int) -> Double {
        guard index > 0 else { return 0 }
        return conversation.messages[index - 1].characterID == conversation.messages[index].characterID ? geometry.sameSpeakerGap : geometry.newSpeakerGap
    }

    private func showsName(_ index: Int) -> Bool {
        conversation.isGroup && !senders[index]
            && (index == 0 || conversation.messages[index - 1].characterID != conversation.messages[index].characterID)
    }

    private func bubbleLayout(_ index: Int) -> TextLayout {
        if let layout = bubbleLayouts[index] { return layout }
        if bubbleLayouts.count > 96 { bubbleLayouts.removeAll(keepingCapacity: true) }
        let layout = canvas.layout(conversation.messages[index].text, font: geometry.bubbleFont, wrapWidth: geometry.maxBubbleTextWidth)
        bubbleLayouts[index] = layout
        return layout
    }

    private func contentHeight(_ scene: ChatScene) -> Double {
        var height = geometry.newSpeakerGap
        if scene.sentCount > 0 { height = blockTops[scene.sentCount - 1] + blockHeights[scene.sentCount - 1] }
        if scene.indicator != nil {
            height += geometry.newSpeakerGap + geometry.indicatorSize.height + (conversation.isGroup ? geometry.nameHeight : 0)
        }
        return height + geometry.newSpeakerGap
    }

    private func viewportHeight(keyboard: Bool, typing: (message: Int, count: Int)?) -> Double {
        geometry.height - messagesTop - inputBarHeight(typing) - (keyboard ? geometry.keyboard : 0)
    }

    /// Where the messages' viewport begins: below the header, and below the watermark's own band
    /// when there is one, so that no message ever scrolls under it.
    private var messagesTop: Double { geometry.header + watermarkBand }

    private lazy var watermark = canvas.layout("Made with StoryVoice", font: TextStyle(pixels: 34, bold: true), wrapWidth: nil)
    private static let watermarkPadding = (x: 18.0, y: 10.0, margin: 8.0)

    private var watermarkBand: Double {
        settings.watermark ? watermark.size.height + 2 * (Self.watermarkPadding.y + Self.watermarkPadding.margin) : 0
    }

    // MARK: Drawing

    private func draw(_ scene: ChatScene, offset: Double, viewport: Double, phase: Int) {
        canvas.fill(x: 0, y: 0, width: geometry.width, height: geometry.height, color: palette.background)
        canvas.clipped(x: 0, y: messagesTop, width: geometry.width, height: viewport) {
            drawMessages(scene, originY: messagesTop - offset, viewport: (messagesTop, messagesTop + viewport))
            if let typist = scene.indicator { drawIndicator(typist, scene: scene, originY: messagesTop - offset, phase: phase) }
        }
        drawHeader()
        let keyboardTop = geometry.height - (scene.keyboard ? geometry.keyboard : 0)
        drawInputBar(scene.typing, bottom: keyboardTop)
        if scene.keyboard { drawKeyboard(top: keyboardTop, scene: scene) }
        if settings.watermark { drawWatermark() }
    }

    private func drawMessages(_ scene: ChatScene, originY: Double, viewport: (top: Double, bottom: Double)) {
        guard scene.sentCount > 0 else { return }
        // The first message whose block reaches into the viewport (blocks are in order).
        var low = 0
        var high = scene.sentCount - 1
        while low < high {
            let middle = (low + high) / 2
            if originY + blockTops[middle] + blockHeights[middle] < viewport.top { low = middle + 1 } else { high = middle }
        }
        for index in low..<scene.sentCount {
            let top = originY + blockTops[index]
            if top > viewport.bottom { break }
            drawBubble(index, top: top + gapAbove(index), isLastOfRun: index + 1 >= scene.sentCount
                || conversation.messages[index + 1].characterID != conversation.messages[index].characterID)
        }
    }

    private func drawBubble(_ index: Int, top: Double, isLastOfRun: Bool) {
        let message = conversation.messages[index]
        let mine = senders[index]
        var y = top
        let leftX = geometry.columnX + geometry.margin + (showsAvatars ? geometry.avatar + 14 : 0)
        if showsName(index), let character = conversation.character(message.characterID) {
            canvas.layout(character.name, font: geometry.nameFont, wrapWidth: nil)
                .draw(x: leftX + geometry.bubblePaddingX / 2, y: y + 2, color: RGBColor(hex: character.color) ?? palette.secondaryText)
            y += geometry.nameHeight
        }
        let text = bubbleLayout(index)
        let size = text.size
        let bubbleWidth = max(size.width + 2 * geometry.bubblePaddingX, 2 * geometry.bubbleRadius)
        let bubbleHeight = size.height + 2 * geometry.bubblePaddingY
        let x = mine ? geometry.columnX + geometry.columnWidth - geometry.margin - bubbleWidth : leftX
        canvas.roundedRectangle(x: x, y: y, width: bubbleWidth, height: bubbleHeight, radius: geometry.bubbleRadius, color: mine ? palette.sender : palette.receiver)
        text.draw(x: x + geometry.bubblePaddingX, y: y + geometry.bubblePaddingY, color: mine ? palette.senderText : palette.receiverText)
        if showsAvatars, !mine, isLastOfRun, let character = conversation.character(message.characterID) {
            drawAvatar(character, centerX: geometry.columnX + geometry.margin + geometry.avatar / 2, centerY: y + bubbleHeight - geometry.avatar / 2, diameter: geometry.avatar)
        }
    }

    private func drawAvatar(_ character: ChatCharacter, centerX: Double, centerY: Double, diameter: Double) {
        canvas.circle(centerX: centerX, centerY: centerY, radius: diameter / 2, color: RGBColor(hex: character.color) ?? palette.secondaryText)
        let emoji = character.avatarEmoji.flatMap { $0.isEmpty ? nil : $0 }
        let label = emoji ?? String(character.name.trimmingCharacters(in: .whitespaces).prefix(1)).uppercased()
        let text = canvas.layout(label, font: TextStyle(pixels: diameter * (emoji == nil ? 0.48 : 0.56), bold: emoji == nil), wrapWidth: nil)
        let size = text.size
        text.draw(x: centerX - size.width / 2, y: centerY - size.height / 2, color: RGBColor(red: 1, green: 1, blue: 1))
    }

    private func drawIndicator(_ typist: String, scene: ChatScene, originY: Double, phase: Int) {
        let end = scene.sentCount > 0 ? blockTops[scene.sentCount - 1] + blockHeights[scene.sentCount - 1] : 0
        var y = originY + end + geometry.newSpeakerGap
        let x = geometry.columnX + geometry.margin + (showsAvatars ? geometry.avatar + 14 : 0)
        let character = conversation.character(typist)
        if conversation.isGroup, let character {
            canvas.layout(character.name, font: geometry.nameFont, wrapWidth: nil)
                .draw(x: x + geometry.bubblePaddingX / 2, y: y + 2, color: RGBColor(hex: character.color) ?? palette.secondaryText)
            y += geometry.nameHeight
        }
        let size = geometry.indicatorSize
        canvas.roundedRectangle(x: x, y: y, width: size.width, height: size.height, radius: size.height / 2, color: palette.receiver)
        for dot in 0..<3 {
            canvas.circle(centerX: x + 34 + Double(dot) * 28, centerY: y + size.height / 2, radius: dot == phase ? 10 : 8,
                          color: palette.secondaryText, alpha: dot == phase ? 1 : 0.55)
        }
        if showsAvatars, let character {
            drawAvatar(character, centerX: geometry.columnX + geometry.margin + geometry.avatar / 2, centerY: y + size.height - geometry.avatar / 2, diameter: geometry.avatar)
        }
    }

    private func drawHeader() {
        canvas.fill(x: 0, y: 0, width: geometry.width, height: geometry.header, color: palette.bar)
        canvas.fill(x: 0, y: geometry.header - 2, width: geometry.width, height: 2, color: palette.secondaryText, alpha: 0.3)
        let others = conversation.characters.filter { !$0.isMe }
        let centerX = geometry.width / 2
        let diameter = geometry.header * 0.42
        if let first = others.first {
            drawAvatar(first, centerX: centerX, centerY: geometry.header * 0.36, diameter: diameter)
        }
        let title = others.count <= 2 ? others.map(\.name).joined(separator: ", ") : "\(others[0].name), \(others[1].name) & \(others.count - 2) more"
        let text = canvas.layout(title, font: geometry.headerFont, wrapWidth: nil)
        let size = text.size
        text.draw(x: centerX - size.width / 2, y: geometry.header * 0.36 + diameter / 2 + 6, color: palette.barText)
    }

    /// What the input bar shows of the message being typed: its newest lines, laid out.
    private func inputText(_ typing: (message: Int, count: Int)?) -> (text: String, layout: TextLayout)? {
        guard let typing, typing.count > 0 else { return nil }
        let width = geometry.inputFieldWidth - 2 * geometry.bubblePaddingX
        return input.visible(message: typing.message, text: conversation.messages[typing.message].text, count: typing.count, lines: geometry.inputMaxLines) {
            canvas.layout($0, font: geometry.bubbleFont, wrapWidth: width)
        }
    }

    private func inputBarHeight(_ typing: (message: Int, count: Int)?) -> Double {
        let line = geometry.bubbleFont.pixels * 1.25
        guard let (_, layout) = inputText(typing) else { return line + 2 * geometry.inputPadding + 2 * 18 }
        let lines = min(max(layout.lineCount, 1), geometry.inputMaxLines)
        return Double(lines) * line + 2 * geometry.inputPadding + 2 * 18
    }

    private func drawInputBar(_ typing: (message: Int, count: Int)?, bottom: Double) {
        let height = inputBarHeight(typing)
        let top = bottom - height
        canvas.fill(x: 0, y: top, width: geometry.width, height: height, color: palette.bar)
        let fieldX = geometry.columnX + geometry.margin
        let fieldY = top + 18
        let fieldWidth = geometry.inputFieldWidth
        let fieldHeight = height - 36
        canvas.roundedRectangle(x: fieldX - 2, y: fieldY - 2, width: fieldWidth + 4, height: fieldHeight + 4, radius: 40, color: palette.secondaryText, alpha: 0.45)
        canvas.roundedRectangle(x: fieldX, y: fieldY, width: fieldWidth, height: fieldHeight, radius: 38, color: palette.background)
        let textX = fieldX + geometry.bubblePaddingX
        if let (text, layout) = inputText(typing) {
            let size = layout.size
            canvas.clipped(x: fieldX, y: fieldY + geometry.inputPadding - 4, width: fieldWidth, height: fieldHeight - 2 * geometry.inputPadding + 8) {
                // The newest lines show when the text is longer than the field.
                let textY = fieldY + fieldHeight - geometry.inputPadding - size.height
                layout.draw(x: textX, y: textY, color: palette.barText)
                var cursor = PangoRectangle()
                pango_layout_get_cursor_pos(layout.layout, Int32(text.utf8.count), &cursor, nil)
                canvas.fill(x: textX + Double(cursor.x) / Double(PANGO_SCALE) + 2, y: textY + Double(cursor.y) / Double(PANGO_SCALE),
                            width: 3, height: Double(cursor.height) / Double(PANGO_SCALE), color: palette.sender)
            }
            let send = (x: fieldX + fieldWidth + 48, y: fieldY + fieldHeight - 36)
            canvas.circle(centerX: send.x, centerY: send.y, radius: 34, color: palette.sender)
            let arrow = canvas.layout("↑", font: TextStyle(pixels: 40, bold: true), wrapWidth: nil)
            arrow.draw(x: send.x - arrow.size.width / 2, y: send.y - arrow.size.height / 2, color: palette.senderText)
        } else {
            canvas.layout("Message", font: geometry.bubbleFont, wrapWidth: nil)
                .draw(x: textX, y: fieldY + geometry.inputPadding, color: palette.secondaryText)
        }
    }

    private func drawKeyboard(top: Double, scene: ChatScene) {
        cairo_set_source_surface(canvas.cairo, keyboardImage.canvas.surface, geometry.columnX, top)
        cairo_paint(canvas.cairo)
        if geometry.columnX > 0 {
            canvas.fill(x: 0, y: top, width: geometry.columnX, height: geometry.keyboard, color: keyboardImage.panel)
            canvas.fill(x: geometry.columnX + geometry.columnWidth, y: top, width: geometry.columnX, height: geometry.keyboard, color: keyboardImage.panel)
        }
        guard let typing = scene.typing, typing.count > 0 else { return }
        let text = conversation.messages[typing.message].text
        let last = text[text.index(text.startIndex, offsetBy: typing.count - 1)]
        if let key = keyboardImage.key(for: last) {
            canvas.roundedRectangle(x: geometry.columnX + key.x, y: top + key.y, width: key.width, height: key.height, radius: 10, color: palette.sender, alpha: 0.55)
        }
    }

    /// The free plan's mark, centred in its band under the header (`watermarkBand`).
    private func drawWatermark() {
        let size = watermark.size
        let padding = Self.watermarkPadding
        let x = geometry.columnX + (geometry.columnWidth - size.width) / 2
        let y = geometry.header + padding.margin + padding.y
        canvas.roundedRectangle(x: x - padding.x, y: y - padding.y, width: size.width + 2 * padding.x, height: size.height + 2 * padding.y,
                                radius: 18, color: RGBColor(red: 0, green: 0, blue: 0), alpha: 0.5)
        watermark.draw(x: x, y: y, color: RGBColor(red: 1, green: 1, blue: 1), alpha: 0.92)
    }
}

/// What a frame shows; equal keys draw equal frames.
private struct FrameKey: Equatable {
    var sent: Int
    var typingMessage: Int?
    var typingCount: Int
    var indicator: String?
    var indicatorPhase: Int
    var keyboard: Bool
    var offset: Int
}

/// The chat's scroll: it eases to each new target in a quarter of a second.
struct ScrollMotion {
    static let durationMS = 250
    private var from = 0.0
    private var to = 0.0
    private var startMS = 0

    mutating func offset(target: Double, atMS ms: Int) -> Double {
        if target != to {
            from = current(atMS: ms)
            to = target
            startMS = ms
        }
        return current(atMS: ms)
    }

    private func current(atMS ms: Int) -> Double {
        let progress = min(1, max(0, Double(ms - startMS) / Double(Self.durationMS)))
        let eased = 1 - (1 - progress) * (1 - progress) * (1 - progress)
        return from + (to - from) * eased
    }
}

/// A palette's colours parsed once.
struct ResolvedPalette {
    let sender, receiver, background, senderText, receiverText, bar, barText, secondaryText: RGBColor

    init(_ palette: ChatPalette) {
        func color(_ hex: String) -> RGBColor { RGBColor(hex: hex) ?? RGBColor(red: 0.5, green: 0.5, blue: 0.5) }
        sender = color(palette.sender)
        receiver = color(palette.receiver)
        background = color(palette.background)
        senderText = color(palette.senderText)
        receiverText = color(palette.receiverText)
        bar = color(palette.bar)
        barText = color(palette.barText)
        secondaryText = color(palette.secondaryText)
    }
}
