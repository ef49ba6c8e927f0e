import StoryModel

/// Turns entities and attributions into the public result: characters ordered by number of
/// lines (then first appearance), ids c1, c2 ..., and segments tiling the whole text.
enum CastAssembler {
    /// A segment before character ids exist: the speaking entity's index, or -1.
    private struct Piece {
        var start: Int
        var end: Int
        var kind: SegmentKind
        var entity: Int
        var evidence: AttributionEvidence
        /// The quote the piece is part of; -1 for narration.
        var quote: Int = -1
        /// The turn model's chance for the speaker it chose, when it weighed this line.
        var turnProbability: Double?
        var movedByModel = false
        var ambiguousName = false
    }

    static func assemble(document: StoryDocument, text: AnalysisText, tokens: [Token], quotes: [QuoteSpan], attributions: [Attribution],
                         entities: [Entity], estimates: [GenderAgeInference.Estimate], explaining: Bool) -> (StoryAnalysis, [ExplainedLine]) {
        var pieces: [Piece] = []
        func narration(_ start: Int, _ end: Int) {
            guard end > start else { return }
            if let last = pieces.last, last.kind == .narration, last.end == start { pieces[pieces.count - 1].end = end }
            else { pieces.append(Piece(start: start, end: end, kind: .narration, entity: -1, evidence: .none)) }
        }
        var cursor = 0
        for (q, quote) in quotes.enumerated() {
            // Quoted terms inside narration stay in the narrator's voice (docs/analysis.md).
            guard quote.start >= cursor, quote.end > quote.start, attributions[q].evidence != .notSpeech else { continue }
            narration(cursor, quote.start)
            let a = attributions[q]
            // A stage direction in parentheses inside the speech ("(smiling,)") is the narrator's.
            let cuts = nestedQuotationCuts(in: quote, text: text)
            func line(_ start: Int, _ end: Int) {
                // A mark left alone by a cut (`myself.""`) is no line.
                guard (start..<end).contains(where: { ScalarClass.isLetter(text.codes[$0]) || ScalarClass.isDigit(text.codes[$0]) }) else {
                    return narration(start, end)
                }
                var from = start
                for cut in cuts where cut > from && cut < end {
                    pieces.append(Piece(start: from, end: cut, kind: .dialogue, entity: a.entity, evidence: a.evidence, quote: q,
                                    ambiguousName: a.ambiguousName))
                    from = cut
                }
                if end > from {
                    pieces.append(Piece(start: from, end: end, kind: .dialogue, entity: a.entity, evidence: a.evidence, quote: q,
                                        ambiguousName: a.ambiguousName))
                }
            }
            // A speech that runs over several paragraphs is one line per paragraph, the same
            // speaker's; the blank lines between them are not speech.
            let breaks = paragraphBreaks(in: quote, text: text)
            func speech(_ start: Int, _ end: Int) {
                var from = start
                for gap in breaks where gap.lowerBound >= from && gap.upperBound <= end {
                    line(from, gap.lowerBound)
                    narration(gap.lowerBound, gap.upperBound)
                    from = gap.upperBound
                }
                line(from, end)
            }
            var pieceStart = quote.start
            for aside in asides(in: quote, text: text) {
                if aside.lowerBound > pieceStart { speech(pieceStart, aside.lowerBound) }
                narration(aside.lowerBound, aside.upperBound)
                pieceStart = aside.upperBound
            }
            if quote.end > pieceStart { speech(pieceStart, quote.end) }
            cursor = quote.end
        }
        narration(cursor, text.count)
        let turnChoices = reconsiderTurns(&pieces, text: text, tokens: tokens, entities: entities, genders: estimates.map(\.gender))

        var lines = Array(repeating: 0, count: entities.count)
        for piece in pieces where piece.kind == .dialogue && piece.entity >= 0 { lines[piece.entity] += 1 }
        let speaking = entities.indices.filter { lines[$0] > 0 }.sorted { a, b in
            if lines[a] != lines[b] { return lines[a] > lines[b] }
            if entities[a].firstPosition != entities[b].firstPosition { return entities[a].firstPosition < entities[b].firstPosition }
            return a < b
        }
        var ids: [Int: String] = [:]
        var characters: [Character] = []
        for (rank, entity) in speaking.enumerated() {
            let id = "c\(rank + 1)"
            ids[entity] = id
            let e = entities[entity]
            let estimate = estimates[entity]
            // A role is keyed in lower case; "the Frenchman" is written so.
            let written = e.kind == .role ? Lexicon.capitalisingNationalities : { $0 }
            let name = written(e.fullestName)
            characters.append(Character(
                id: id, name: name,
                aliases: e.aliasNames.map(written).filter { $0 != name && $0 != "I" || e.kind == .narrator && $0 == "I" && name != "I" },
                gender: estimate.gender, ageRange: estimate.age, lines: lines[entity],
                genderConfidence: estimate.genderConfidence, ageConfidence: estimate.ageConfidence))
        }
        let explained = explain(pieces, text: text, quotes: quotes, entities: entities, estimates: estimates, lines: lines)
        var next = explained.makeIterator()
        var segments: [Segment] = []
        var explainedLines: [ExplainedLine] = []
        for piece in pieces {
            guard piece.kind == .dialogue else {
                segments.append(Segment(start: piece.start, end: piece.end, kind: .narration))
                continue
            }
            let (evidence, features) = next.next()!
            var value = features.flatMap(LearnedConfidence.value) ?? Confidence.value(
                for: evidence, speaker: piece.entity >= 0 ? entities[piece.entity] : nil, lines: piece.entity >= 0 ? lines[piece.entity] : 0,
                of: lines.reduce(0, +))
            if piece.ambiguousName { value = min(value, Confidence.ambiguousName) }
            // The lines' explanations are copies for `analyze --features`; a plain analysis skips them.
            if explaining, let features {
                let candidates = turnChoices[segments.count].map { choice in
                    zip(choice.candidates, choice.features).map { ExplainedLine.Candidate(speaker: ids[$0], features: $1) }
                }
                explainedLines.append(ExplainedLine(segment: segments.count, evidence: evidence.name, features: features.values,
                                                    candidates: candidates))
            }
            segments.append(Segment(start: piece.start, end: piece.end, kind: .dialogue, speaker: ids[piece.entity], confidence: value))
        }
        let analysis = StoryAnalysis(title: document.title, author: document.author, characters: characters,
                                     chapters: document.chapters, segments: segments)
        return (analysis, explainedLines)
    }

