/// Quote marks that do not enclose a line of dialogue: terms, titles and scare quotes inside a
/// sentence, the narrator's reported speech, and verses set off from the text. These stay
/// narration (see docs/analysis.md, "Policies").
extension SpeakerAttributor {
    func isNonSpeech(_ q: Int) -> Bool {
        guard quotes[q].style == .double || quotes[q].style == .single else { return false }
        if isInterjection(q) || isAttributedExpression(q) { return false }
        return isEmbeddedPhrase(q) || isSetOffVerse(q) || isReportedInNarration(q) || continuesNarrationSentence(q)
            || isScareQuote(q) || continuesNarrationAcrossParagraphs(q) || isWrittenText(q)
    }

    /// `with a "Well, well,"`, `so quiet a "Yes,"`, `brief answers of "Yes, yes,"`: an
    /// interjection in quote marks is something said, wherever the sentence puts it.
    private func isInterjection(_ q: Int) -> Bool {
        let words = quoteTokens[q].filter { tokens[$0].isWord }
        return (1...3).contains(words.count) && words.allSatisfy { Self.interjections.contains(tokens[$0].lower) }
    }

    private static let interjections: Set<String> = ["yes", "no", "well", "oh", "ah", "aye", "nay", "indeed", "hm", "hum"]

    /// `"tuckered out," as she expressed it`, `as she expressed it, "beat out."`, `"great
    /// magnificence," as Anne told Marilla`: the narration gives the quoted words to someone.
    private func isAttributedExpression(_ q: Int) -> Bool {
        func attribution(at i: Int) -> Bool {
            guard i + 2 < tokens.count, tokens[i].lower == "as", tokens[i].quote < 0,
                  tokens[i + 1].isWord, tokens[i + 2].isWord else { return false }
            return Self.expressingVerbs.contains(tokens[i + 2].lower)
        }
        let range = quoteTokens[q]
        var i = range.upperBound, seen = 0
        while i < tokens.count, seen < 2, tokens[i].quote < 0, tokens[i].paragraph == quotes[q].lastParagraph {
            if attribution(at: i) { return true }
            if tokens[i].isWord { seen += 1 }
            i += 1
        }
        i = range.lowerBound - 1; seen = 0
        while i >= 0, seen < 5, tokens[i].quote < 0, tokens[i].paragraph == quotes[q].paragraph {
            if attribution(at: i) { return true }
            if tokens[i].isWord { seen += 1 }
            i -= 1
        }
        return false
    }

    private static let expressingVerbs: Set<String> = ["expressed", "put", "phrased", "said", "told", "called"]

    /// Words written rather than said, found from the narration that introduces or tags them:
    /// `In Polina's handwriting I read:`, `he had scrawled on a piece of paper:`, `The answer
    /// was only in this short note:`, `"Mademoiselle," the document ran,`. Read, not spoken,
    /// like the letters (`letterQuotes`).
    private func isWrittenText(_ q: Int) -> Bool {
        let first = quoteTokens[q].lowerBound
        if first > 0, tokens[first - 1].quote < 0, [":", "\u{2014}", "-", ","].contains(tokens[first - 1].lower) {
            let paragraph = tokens[first - 1].paragraph
            if paragraph == quotes[q].paragraph || (paragraph == quotes[q].paragraph - 1 && opensParagraph(q)) {
                // The sentence that leads in; a speech verb in it ("replied the aunt, hunting for
                // the letter:") makes the quote said, whatever else is mentioned.
                var i = first - 1, words = 0, written = false
                while i >= 0, tokens[i].quote < 0, tokens[i].paragraph == paragraph, words < 80 {
                    if tokens[i].isWord {
                        if Lexicon.speechVerbs.contains(tokens[i].lower) { return false }
                        if Self.writingWords.contains(tokens[i].lower) { written = true }
                        words += 1
                    }
                    if tokens[i].sentenceInitial { break }
                    i -= 1
                }
                if written { return true }
            }
        }
        var i = quoteTokens[q].upperBound, words = 0
        while i < tokens.count, tokens[i].quote < 0, tokens[i].paragraph == quotes[q].lastParagraph, words < 3 {
            if tokens[i].isWord {
                if Self.writingWords.contains(tokens[i].lower) { return true }
                words += 1
            }
            i += 1
        }
        return false
    }

