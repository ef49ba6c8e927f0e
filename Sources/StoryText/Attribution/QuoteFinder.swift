/// A span of quoted speech, `[start, end)` in scalars, marks included.
struct QuoteSpan: Hashable, Sendable {
    enum Style: Hashable, Sendable { case double, single, dash, script }
    var start: Int
    var end: Int
    /// Paragraph index where the quote opens and where it closes.
    var paragraph: Int
    var lastParagraph: Int
    var style: Style
    /// For script format (`ALICE: Hello.`), the name before the colon.
    var scriptSpeaker: String?
}

/// Finds quotations in a text, choosing the convention the text uses: double quotes
/// (straight or curly), single quotes (British style), em-dash dialogue, or script lines.
///
/// A quote left open at the end of a paragraph continues when the next paragraph opens with
/// a quote mark (the multi-paragraph speech convention); otherwise it closes at the paragraph end.
struct QuoteFinder {
    let text: AnalysisText

    func find() -> [QuoteSpan] {
        let convention = detectConvention()
        switch convention {
        case .script: return findScript()
        case .dash: return findDash()
        case .single: return findMarked(single: true)
        case .double: return findMarked(single: false)
        }
    }

    private enum Convention { case double, single, dash, script }

    private func detectConvention() -> Convention {
        let codes = text.codes
        var doubleMarks = 0, singleOpeners = 0
        for i in 0..<codes.count {
            let c = codes[i]
            if c == 34 || c == 0x201C || c == 0x201D { doubleMarks += 1 }
            else if c == 0x2018 { singleOpeners += 1 }
            else if c == 39, isSingleOpener(at: i) { singleOpeners += 1 }
        }
        var dashParagraphs = 0, scriptParagraphs = 0
        for paragraph in text.paragraphs {
            if startsWithDash(paragraph) { dashParagraphs += 1 }
            if scriptName(paragraph) != nil { scriptParagraphs += 1 }
        }
        let paragraphs = max(1, text.paragraphs.count)
        if scriptParagraphs >= 5, scriptParagraphs * 4 >= paragraphs, doubleMarks < scriptParagraphs * 2 { return .script }
        if dashParagraphs >= 5, doubleMarks < dashParagraphs * 2, singleOpeners < dashParagraphs { return .dash }
        if singleOpeners >= 2, singleOpeners > doubleMarks / 2 { return .single }
        return .double
    }

    // MARK: double and single quotes

    private func findMarked(single: Bool) -> [QuoteSpan] {
        let codes = text.codes
        let paragraphs = text.paragraphs
        var quotes: [QuoteSpan] = []
        var openStart = -1, openParagraph = -1
        var skipFirstMarkOf = -1
        // The last quote closed only by its paragraph's end, with no mark to continue it.
        var leftOpen = -1
        for (p, range) in paragraphs.enumerated() {
            var i = range.lowerBound
            if skipFirstMarkOf == p {
                // The paragraph's opening mark continues the quote left open above.
                i += 1
            }
            while i < range.upperBound {
                let c = codes[i]
                if single {
                    if openStart < 0 {
                        if c == 0x2018 || (c == 39 && isSingleOpener(at: i)) { openStart = i; openParagraph = p }
                    } else if c == 0x2019 || c == 39, isSingleCloser(at: i, paragraphEnd: range.upperBound) {
                        quotes.append(QuoteSpan(start: openStart, end: i + 1, paragraph: openParagraph, lastParagraph: p, style: .single))
                        openStart = -1
                    }
                } else {
                    if c == 0x201C {
                        if openStart >= 0 {
                            // An unbalanced opener: close what was open before it.
                            var end = i
                            while end > openStart + 1, ScalarClass.isSpace(codes[end - 1]) { end -= 1 }
                            quotes.append(QuoteSpan(start: openStart, end: end, paragraph: openParagraph, lastParagraph: p, style: .double))
                        }
                        openStart = i; openParagraph = p
                    } else if c == 0x201D {
                        if openStart >= 0 {
                            quotes.append(QuoteSpan(start: openStart, end: i + 1, paragraph: openParagraph, lastParagraph: p, style: .double))
                            openStart = -1
                        }
                    } else if c == 34 {
                        if openStart >= 0 {
                            quotes.append(QuoteSpan(start: openStart, end: i + 1, paragraph: openParagraph, lastParagraph: p, style: .double))
                            openStart = -1
                        } else if isOrphanCloser(at: i, paragraph: range) {
                            if !hasMark(range.lowerBound..<i) {
                                let speech = resumedSpeech(closingAt: i, paragraph: p, leftOpen: &leftOpen, quotes: &quotes)
                                quotes.append(speech)
                            }
                        } else {
                            openStart = i; openParagraph = p
                        }
                    }
                }
                i += 1
            }
            if openStart >= 0 {
                let next = p + 1
                if next < paragraphs.count, opensWithMark(paragraphs[next], single: single) {
                    skipFirstMarkOf = next
                } else {
                    leftOpen = quotes.count
                    quotes.append(QuoteSpan(start: openStart, end: range.upperBound, paragraph: openParagraph, lastParagraph: p, style: single ? .single : .double))
                    openStart = -1
                }
            }
        }
        return quotes.filter { $0.end - $0.start > 2 }
    }

