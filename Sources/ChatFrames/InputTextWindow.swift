/// The input bar's text while the sender types a message: the newest lines of what is typed so
/// far, laid out.
///
/// Laying out everything typed again at every character would cost the square of a message's
/// length (a 2,000-character message took 2.1 ms a character to type out, 1,000 took 1.4). So each
/// message is laid out whole once, to learn where its lines start; each frame then lays out only
/// the typed part from the start of its newest `lines` lines and one more. Starting where one of
/// the whole message's lines starts, that text wraps exactly as the typed part would (greedy
/// wrapping depends only on the text from a line's start). The one more line is for a word being
/// typed: its first letters may still fit on the line above, where the whole word does not, so
/// the typed part can have a line fewer than the whole message up to there.
struct InputTextWindow {
    private var message = -1
    private var text = ""
    /// The UTF-8 offset after each character (grapheme cluster) of the message.
    private var ends: [Int] = []
    /// The UTF-8 offsets where the whole message's lines start, in the input field's width.
    private var lineStarts: [Int] = []
    private var last: (count: Int, text: String, layout: TextLayout)?

    /// The newest `lines` lines (and perhaps one more) of the first `count` characters of message
    /// `index` (`text`), laid out by `layout`; the caller shows the newest `lines`.
    mutating func visible(message index: Int, text: String, count: Int, lines: Int, layout: (String) -> TextLayout) -> (text: String, layout: TextLayout) {
        if index != message {
            message = index
            self.text = text
            var offset = 0
            ends = text.map { character in
                offset += character.utf8.count
                return offset
            }
            lineStarts = layout(text).lineStarts
            last = nil
        }
        if let last, last.count == count { return (last.text, last.layout) }
        let end = ends[min(max(count, 1), ends.count) - 1]
        // The line holding the last character typed: the last that starts before its end.
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] < end { low = middle } else { high = middle - 1 }
        }
        let start = lineStarts.isEmpty ? 0 : lineStarts[max(0, low - lines)]
        let utf8 = text.utf8
        let shown = String(decoding: utf8[utf8.index(utf8.startIndex, offsetBy: start)..<utf8.index(utf8.startIndex, offsetBy: end)], as: UTF8.self)
        let laid = layout(shown)
        last = (count, shown, laid)
        return (shown, laid)
    }
}
