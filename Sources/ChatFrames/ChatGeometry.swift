import ChatStories

/// Where things go on a frame of a given format, in pixels.
///
/// The chat is a phone-width column: the full width of a portrait or square frame, centred in
/// a landscape one. Sizes are the same in every format (all three are 1,080 pixels on their
/// short side), so text is as legible in each.
struct ChatGeometry {
    let width: Double
    let height: Double
    let columnX: Double
    let columnWidth: Double
    let header: Double
    let keyboard: Double
    let margin = 28.0
    let bubbleFont = TextStyle(pixels: 40)
    let nameFont = TextStyle(pixels: 27)
    let headerFont = TextStyle(pixels: 34, bold: true)
    let bubblePaddingX = 30.0
    let bubblePaddingY = 20.0
    let bubbleRadius = 38.0
    /// Between bubbles of the same person, and where the speaker changes.
    let sameSpeakerGap = 8.0
    let newSpeakerGap = 24.0
    let nameHeight = 38.0
    let avatar = 64.0
    let inputPadding = 18.0
    let inputMaxLines = 4
    let indicatorSize = (width: 124.0, height: 78.0)

    init(format: VideoFormat) {
        width = Double(format.width)
        height = Double(format.height)
        columnWidth = min(width, 1080)
        columnX = (width - columnWidth) / 2
        let tall = format.height > format.width
        header = tall ? 190 : 128
        keyboard = tall ? 640 : 400
    }

    var maxBubbleTextWidth: Double { (columnWidth * 0.7).rounded() - 2 * bubblePaddingX }
    var inputFieldWidth: Double { columnWidth - 2 * margin - 96 }
}
