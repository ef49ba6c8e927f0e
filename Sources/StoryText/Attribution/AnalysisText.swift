import StoryModel

/// The story's scalars as plain code points, with the paragraph and word structure the
/// analysis walks. Everything here is built in one linear pass; offsets are scalar indices.
struct AnalysisText {
    /// Unicode scalar values of the text, exactly as given.
    let codes: [UInt32]
    /// Paragraphs as `[start, end)` with surrounding whitespace trimmed off.
    let paragraphs: [Range<Int>]
    /// The indentation most paragraphs have (0 in most texts; a tab or a few spaces in some).
    let bodyIndentation: Int

    init(_ text: String) {
        var codes: [UInt32] = []
        codes.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars { codes.append(scalar.value) }
        self.codes = codes
        let paragraphs = AnalysisText.splitParagraphs(codes)
        self.paragraphs = paragraphs
        var widths: [Int: Int] = [:]
        for range in paragraphs { widths[AnalysisText.indentation(before: range.lowerBound, in: codes), default: 0] += 1 }
        self.bodyIndentation = widths.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key ?? 0
    }

    var count: Int { codes.count }

    /// The spaces before a paragraph's first line (a tab counts as four).
    func indentation(of paragraph: Int) -> Int {
        AnalysisText.indentation(before: paragraphs[paragraph].lowerBound, in: codes)
    }

    /// A paragraph set in further than the text's body (a verse, an inset letter line).
    func isSetOff(_ paragraph: Int) -> Bool {
        indentation(of: paragraph) >= bodyIndentation + 2
    }

    private static func indentation(before start: Int, in codes: [UInt32]) -> Int {
        var i = start - 1, width = 0
        while i >= 0, codes[i] == 32 || codes[i] == 9 { width += codes[i] == 9 ? 4 : 1; i -= 1 }
        return width
    }

    func string(_ range: Range<Int>) -> String {
        var view = String.UnicodeScalarView()
        for index in range where index >= 0 && index < codes.count {
            if let scalar = Unicode.Scalar(codes[index]) { view.append(scalar) }
        }
        return String(view)
    }

    /// Paragraphs are separated by blank lines; a text with (almost) no blank lines is one
    /// paragraph per line, as many plain-text exports are written.
    static func splitParagraphs(_ codes: [UInt32]) -> [Range<Int>] {
        var newlines = 0, blankBreaks = 0
        var index = 0
        let n = codes.count
        while index < n {
            if codes[index] == 10 {
                newlines += 1
                var j = index + 1
                while j < n, codes[j] == 32 || codes[j] == 9 || codes[j] == 13 { j += 1 }
                if j < n, codes[j] == 10 { blankBreaks += 1 }
            }
            index += 1
        }
        let lineMode = newlines >= 3 && blankBreaks * 20 < newlines
        var result: [Range<Int>] = []
        var start = 0
        index = 0
        func flush(_ end: Int) {
            var a = start, b = end
            while a < b, ScalarClass.isSpace(codes[a]) { a += 1 }
            while b > a, ScalarClass.isSpace(codes[b - 1]) { b -= 1 }
            if b > a { result.append(a..<b) }
        }
        while index < n {
            if codes[index] == 10 {
                var j = index + 1
                while j < n, codes[j] == 32 || codes[j] == 9 || codes[j] == 13 { j += 1 }
                if lineMode || (j < n && codes[j] == 10) {
                    flush(index)
                    start = index + 1
                }
            }
            index += 1
        }
        flush(n)
        return result
    }
}

/// Character classes on scalar values, with an ASCII fast path.
enum ScalarClass {
    @inline(__always) static func isSpace(_ c: UInt32) -> Bool {
        c == 32 || c == 10 || c == 9 || c == 13 || c == 0xA0 || c == 0x2028 || c == 0x2029 || c == 0x3000
    }

    @inline(__always) static func isLetter(_ c: UInt32) -> Bool {
        if c < 128 { return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) }
        guard let scalar = Unicode.Scalar(c) else { return false }
        return scalar.properties.isAlphabetic
    }

    @inline(__always) static func isDigit(_ c: UInt32) -> Bool { c >= 48 && c <= 57 }

    @inline(__always) static func isUpper(_ c: UInt32) -> Bool {
        if c < 128 { return c >= 65 && c <= 90 }
        guard let scalar = Unicode.Scalar(c) else { return false }
        return scalar.properties.isUppercase
    }

    /// Apostrophes that may sit inside a word ("don't", "o'clock").
    @inline(__always) static func isApostrophe(_ c: UInt32) -> Bool { c == 39 || c == 0x2019 }

    static func isDash(_ c: UInt32) -> Bool { c == 0x2014 || c == 0x2013 || c == 0x2015 }

    /// Marks after which a straight quote is more likely to open than to close.
    static func isOpeningContext(_ c: UInt32) -> Bool {
        isSpace(c) || c == 40 || c == 91 || c == 0x2014 || c == 0x2013 || c == 45
    }

    static func lowercased(_ c: UInt32) -> UInt32 {
        if c >= 65 && c <= 90 { return c + 32 }
        if c < 128 { return c }
        guard let scalar = Unicode.Scalar(c) else { return c }
        let lower = scalar.properties.lowercaseMapping.unicodeScalars
        return lower.count == 1 ? lower.first!.value : c
    }

    /// Folds accented Latin letters to ASCII so names and lexicon keys compare plainly.
    static func folded(_ c: UInt32) -> UInt32 {
        switch c {
        case 0xE0...0xE5: return 97
        case 0xE7: return 99
        case 0xE8...0xEB: return 101
        case 0xEC...0xEF: return 105
        case 0xF1: return 110
        case 0xF2...0xF6, 0xF8: return 111
        case 0xF9...0xFC: return 117
        case 0xFD, 0xFF: return 121
        case 0x2019: return 39
        default: return c
        }
    }
}
