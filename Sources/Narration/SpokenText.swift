/// Turns a span of the story into what an engine should say.
///
/// The story's text is never changed; this only drops what a reader would not pronounce
/// (quote marks, emphasis underscores, layout) and spells dashes as pauses.
enum SpokenText {
    static func make(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        var previous: Unicode.Scalar = " "
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            index += 1
            switch scalar {
            case "\"", "\u{201C}", "\u{201D}", "\u{00AB}", "\u{00BB}", "_", "*":
                continue
            case "\u{2018}", "\u{2019}", "'":
                // Keep apostrophes inside words (don't, o'clock); drop quote marks.
                let next: Unicode.Scalar = index < scalars.endIndex ? scalars[index] : " "
                if previous.properties.isAlphabetic && next.properties.isAlphabetic {
                    flush(&out, &pendingSpace); out.append("'"); previous = "'"
                }
                continue
            case "-" where index < scalars.endIndex && scalars[index] == "-",
                 "\u{2014}", "\u{2013}":
                // "--" and dashes are a pause, not a word.
                while index < scalars.endIndex && scalars[index] == "-" { index += 1 }
                if !out.isEmpty && previous != "," { out.append(","); previous = "," }
                pendingSpace = true
                continue
            default:
                if scalar.properties.isWhitespace {
                    pendingSpace = !out.isEmpty
                    continue
                }
                flush(&out, &pendingSpace)
                out.append(scalar)
                previous = scalar
            }
        }
        var text = String(out)
        while text.last == "," { text.removeLast() }
        return text
    }

    private static func flush(_ out: inout String.UnicodeScalarView, _ pendingSpace: inout Bool) {
        if pendingSpace { out.append(" "); pendingSpace = false }
    }

    /// Whether a piece has anything to pronounce.
    static func isSpeakable(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.properties.isAlphabetic || $0.properties.numericType != nil }
    }
}