    /// Gives each line a turn rule attributed the speaker the turn model finds likeliest among
    /// the people talking nearby (`TurnCandidates`); the other lines of its quote follow it.
    /// Returns the choices weighed, by the index their line's segment will have.
    private static func reconsiderTurns(_ pieces: inout [Piece], text: AnalysisText, tokens: [Token], entities: [Entity],
                                        genders: [Gender]) -> [Int: TurnCandidates.Choice] {
        let dialogue = pieces.indices.filter { pieces[$0].kind == .dialogue }
        let lines = dialogue.enumerated().map { n, index in
            let piece = pieces[index]
            return TurnCandidates.Line(start: piece.start, end: piece.end, entity: piece.entity, evidence: piece.evidence,
                                       opensQuote: n == 0 || pieces[dialogue[n - 1]].quote != piece.quote)
        }
        let choices = TurnCandidates(lines: lines, text: text, tokens: tokens, entities: entities, genders: genders).choices()
        var spoken = Array(repeating: 0, count: entities.count)
        for line in lines where line.entity >= 0 { spoken[line.entity] += 1 }
        var bySegment: [Int: TurnCandidates.Choice] = [:]
        for choice in choices {
            // A piece's index is its segment's: narration runs are merged as pieces are made.
            bySegment[dialogue[choice.line]] = choice
            guard let chances = TurnCandidates.probabilities(choice),
                  var best = chances.indices.filter({ choice.allowed($0) }).max(by: { chances[$0] < chances[$1] }) else { continue }
            let ruled = pieces[dialogue[choice.line]].entity
            let quoteLines = (choice.line..<dialogue.count).prefix { $0 == choice.line || !lines[$0].opensQuote }
            // The model never takes a speaker's last lines: someone the rules heard once stays in
            // the cast (the model prefers the people who talk most).
            if choice.candidates[best] != ruled && spoken[ruled] <= quoteLines.count { best = choice.candidates.firstIndex(of: ruled)! }
            spoken[ruled] -= quoteLines.count
            spoken[choice.candidates[best]] += quoteLines.count
            for n in quoteLines {
                pieces[dialogue[n]].entity = choice.candidates[best]
                pieces[dialogue[n]].turnProbability = chances[best]
                pieces[dialogue[n]].movedByModel = choice.candidates[best] != ruled
            }
        }
        return bySegment
    }

