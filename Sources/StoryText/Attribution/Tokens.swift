/// A word or a punctuation mark of the text, with where it sits.
struct Token: Sendable {
    var start: Int
    var end: Int
    /// Lowercased, accent-folded form for words; the mark itself for punctuation.
    var lower: String
    var isWord: Bool
    /// First letter is uppercase.
    var isCapitalized: Bool
    /// The word ended in 's ("Anne's"); `lower` holds it without the suffix.
    var isPossessive: Bool = false

    /// The lowercased word with its "'s" ("apothecary's"), which `lower` drops.
    var asWritten: String {
        isPossessive && end - start == lower.unicodeScalars.count + 2 ? lower + "'s" : lower
    }
    /// The token opens a sentence (after . ! ?, at a paragraph start, or at a quote's start).
    var sentenceInitial: Bool
    var paragraph: Int
    /// Index of the quote the token is inside, or -1 in narration.
    var quote: Int
}

/// Splits the text into tokens in one pass, marking which quote and paragraph each is in.
enum Tokenizer {
    static func tokenize(_ text: AnalysisText, quotes: [QuoteSpan]) -> [Token] {
        let codes = text.codes
        var tokens: [Token] = []
        tokens.reserveCapacity(codes.count / 4)
        var quoteIndex = 0
        var paragraphIndex = 0
        var sentenceStart = true
        var lastParagraph = -1
        var lastQuote = -1
        var i = 0
        let n = codes.count
        var buffer: [UInt8] = []
        buffer.reserveCapacity(32)
        while i < n {
            let c = codes[i]
            if ScalarClass.isSpace(c) { i += 1; continue }
            while paragraphIndex < text.paragraphs.count, text.paragraphs[paragraphIndex].upperBound <= i { paragraphIndex += 1 }
            while quoteIndex < quotes.count, quotes[quoteIndex].end <= i { quoteIndex += 1 }
            let inQuote = quoteIndex < quotes.count && quotes[quoteIndex].start <= i ? quoteIndex : -1
            if paragraphIndex != lastParagraph || inQuote != lastQuote { sentenceStart = true }
            lastParagraph = paragraphIndex
            lastQuote = inQuote
            if ScalarClass.isLetter(c) || ScalarClass.isDigit(c) {
                let start = i
                buffer.removeAll(keepingCapacity: true)
                while i < n {
                    let d = codes[i]
                    if ScalarClass.isLetter(d) || ScalarClass.isDigit(d) {
                        let folded = ScalarClass.folded(ScalarClass.lowercased(d))
                        if folded < 128 { buffer.append(UInt8(truncatingIfNeeded: folded)) }
                        else if let s = Unicode.Scalar(folded) { buffer.append(contentsOf: Array(String(s).utf8)) }
                        i += 1
                    } else if ScalarClass.isApostrophe(d), i + 1 < n, ScalarClass.isLetter(codes[i + 1]), i > start {
                        buffer.append(39)
                        i += 1
                    } else { break }
                }
                var possessive = false
                let count = buffer.count
                if count > 2, buffer[count - 2] == 39, buffer[count - 1] == 115 {
                    buffer.removeLast(2)
                    possessive = true
                } else if i < n, ScalarClass.isApostrophe(codes[i]), buffer.last == 115, i + 1 >= n || !ScalarClass.isLetter(codes[i + 1]) {
                    possessive = ScalarClass.isUpper(c)
                }
                // "Daisy s mother": a text that lost its curly apostrophes (an ASCII conversion)
                // writes a name's possessive as a lone "s" after a space.
                if !possessive, ScalarClass.isUpper(c), i + 2 < n, codes[i] == 32, codes[i + 1] == 115,
                   i + 2 == n || !(ScalarClass.isLetter(codes[i + 2]) || ScalarClass.isDigit(codes[i + 2]) || ScalarClass.isApostrophe(codes[i + 2])) {
                    possessive = true
                    i += 2
                }
                let word = String(decoding: buffer, as: UTF8.self)
                var token = Token(start: start, end: i, lower: word, isWord: true, isCapitalized: ScalarClass.isUpper(c),
                                  sentenceInitial: sentenceStart, paragraph: paragraphIndex, quote: inQuote)
                token.isPossessive = possessive
                tokens.append(token)
                sentenceStart = false
            } else {
                let mark = Unicode.Scalar(ScalarClass.folded(c)).map { String($0) } ?? "?"
                tokens.append(Token(start: i, end: i + 1, lower: mark, isWord: false, isCapitalized: false,
                                    sentenceInitial: false, paragraph: paragraphIndex, quote: inQuote))
                // Quote marks themselves do not end or start sentences; . ! ? do.
                let afterAbbreviation = c == 46 && tokens.count >= 2 && tokens[tokens.count - 2].isWord
                    && Lexicon.abbreviations.contains(tokens[tokens.count - 2].lower)
                if (c == 46 && !afterAbbreviation) || c == 33 || c == 63 || c == 0x2026 { sentenceStart = true }
                i += 1
            }
        }
        return tokens
    }
}