    /// A straight mark after punctuation and before a space, with no quote open: the close of
    /// a speech whose opening was not marked (speech resumed after a quoted verse or letter).
    private func isOrphanCloser(at i: Int, paragraph: Range<Int>) -> Bool {
        let codes = text.codes
        guard i > paragraph.lowerBound else { return false }
        let prev = codes[i - 1]
        guard !ScalarClass.isSpace(prev), !ScalarClass.isLetter(prev), !ScalarClass.isDigit(prev),
              prev != 40, prev != 34 else { return false }
        return i + 1 >= paragraph.upperBound || ScalarClass.isSpace(codes[i + 1])
    }

    private func hasMark(_ range: Range<Int>) -> Bool {
        range.contains { text.codes[$0] == 34 || text.codes[$0] == 0x201C || text.codes[$0] == 0x201D }
    }

    /// The speech an orphan closing mark ends. When every paragraph since a speech left open
    /// (closed only by its paragraph's end) is unmarked, the speaker never stopped: the quote
    /// resumes there, its indented paragraphs (a recited verse) left out as lines. Otherwise
    /// the speech is the closing mark's paragraph up to the mark.
    private func resumedSpeech(closingAt i: Int, paragraph p: Int, leftOpen: inout Int, quotes: inout [QuoteSpan]) -> QuoteSpan {
        let paragraphs = text.paragraphs
        if leftOpen >= 0, leftOpen == quotes.count - 1 {
            let open = quotes[leftOpen]
            let between = (open.lastParagraph + 1)..<p
            if between.count <= 12, !between.contains(where: { hasMark(paragraphs[$0]) }) {
                quotes.removeLast()
                leftOpen = -1
                return QuoteSpan(start: open.start, end: i + 1, paragraph: open.paragraph, lastParagraph: p, style: .double)
            }
        }
        return QuoteSpan(start: paragraphs[p].lowerBound, end: i + 1, paragraph: p, lastParagraph: p, style: .double)
    }

    private func opensWithMark(_ range: Range<Int>, single: Bool) -> Bool {
        let c = text.codes[range.lowerBound]
        if single { return c == 0x2018 || (c == 39 && isSingleOpener(at: range.lowerBound)) }
        return c == 34 || c == 0x201C
    }

    /// Elisions that start with an apostrophe and are not quotation openers.
    private static let elisions: Set<String> = [
        "em", "tis", "twas", "twere", "twill", "twould", "cause", "n", "ere", "im", "er", "un", "ave",
        "ow", "is", "e", "tain", "bout", "til", "till", "fore", "scuse", "spose", "d", "s", "t", "ll", "re", "ve", "m",
    ]

    private func isSingleOpener(at i: Int) -> Bool {
        let codes = text.codes
        if i > 0, !ScalarClass.isOpeningContext(codes[i - 1]), codes[i - 1] != 34, codes[i - 1] != 0x201C { return false }
        guard i + 1 < codes.count, !ScalarClass.isSpace(codes[i + 1]) else { return false }
        var j = i + 1, word: [UInt32] = []
        while j < codes.count, ScalarClass.isLetter(codes[j]), word.count < 8 {
            word.append(ScalarClass.lowercased(codes[j])); j += 1
        }
        if j < codes.count, codes[j] == 39 || codes[j] == 0x2019 {
            // 'We'll: a contraction opens speech; 'n' stands alone.
            return word.count > 2 || (j + 1 < codes.count && ScalarClass.isLetter(codes[j + 1]))
        }
        if ScalarClass.isDigit(codes[i + 1]) { return false } // '90s
        let key = String(String.UnicodeScalarView(word.compactMap(Unicode.Scalar.init)))
        return !QuoteFinder.elisions.contains(key)
    }

    private func isSingleCloser(at i: Int, paragraphEnd: Int) -> Bool {
        let codes = text.codes
        guard i > 0, !ScalarClass.isSpace(codes[i - 1]) else { return false }
        let next: UInt32 = i + 1 < paragraphEnd ? codes[i + 1] : 32
        if ScalarClass.isLetter(next) || ScalarClass.isDigit(next) { return false }
        let prev = codes[i - 1]
        if !ScalarClass.isLetter(prev) { return true }
        // "the girls' dresses", "o' the": an apostrophe before a lower-case word, not the end
        // of speech (which nearly always follows punctuation).
        if ScalarClass.isSpace(next) {
            var j = i + 1
            while j < paragraphEnd, ScalarClass.isSpace(codes[j]) { j += 1 }
            if j < paragraphEnd, ScalarClass.isLetter(codes[j]), !ScalarClass.isUpper(codes[j]) { return false }
        }
        return true
    }