    /// Each dialogue piece's evidence and, unless it is a play script's `NAME:` or has no
    /// speaker, its features for the learned confidence.
    private static func explain(_ pieces: [Piece], text: AnalysisText, quotes: [QuoteSpan], entities: [Entity],
                                estimates: [GenderAgeInference.Estimate], lines: [Int]) -> [(AttributionEvidence, LineFeatures?)] {
        let allLines = lines.reduce(0, +)
        let speaking = entities.indices.filter { lines[$0] > 0 }
        func shared(_ name: (Entity) -> String?) -> Set<String> {
            var counts: [String: Int] = [:]
            for e in speaking { if let n = name(entities[e]) { counts[n, default: 0] += 1 } }
            return Set(counts.filter { $0.value > 1 }.keys)
        }
        let sharedSurnames = shared(\.surname), sharedGivenNames = shared(\.givenName)
        var quotesInParagraph: [Int: Int] = [:]
        for quote in quotes { quotesInParagraph[quote.paragraph, default: 0] += 1 }
        let dialogue = pieces.filter { $0.kind == .dialogue }
        let tagDistance = distancesToTags(dialogue)
        return dialogue.indices.map { index in
            let piece = dialogue[index]
            guard piece.evidence != .script, piece.entity >= 0 else { return (piece.evidence, nil) }
            let entity = entities[piece.entity]
            // The neighbours are the lines of other quotes: a quote cut in two speaks once.
            let previous = dialogue[..<index].last { $0.quote != piece.quote }
            let following = dialogue[(index + 1)...].first { $0.quote != piece.quote }
            var words = 0, inWord = false
            for offset in piece.start..<piece.end {
                let letter = ScalarClass.isLetter(text.codes[offset])
                if letter && !inWord { words += 1 }
                inWord = letter
            }
            let context = LineFeatures.Context(
                evidence: piece.evidence, entity: entity, estimate: estimates[piece.entity],
                lines: lines[piece.entity], allLines: allLines, speakers: speaking.count,
                sharesSurname: entity.surname.map(sharedSurnames.contains) ?? false,
                sharesGivenName: entity.givenName.map(sharedGivenNames.contains) ?? false,
                words: words, quotesInParagraph: quotesInParagraph[quotes[piece.quote].paragraph] ?? 1,
                sameAsPrevious: previous?.entity == piece.entity, sameAsNext: following?.entity == piece.entity,
                beforeFirstMention: piece.start < entity.firstPosition,
                turnProbability: piece.turnProbability, movedByModel: piece.movedByModel,
                tagDistance: tagDistance[index],
                nearbySpeakers: Set(dialogue[max(0, index - 4)..<min(dialogue.count, index + 5)].map(\.entity)).count,
                alternates: index >= 2 && dialogue[index - 2].entity == piece.entity && dialogue[index - 1].entity != piece.entity)
            return (piece.evidence, LineFeatures(context))
        }
    }

    /// For each dialogue piece, the lines to the nearest piece a tag attributes (16 at most).
    private static func distancesToTags(_ dialogue: [Piece]) -> [Int] {
        let cap = 16
        var distance = dialogue.map { $0.evidence >= .pronounTagClose ? 0 : cap }
        for i in distance.indices.dropFirst() { distance[i] = min(distance[i], distance[i - 1] + 1) }
        for i in distance.indices.reversed().dropFirst() { distance[i] = min(distance[i], distance[i + 1] + 1) }
        return distance
    }
}

/// The gaps between the paragraphs a quote runs over: `[end of one paragraph, start of the next)`.
/// A paragraph set off from the text (a verse the speaker recites) is part of a gap: recited
/// text, like a letter read out, is not the speaker's own line.
func paragraphBreaks(in quote: QuoteSpan, text: AnalysisText) -> [Range<Int>] {
    guard quote.lastParagraph > quote.paragraph else { return [] }
    var gaps: [Range<Int>] = []
    var gapStart = text.paragraphs[quote.paragraph].upperBound
    for p in (quote.paragraph + 1)...quote.lastParagraph {
        let range = text.paragraphs[p]
        if text.isSetOff(p) {
            if p == quote.lastParagraph { gaps.append(gapStart..<max(range.upperBound, quote.end)) }
            continue
        }
        gaps.append(gapStart..<range.lowerBound)
        gapStart = range.upperBound
    }
    return gaps
}