    private static let writingWords: Set<String> = [
        "wrote", "written", "writes", "scrawled", "indited", "handwriting", "note", "letter", "document", "inscription",
        "telegram", "card", "motto", "labeled", "labelled", "entitled", "blackboard",
    ]

    /// "From Gray, that" / "Many a flower is born to blush unseen ...": a narration paragraph
    /// that stops mid-sentence, on a word that is no speech verb, runs on into the quotation
    /// opening the next paragraph: a passage the narrator cites, not a line someone says.
    private func continuesNarrationAcrossParagraphs(_ q: Int) -> Bool {
        let first = quoteTokens[q].lowerBound
        guard first > 0, opensParagraph(q) else { return false }
        let last = tokens[first - 1]
        // A lower-case word, not a heading's number ("CHAPTER 12"); or a word no sentence ends
        // on, capitalised as a paragraph of its own ("That" / "The poor beetle ...").
        guard last.quote < 0, last.paragraph == quotes[q].paragraph - 1, last.isWord,
              !last.isCapitalized || ["that", "and", "but", "or", "which", "where", "when", "while", "whose"].contains(last.lower),
              last.lower.unicodeScalars.first.map(\.properties.isAlphabetic) == true else { return false }
        return !Lexicon.speechVerbs.contains(last.lower) && !["say", "says", "saying", "thus", "follows"].contains(last.lower)
    }

    /// A few quoted words inside a sentence of narration ("his inquiries after "poor Isabella"
    /// and her children"): a term or a title, not a line of dialogue.
    private func isEmbeddedPhrase(_ q: Int) -> Bool {
        let range = quoteTokens[q]
        let words = range.filter { tokens[$0].isWord }.count
        guard words <= 6, range.lowerBound > 0, range.upperBound < tokens.count else { return false }
        let before = tokens[range.lowerBound - 1], after = tokens[range.upperBound]
        guard before.quote < 0, before.paragraph == quotes[q].paragraph, before.isWord, !before.isCapitalized || before.lower == "i" else { return false }
        // An exclamation or question is said, even mid-sentence.
        if range.contains(where: { tokens[$0].lower == "!" || tokens[$0].lower == "?" }) { return false }
        // `was called "the house,"`, `people called "Rachel Lynde's husband"`, `to recite "The
        // Maiden's Vow"`: a naming word right before the mark, with no comma or colon, names what
        // follows; a call is set off (`called, "Come!"`).
        if Lexicon.namingWords.contains(before.lower) { return true }
        guard !Lexicon.speechVerbs.contains(before.lower) else { return false }
        if isTaggedSentence(q) { return false }
        return after.quote < 0 || after.paragraph != quotes[q].lastParagraph
    }

    /// "Jimmy Glover shouting from the top of a spruce "Master's coming."": a sentence of two or
    /// more words (capitalised, closed by a full stop) after a speaker and a speech verb is a
    /// line, not a quoted term (terms and titles are single words or lack the stop).
    private func isTaggedSentence(_ q: Int) -> Bool {
        let range = quoteTokens[q]
        let words = range.filter { tokens[$0].isWord }
        let closingMarks: Set<String> = ["\"", "'", "\u{201D}", "\u{2019}"]
        guard words.count >= 2, tokens[words[0]].isCapitalized,
              let last = range.last(where: { !closingMarks.contains(tokens[$0].lower) }), tokens[last].lower == "." else { return false }
        return tagBefore(q)?.strong == true
    }

    // MARK: context of a quote inside its paragraph

    /// Narration of the quote's own paragraph comes before it, and no other quote does (a
    /// quote after `"A," said X,` continues a speech).
    private func opensInsideNarration(_ q: Int) -> Bool {
        let first = quoteTokens[q].lowerBound
        guard first > 0, tokens[first - 1].quote < 0, tokens[first - 1].paragraph == quotes[q].paragraph else { return false }
        return q == 0 || quotes[q - 1].lastParagraph != quotes[q].paragraph
    }
    /// The narration word right before the quote introduces speech ("said", "to say", ...) or
    /// a colon does.
    private func introducedAsSpeech(_ q: Int) -> Bool {
        var i = quoteTokens[q].lowerBound - 1
        if i >= 0, tokens[i].lower == ":" { return true }
        while i >= 0, tokens[i].quote < 0, tokens[i].paragraph == quotes[q].paragraph, !tokens[i].isWord { i -= 1 }
        guard i >= 0, tokens[i].quote < 0, tokens[i].isWord else { return false }
        return Lexicon.speechVerbs.contains(tokens[i].lower) || Self.speechVerbBases.contains(tokens[i].lower)
    }