    /// Quotations nested in a double-quoted speech (`"I said 'no' flat to that."`), each
    /// `[opening mark, closing mark + 1)`. A `?` right before a word after a space is taken as
    /// an opening single quote lost in an encoding conversion (its closer is still `'`).
    func nestedQuotations(in quote: QuoteSpan) -> [Range<Int>] {
        guard quote.style == .double else { return [] }
        let codes = text.codes
        var result: [Range<Int>] = []
        var i = quote.start + 1
        while i < quote.end - 1 {
            let c = codes[i]
            let opens = c == 0x2018 || (c == 39 && isSingleOpener(at: i)) || isLostOpener(at: i)
            guard opens else { i += 1; continue }
            var j = i + 2
            // An apostrophe after a word and before a lower-case one is usually no closer (`the
            // girls' dresses`) — unless another quotation opens before any closer does: then it
            // was (`?The Battle of Hohenlinden' and ?Edinburgh after Flodden,'`).
            var lastApostrophe = -1
            while j < quote.end - 1, !((codes[j] == 0x2019 || codes[j] == 39) && isSingleCloser(at: j, paragraphEnd: quote.end)) {
                if codes[j] == 0x2018 || isLostOpener(at: j) {
                    if lastApostrophe >= 0 { j = lastApostrophe }
                    break
                }
                if codes[j] == 0x2019 || codes[j] == 39, ScalarClass.isLetter(codes[j - 1]), ScalarClass.isSpace(codes[j + 1]) {
                    lastApostrophe = j
                }
                j += 1
            }
            guard j < quote.end - 1, codes[j] != 0x2018, codes[j] != 63 else { i += 1; continue }
            result.append(i..<(j + 1))
            i = j + 1
        }
        return result
    }

    /// A `?` right before a word after a space: an opening `‘` lost in an encoding conversion.
    private func isLostOpener(at i: Int) -> Bool {
        let codes = text.codes
        return codes[i] == 63 && i > 0 && i + 1 < codes.count
            && ScalarClass.isOpeningContext(codes[i - 1]) && ScalarClass.isLetter(codes[i + 1])
    }

    // MARK: em-dash dialogue

    private func startsWithDash(_ range: Range<Int>) -> Bool {
        let codes = text.codes
        let a = range.lowerBound
        if ScalarClass.isDash(codes[a]) { return true }
        return a + 1 < range.upperBound && codes[a] == 45 && codes[a + 1] == 45
    }

    /// `— Where are you going? — said he. — Home.`: speech runs from a dash to the next
    /// spaced dash; the part after that is the tag, and a further spaced dash resumes speech.
    private func findDash() -> [QuoteSpan] {
        let codes = text.codes
        var quotes: [QuoteSpan] = []
        for (p, range) in text.paragraphs.enumerated() where startsWithDash(range) {
            var inSpeech = true
            var start = range.lowerBound
            var i = range.lowerBound + 1
            while i < range.upperBound {
                let spacedDash = ScalarClass.isSpace(codes[i - 1]) && (ScalarClass.isDash(codes[i]) || (codes[i] == 45 && i + 1 < range.upperBound && codes[i + 1] == 45))
                if spacedDash {
                    if inSpeech {
                        var end = i
                        while end > start, ScalarClass.isSpace(codes[end - 1]) { end -= 1 }
                        if end > start + 1 { quotes.append(QuoteSpan(start: start, end: end, paragraph: p, lastParagraph: p, style: .dash)) }
                        inSpeech = false
                    } else {
                        inSpeech = true
                        start = i
                    }
                }
                i += 1
            }
            if inSpeech, range.upperBound > start + 1 {
                quotes.append(QuoteSpan(start: start, end: range.upperBound, paragraph: p, lastParagraph: p, style: .dash))
            }
        }
        return quotes
    }

    // MARK: script format

    /// `ALICE: Hello.` or `Alice: Hello.` at the start of a paragraph; returns the name's end.
    private func scriptName(_ range: Range<Int>) -> Int? {
        let codes = text.codes
        var i = range.lowerBound
        guard ScalarClass.isUpper(codes[i]) else { return nil }
        var words = 1
        while i < range.upperBound, i - range.lowerBound < 32 {
            let c = codes[i]
            if c == 58 { // ':'
                guard i + 1 < range.upperBound, ScalarClass.isSpace(codes[i + 1]), words <= 3 else { return nil }
                return i
            }
            if c == 32 { words += 1; if i + 1 < range.upperBound, !ScalarClass.isUpper(codes[i + 1]) { return nil } }
            else if !(ScalarClass.isLetter(c) || c == 46 || c == 39 || c == 45) { return nil }
            i += 1
        }
        return nil
    }

    private func findScript() -> [QuoteSpan] {
        let codes = text.codes
        var quotes: [QuoteSpan] = []
        for (p, range) in text.paragraphs.enumerated() {
            guard let colon = scriptName(range) else { continue }
            var start = colon + 1
            while start < range.upperBound, ScalarClass.isSpace(codes[start]) { start += 1 }
            guard start < range.upperBound else { continue }
            let name = text.string(range.lowerBound..<colon)
            quotes.append(QuoteSpan(start: start, end: range.upperBound, paragraph: p, lastParagraph: p, style: .script, scriptSpeaker: name))
        }
        return quotes
    }
}