/// Where a speech that quotes someone else is cut into segments. Only a nested quotation that
/// is itself speech (`'Oh!' said he`, `I said, 'Give me a native born at least.'`) cuts: the
/// speaker's own words on either side are separate lines (how quotations are counted). A
/// quoted word, term or title (`my poor word 'success,'`, `to recite 'The Maiden's Vow'`)
/// stays inside the line. A nested quotation joins the longer stretch of speech beside it when
/// it is no longer than that stretch; a longer one (a story told inside a speech) is a
/// segment of its own, so the short words around it (`said I,`) stay lines of their own.
func nestedQuotationCuts(in quote: QuoteSpan, text: AnalysisText) -> [Int] {
    let nested = QuoteFinder(text: text).nestedQuotations(in: quote).filter {
        isQuotedSpeech($0, in: quote, text: text)
    }
    guard !nested.isEmpty else { return [] }
    func hasLetters(_ range: Range<Int>) -> Bool { range.contains { ScalarClass.isLetter(text.codes[$0]) } }
    var cuts: [Int] = []
    // The speech around a nested quotation is counted within its paragraph: a speech that runs
    // on into later paragraphs is cut at their breaks anyway.
    func paragraph(of i: Int) -> Range<Int> {
        (quote.paragraph...quote.lastParagraph).lazy.map { text.paragraphs[$0] }.first { $0.contains(i) }
            ?? quote.start..<quote.end
    }
    for (k, inner) in nested.enumerated() {
        let bounds = paragraph(of: inner.lowerBound)
        let before = max(k == 0 ? quote.start : nested[k - 1].upperBound, bounds.lowerBound)..<inner.lowerBound
        let after = inner.upperBound..<min(k + 1 < nested.count ? nested[k + 1].lowerBound : quote.end, bounds.upperBound)
        guard hasLetters(before), hasLetters(after) else { continue }
        let longer = max(before.count, after.count)
        if inner.count > longer {
            cuts.append(inner.lowerBound)
            cuts.append(inner.upperBound)
        } else {
            cuts.append(before.count >= after.count ? inner.upperBound : inner.lowerBound)
        }
    }
    return cuts
}

/// Words of a stretch of text, lower-cased, with whether each was capitalised.
private func words(_ text: AnalysisText, _ range: Range<Int>) -> [(word: String, capitalised: Bool)] {
    var result: [(String, Bool)] = []
    var current = String.UnicodeScalarView(), capital = false
    func flush() { if !current.isEmpty { result.append((String(current), capital)); current = String.UnicodeScalarView() } }
    for index in range {
        let c = text.codes[index]
        if ScalarClass.isLetter(c) || (!current.isEmpty && (c == 39 || c == 45)) {
            if current.isEmpty { capital = ScalarClass.isUpper(c) }
            current.append(Unicode.Scalar(ScalarClass.lowercased(c)) ?? " ")
        } else { flush() }
    }
    flush()
    return result
}

/// Whether a quotation nested in a speech is speech (or a quoted line) itself: a speech verb
/// right after it (`'Oh!' said he`), an exclamation or question, three or more words after a speech verb (`I said, 'Give
/// me ...'`), a sentence of three or more words or any phrase of five that is not a title
/// (`'Are you there?'`, `'all her bright hair streaming down'`, but not `'The Battle of
/// Hohenlinden'`: short, one phrase, content words capitalised). Single words and short
/// phrases (`'yes'`, `'the picture of health'`) are terms and stay inside the line.
private func isQuotedSpeech(_ inner: Range<Int>, in quote: QuoteSpan, text: AnalysisText) -> Bool {
    let inside = words(text, (inner.lowerBound + 1)..<(inner.upperBound - 1))
    let following = words(text, inner.upperBound..<min(quote.end, inner.upperBound + 40)).prefix(5)
    if following.contains(where: { Lexicon.speechVerbs.contains($0.word) || $0.word == "say" }) { return true }
    // An exclamation or a question is said (`I said 'Never!' flat to that`).
    let last = text.codes[inner.upperBound - 2]
    if last == 33 || last == 63 { return true }
    guard inside.count >= 3 else { return false }
    let preceding = words(text, max(quote.start, inner.lowerBound - 40)..<inner.lowerBound).suffix(3)
    if let last = preceding.last, Lexicon.namingWords.contains(last.word) { return false }
    if preceding.contains(where: { Lexicon.speechVerbs.contains($0.word) || $0.word == "say" }) { return true }
    // A title is short, one phrase, its content words capitalised.
    let innerText = (inner.lowerBound + 1)..<(inner.upperBound - 2)
    let sentences = innerText.contains { [46, 33, 63, 59].contains(text.codes[$0]) }
    let content = inside.dropFirst().filter { $0.word.count >= 4 }
    let capitalised = content.filter(\.capitalised).count
    let title = !sentences && inside.count <= 8 && !content.isEmpty && capitalised * 2 >= content.count
    if title { return false }
    return inside[0].capitalised || inside.count >= 5
}