    /// A speech verb among the first three words after the quote tags it (`"...," grew ...` does not).
    private func taggedAfter(_ q: Int) -> Bool {
        var i = quoteTokens[q].upperBound, words = 0
        while i < tokens.count, tokens[i].quote < 0, tokens[i].paragraph == quotes[q].lastParagraph, words < 3 {
            if tokens[i].isWord {
                // `Catherine explained: "..."` introduces the next quote instead.
                let introducesNext = i + 1 < tokens.count && tokens[i + 1].lower == ":"
                if Lexicon.speechVerbs.contains(tokens[i].lower), !introducesNext { return true }
                words += 1
            }
            i += 1
        }
        return false
    }

    private static let speechVerbBases: Set<String> = [
        "say", "tell", "ask", "answer", "reply", "cry", "exclaim", "add", "remark", "observe", "repeat", "whisper", "call", "think",
    ]

    // MARK: the rules

    /// Emma's way of reporting speech in quote marks, in the narrator's grammar: `His
    /// gallantry was always on the alert. "Might he be trusted with the commission ..."`. Third
    /// person, past tense, no I/you/we, inside a narration paragraph and not introduced by a
    /// speech verb. (Whole paragraphs like that are often real lines and are kept.)
    private func isReportedInNarration(_ q: Int) -> Bool {
        guard opensInsideNarration(q), !introducedAsSpeech(q), !taggedAfter(q) else { return false }
        var words = 0, thirdPerson = false, pastOrModal = false
        for i in quoteTokens[q] where tokens[i].isWord {
            let w = tokens[i].lower
            if Self.firstAndSecondPerson.contains(w) { return false }
            if Self.thirdPerson.contains(w) { thirdPerson = true }
            if Self.pastAuxiliaries.contains(w) { pastOrModal = true }
            words += 1
        }
        return words >= 6 && thirdPerson && pastOrModal
    }

    private static let firstAndSecondPerson: Set<String> = [
        "i", "me", "my", "mine", "myself", "we", "us", "our", "ours", "ourselves", "you", "your", "yours", "yourself",
        "yourselves", "i'm", "i'll", "i've", "i'd",
    ]
    private static let thirdPerson: Set<String> = ["he", "she", "they", "his", "her", "him", "them"]
    private static let pastAuxiliaries: Set<String> = ["was", "had", "would", "could", "should", "were", "did", "might"]

    /// A quote that opens with a lower-case word in the middle of a narration sentence carries
    /// on the narrator's sentence (`he only hoped "the young lady's pride would now be
    /// contented;"`, `Anne's "so there" was`): indirect speech or a quoted phrase, unless a
    /// speech verb introduces or tags it.
    private func continuesNarrationSentence(_ q: Int) -> Bool {
        let codes = text.codes
        var i = quotes[q].start + 1
        while i < quotes[q].end, ScalarClass.isSpace(codes[i]) { i += 1 }
        guard i < quotes[q].end, ScalarClass.isLetter(codes[i]), !ScalarClass.isUpper(codes[i]) else { return false }
        return opensInsideNarration(q) && !introducedAsSpeech(q) && !taggedAfter(q)
    }

    /// One to three quoted words that the narration's sentence runs on after (`The "pigeon
    /// house" stood behind`, `Her "condition" was`): a mention or scare quote. Not after a comma
    /// (`to me and say, "I love you," and`: speech) and not an exclamation or question.
    private func isScareQuote(_ q: Int) -> Bool {
        let range = quoteTokens[q]
        let words = range.filter { tokens[$0].isWord }.count
        guard (1...3).contains(words), opensInsideNarration(q), !introducedAsSpeech(q), !taggedAfter(q) else { return false }
        if tokens[range.lowerBound - 1].lower == "," { return false }
        if range.contains(where: { tokens[$0].lower == "!" || tokens[$0].lower == "?" }) { return false }
        guard range.upperBound < tokens.count else { return false }
        let after = tokens[range.upperBound]
        guard after.quote < 0, after.paragraph == quotes[q].lastParagraph else { return false }
        // The sentence goes on: a lower-case word or inner punctuation follows the closing mark.
        return (after.isWord && !after.isCapitalized) || [",", ";", ")", "-", "\u{2014}"].contains(after.lower)
    }

