import StoryModel

/// A stand-in for the offline analyzer, for tests and benchmarks of the language-model layer
/// when the real one is not at hand: quotes become dialogue segments, and each gets a
/// speaker and a confidence from the kind of evidence a heuristic analyzer would use (the
/// bands match StoryText's: a named speech tag 0.95, a second quote in a tagged paragraph
/// 0.85, a pronoun tag 0.8, a name in the paragraph 0.65, a name spoken to inside the
/// quotation 0.6, turn-taking 0.5).
public enum SyntheticAnalysis {
    static let speechVerbs = ["said", "cried", "replied", "asked", "answered", "continued", "added", "exclaimed", "returned", "observed", "whispered", "resumed", "repeated", "began", "called"]
    static let pronouns = ["he", "she", "they", "I"]

    public static func make(title: String, text: String, characters: [Character]) -> StoryAnalysis {
        let scalars = ScalarText(text)
        let chapters = chapterHeadings(in: scalars)
        var segments: [Segment] = []
        var cursor = 0
        var lastSpeakers: [String] = []
        for paragraph in paragraphs(in: scalars) {
            let quotes = quoteSpans(in: scalars, paragraph: paragraph)
            guard !quotes.isEmpty else { continue }
            let outside = narrationText(scalars, paragraph: paragraph, quotes: quotes)
            let tagged = namedTag(outside, characters: characters)
            let pronounTagged = tagged == nil && hasPronounTag(outside)
            let mentioned = characters.first { character in ([character.name] + character.aliases).contains { outside.contains($0) } }
            for (position, quote) in quotes.enumerated() {
                if quote.lowerBound > cursor { segments.append(Segment(start: cursor, end: quote.lowerBound, kind: .narration)) }
                let speaker: String?
                let confidence: Double
                if let tagged {
                    speaker = tagged.id
                    confidence = position == 0 ? 0.95 : 0.85
                } else if pronounTagged {
                    speaker = lastSpeakers.dropLast().last ?? characters.first?.id
                    confidence = 0.8
                } else if let mentioned {
                    speaker = mentioned.id
                    confidence = 0.65
                } else if let addressee = addressed(scalars.string(quote.lowerBound, quote.upperBound), characters: characters) {
                    // Someone named inside the quotation is spoken to, so the other party speaks.
                    speaker = lastSpeakers.last(where: { $0 != addressee.id }) ?? characters.first { $0.id != addressee.id }?.id
                    confidence = 0.6
                } else {
                    speaker = lastSpeakers.dropLast().last ?? characters.first?.id
                    confidence = 0.5
                }
                segments.append(Segment(start: quote.lowerBound, end: quote.upperBound, kind: .dialogue, speaker: speaker, confidence: confidence))
                if let speaker, lastSpeakers.last != speaker { lastSpeakers.append(speaker) }
                cursor = quote.upperBound
            }
        }
        if cursor < scalars.count { segments.append(Segment(start: cursor, end: scalars.count, kind: .narration)) }
        var cast = characters
        for index in cast.indices {
            cast[index].lines = segments.filter { $0.speaker == cast[index].id }.count
        }
        return StoryAnalysis(title: title, characters: cast, chapters: chapters, segments: segments)
    }

    /// Chapters start at lines beginning with "CHAPTER" (or "Chapter").
    static func chapterHeadings(in text: ScalarText) -> [Chapter] {
        var starts: [(Int, String)] = []
        var lineStart = 0
        for offset in 0...text.count {
            if offset == text.count || text[offset] == "\n" {
                let line = text.string(lineStart, offset)
                if line.hasPrefix("CHAPTER") || line.hasPrefix("Chapter ") { starts.append((lineStart, line)) }
                lineStart = offset + 1
            }
        }
        return starts.enumerated().map { index, start in
            Chapter(title: start.1, start: start.0, end: index + 1 < starts.count ? starts[index + 1].0 : text.count)
        }
    }

    /// Paragraphs: runs of text separated by blank lines.
    static func paragraphs(in text: ScalarText) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var start = 0
        var offset = 0
        while offset < text.count {
            if text[offset] == "\n", offset + 1 < text.count, text[offset + 1] == "\n" {
                if offset > start { result.append(start..<offset) }
                while offset < text.count, text[offset] == "\n" { offset += 1 }
                start = offset
                continue
            }
            offset += 1
        }
        if start < text.count { result.append(start..<text.count) }
        return result
    }

    /// Quotations in a paragraph, quote marks included; an unclosed one runs to the paragraph's end.
    static func quoteSpans(in text: ScalarText, paragraph: Range<Int>) -> [Range<Int>] {
        var spans: [Range<Int>] = []
        var open: Int?
        for offset in paragraph {
            let scalar = text[offset]
            if scalar == "\"" || scalar == "\u{201C}" || scalar == "\u{201D}" {
                if let start = open, scalar != "\u{201C}" {
                    spans.append(start..<(offset + 1))
                    open = nil
                } else if open == nil {
                    open = offset
                }
            }
        }
        if let start = open { spans.append(start..<paragraph.upperBound) }
        return spans
    }

    static func narrationText(_ text: ScalarText, paragraph: Range<Int>, quotes: [Range<Int>]) -> String {
        var result = ""
        var cursor = paragraph.lowerBound
        for quote in quotes {
            result += text.string(cursor, quote.lowerBound) + " "
            cursor = quote.upperBound
        }
        return result + text.string(cursor, paragraph.upperBound)
    }

    static func namedTag(_ narration: String, characters: [Character]) -> Character? {
        let lower = narration.lowercased()
        for verb in speechVerbs where lower.contains(verb) {
            for character in characters {
                for name in [character.name] + character.aliases where narration.contains("\(verb) \(name)") || narration.contains("\(name) \(verb)") {
                    return character
                }
            }
        }
        return nil
    }

    static func addressed(_ quotation: String, characters: [Character]) -> Character? {
        characters.first { character in ([character.name] + character.aliases).contains { $0.count > 2 && quotation.contains($0) } }
    }

    static func hasPronounTag(_ narration: String) -> Bool {
        speechVerbs.contains { verb in pronouns.contains { narration.contains("\(verb) \($0)") || narration.contains("\($0) \(verb)") } }
    }

    /// The PDNC `character_info.csv` roster as StoryModel characters (`c1`, `c2`, ...).
    public static func roster(fromCharacterInfoCSV csv: String) -> [Character] {
        var characters: [Character] = []
        for line in csv.split(separator: "\n").dropFirst() {
            guard let openBrace = line.firstIndex(of: "{"), let closeBrace = line.lastIndex(of: "}") else { continue }
            let head = line[..<openBrace].split(separator: ",")
            guard head.count >= 2 else { continue }
            let name = String(head[1]).stripping("\" ")
            let aliases = line[line.index(after: openBrace)..<closeBrace].split(separator: ",").map {
                String($0).stripping("' \"")
            }.filter { !$0.isEmpty }
            let tail = line[line.index(after: closeBrace)...].split(separator: ",")
            let gender: Gender = tail.count >= 2 ? (tail[1] == "F" ? .female : tail[1] == "M" ? .male : .unknown) : .unknown
            characters.append(Character(id: "c\(characters.count + 1)", name: name, aliases: aliases, gender: gender))
        }
        return characters
    }
}

extension String {
    fileprivate func stripping(_ set: String) -> String {
        var view = Substring(self)
        while let first = view.first, set.contains(first) { view.removeFirst() }
        while let last = view.last, set.contains(last) { view.removeLast() }
        return String(view)
    }
}