/// Parenthesised stage directions inside a quote: `(smiling,)`, `(in a low voice)` — an
/// opening parenthesis followed by a lower-case word, closed before the quote ends — and
/// footnote references (`[2]`).
func asides(in quote: QuoteSpan, text: AnalysisText) -> [Range<Int>] {
    var result: [Range<Int>] = []
    var i = quote.start + 1
    while i < quote.end - 1 {
        // A footnote reference (`hearth.[2]`) is the editor's, not the speaker's.
        if text.codes[i] == 91 {
            var j = i + 1
            while j < quote.end - 1, ScalarClass.isDigit(text.codes[j]) { j += 1 }
            if j > i + 1, j < quote.end - 1, text.codes[j] == 93 {
                result.append(i..<(j + 1))
                i = j + 1
                continue
            }
        }
        if text.codes[i] == 40, i + 1 < quote.end, ScalarClass.isLetter(text.codes[i + 1]), !ScalarClass.isUpper(text.codes[i + 1]) {
            var j = i + 1
            while j < quote.end - 1, text.codes[j] != 41, text.codes[j] != 40 { j += 1 }
            if j < quote.end - 1, text.codes[j] == 41, isStageDirection(text, (i + 1)..<j) {
                result.append(i..<(j + 1))
                i = j + 1
                continue
            }
        }
        i += 1
    }
    return result
}

/// "(smiling,)", "(in a tone of wonder)", "(turning to Emma,)", "(rather hesitatingly)", "(his
/// voice was beginning to tremble)" describe the speaker; "(which, I own, is odd)", "(the larger
/// suite)", "(for she does not appear to think it necessary)" or "(certainly _some_,)" are the
/// speaker's own aside: a clause joined to the speech, a present tense, a hedge.
private func isStageDirection(_ text: AnalysisText, _ range: Range<Int>) -> Bool {
    var words: [String] = []
    var current = ""
    for index in range {
        let c = text.codes[index]
        if ScalarClass.isLetter(c) || ScalarClass.isApostrophe(c) {
            current.unicodeScalars.append(Unicode.Scalar(ScalarClass.lowercased(c)) ?? " ")
        } else if !current.isEmpty { words.append(current); current = "" }
    }
    if !current.isEmpty { words.append(current) }
    guard let first = words.first else { return false }
    let speakerWords: Set<String> = ["i", "me", "my", "we", "us", "our", "you", "your"]
    if words.contains(where: speakerWords.contains) { return false }
    if asideOpeners.contains(first) || words.contains(where: presentTense.contains) { return false }
    if hedges.contains(first) { return false }
    if first.hasSuffix("ing") || first.hasSuffix("ly") || ["in", "with", "to", "aside", "after", "then", "still", "half"].contains(first) { return true }
    // "(rather hesitatingly)", "(very gravely)": a manner adverb after a degree word.
    if words.count <= 3, let last = words.last, last.hasSuffix("ly"), !hedges.contains(last) { return true }
    return words.contains { Lexicon.malePronouns.contains($0) || Lexicon.femalePronouns.contains($0) }
}

/// Words that join a parenthesis to the speech around it as the speaker's own clause.
private let asideOpeners: Set<String> = [
    "which", "who", "whom", "whose", "though", "although", "for", "and", "but", "or", "nor", "as", "since", "because",
    "if", "unless", "that", "so", "than", "where", "when", "while",
]
/// A present tense is the speaker's time, not the narrator's.
private let presentTense: Set<String> = ["is", "are", "am", "has", "have", "does", "do", "says", "isn't", "aren't", "doesn't", "don't"]
/// Adverbs in -ly that qualify what is said rather than how it is said.
private let hedges: Set<String> = [
    "certainly", "probably", "possibly", "surely", "really", "only", "merely", "nearly", "hardly", "scarcely", "simply",
    "truly", "actually", "exactly", "particularly", "especially", "likely", "generally", "usually", "entirely", "partly",
    "chiefly", "mostly", "naturally", "apparently", "evidently", "obviously", "clearly", "perhaps",
]
