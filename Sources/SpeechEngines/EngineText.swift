import Foundation

/// Text as the older engines can read it.
///
/// flite and festival read bytes, not UTF-8: a curly quote becomes three junk characters that
/// they spell out or choke on. The story's text is never changed; only what these engines are
/// handed is folded to ASCII, punctuation by meaning and letters without their accents.
enum EngineText {
    static func ascii(_ text: String) -> String {
        var folded = ""
        folded.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\u{2018}", "\u{2019}", "\u{201A}", "\u{2032}": folded += "'"
            case "\u{201C}", "\u{201D}", "\u{201E}", "\u{00AB}", "\u{00BB}", "\u{2033}": folded += "\""
            case "\u{2013}", "\u{2014}", "\u{2015}", "\u{2212}": folded += ", "
            case "\u{2026}": folded += "..."
            case "\u{00A0}", "\u{2009}", "\u{202F}", "\u{2002}", "\u{2003}": folded += " "
            case "\u{00AD}", "\u{200B}", "\u{FEFF}": break
            default: folded.unicodeScalars.append(scalar)
            }
        }
        let stripped = folded.folding(options: [.diacriticInsensitive, .widthInsensitive], locale: nil)
        return String(String.UnicodeScalarView(stripped.unicodeScalars.filter { $0.isASCII }))
    }
}