    /// A quotation set off from the text as its own paragraph, indented further than the text's
    /// paragraphs, of up to four lines:
    /// verse (`     "The little birds sang as if it were / The one day of summer"`) or the
    /// closing of a letter, not speech.
    private func isSetOffVerse(_ q: Int) -> Bool {
        let codes = text.codes
        let paragraph = text.paragraphs[quotes[q].paragraph]
        guard quotes[q].start == paragraph.lowerBound, text.isSetOff(quotes[q].paragraph) else { return false }
        let lines = (quotes[q].start..<quotes[q].end).reduce(1) { $0 + (codes[$1] == 10 ? 1 : 0) }
        return lines <= 4
    }

    // MARK: letters

    /// The quotes of letters written out in the text, found from their closing (`"Yours
    /// devotedly,"`, `"Believe me,"`): the closing, the signature after it (`"Anne"`), and the
    /// paragraphs before it that are wholly quoted, back to the salutation (`"Dearest Diana"`)
    /// or the narration that introduces the letter. A letter is read, not spoken.
    func letterQuotes() -> Set<Int> {
        var result: Set<Int> = []
        for q in quotes.indices where isLetterClosing(q) {
            result.insert(q)
            if q + 1 < quotes.count, quotes[q + 1].paragraph <= quotes[q].lastParagraph + 1, isSignature(q + 1) { result.insert(q + 1) }
            var k = q - 1, next = quotes[q].paragraph
            while k >= 0, quotes[k].lastParagraph == next - 1, opensParagraph(k), quotes[q].paragraph - quotes[k].paragraph <= 40 {
                if isSalutation(k) { result.insert(k); break }
                guard quotes[k].end == text.paragraphs[quotes[k].lastParagraph].upperBound else { break }
                result.insert(k)
                next = quotes[k].paragraph
                k -= 1
            }
        }
        return result
    }

    private func opensParagraph(_ q: Int) -> Bool { quotes[q].start == text.paragraphs[quotes[q].paragraph].lowerBound }

    private func quoteWords(_ q: Int) -> [Token] { quoteTokens[q].map { tokens[$0] }.filter(\.isWord) }

    private static let closingWords: Set<String> = ["yours", "your", "believe", "ever", "affectionately", "faithfully", "sincerely", "truly"]

    /// `"Yours ever,"`, `"Your obliged and affectionate Son, F. C. WESTON CHURCHILL."`: a short
    /// quote opening its paragraph with a closing formula and a comma, then at most a signature,
    /// and nothing else in the paragraph.
    private func isLetterClosing(_ q: Int) -> Bool {
        let words = quoteWords(q)
        guard opensParagraph(q), (1...10).contains(words.count), Self.closingWords.contains(words[0].lower) else { return false }
        let inside = quoteTokens[q]
        // No tag follows in the paragraph (`"Your nose is well enough," said Diana`): at most a signature.
        if inside.upperBound < tokens.count, tokens[inside.upperBound].paragraph == quotes[q].lastParagraph,
           tokens[inside.upperBound].quote < 0 { return false }
        guard let comma = inside.first(where: { tokens[$0].lower == "," }) else { return false }
        if inside.contains(where: { tokens[$0].lower == "!" || tokens[$0].lower == "?" }) { return false }
        return (comma..<inside.upperBound).allSatisfy { !tokens[$0].isWord || tokens[$0].isCapitalized }
    }

    /// A name or initials alone in quote marks after a closing (`"Anne"`, `"A. W."`).
    private func isSignature(_ q: Int) -> Bool {
        let words = quoteWords(q)
        return (1...4).contains(words.count) && words.allSatisfy(\.isCapitalized)
            && !quoteTokens[q].contains { tokens[$0].lower == "!" || tokens[$0].lower == "?" }
    }

    /// `"Dearest Diana"`, `"Dear Catherine,"`, `"My dear Emma,"` opening a paragraph.
    private func isSalutation(_ q: Int) -> Bool {
        let words = quoteWords(q)
        guard opensParagraph(q), (2...4).contains(words.count) else { return false }
        return ["dear", "dearest"].contains(words[0].lower) || (words[0].lower == "my" && ["dear", "dearest"].contains(words[1].lower))
    }
}
