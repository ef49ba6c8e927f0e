/// Checks that a quotation occurs in the story, forgiving only typography: case, runs of
/// whitespace, curly versus straight quotes and dashes.
struct EvidenceIndex: Sendable {
    private let normalizedText: String

    init(text: String) {
        normalizedText = Self.normalize(text)
    }

    /// Quotes shorter than this prove nothing ("he said").
    static let minimumLength = 12

    func contains(_ quote: String) -> Bool {
        let needle = Self.normalize(quote)
        guard needle.count >= Self.minimumLength else { return false }
        return normalizedText.contains(needle)
    }

    static func normalize(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var lastWasSpace = true
        for scalar in text.unicodeScalars {
            var scalar = scalar
            switch scalar {
            case "\u{2018}", "\u{2019}", "\u{201A}", "\u{2032}": scalar = "'"
            case "\u{201C}", "\u{201D}", "\u{201E}", "\u{2033}": scalar = "\""
            case "\u{2013}", "\u{2014}", "\u{2015}": scalar = "-"
            default: break
            }
            if scalar.properties.isWhitespace {
                if !lastWasSpace { result.append(" ") }
                lastWasSpace = true
                continue
            }
            lastWasSpace = false
            for lower in scalar.properties.lowercaseMapping.unicodeScalars { result.append(lower) }
        }
        if result.last == " " { result.removeLast() }
        var trimmed = String(result)
        // Surrounding quotation marks are the model's, not the story's.
        while let first = trimmed.first, first == "\"" || first == "'" { trimmed.removeFirst() }
        while let last = trimmed.last, last == "\"" || last == "'" { trimmed.removeLast() }
        return trimmed
    }
}
