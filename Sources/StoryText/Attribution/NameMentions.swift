/// A run of tokens that names someone: an optional title and up to three capitalised name words.
struct NameMention: Sendable {
    var firstToken: Int
    /// One past the last token.
    var endToken: Int
    /// Canonical title ("mr", "miss", "aunt", ...), if one leads the name.
    var title: String?
    /// Lowercased name words, without the title.
    var words: [String]
    /// The text as written, for display.
    var surface: String
    var inQuote: Bool
    /// `the General`: a title used alone as a role.
    var isRoleTitle: Bool
}

/// Finds name mentions using corpus statistics: a word counts as a name word when it is
/// capitalised away from sentence starts and (almost) never appears in lower case.
struct NameMentionFinder {
    let text: AnalysisText
    let tokens: [Token]

    /// Titles spelled differently that mean the same.
    static func canonicalTitle(_ word: String) -> String {
        switch word {
        case "mister": return "mr"
        case "mme": return "madame"
        case "mlle": return "mademoiselle"
        case "doctor": return "dr"
        case "capt": return "captain"
        case "col": return "colonel"
        case "gen": return "general"
        case "lt": return "lieutenant"
        case "prof": return "professor"
        case "rev": return "reverend"
        case "m": return "monsieur"
        default: return word
        }
    }

    /// Titles that, written alone in narration, stand for the one character who bears them.
    static let bareTitles: Set<String> = ["mademoiselle", "madame", "monsieur", "dr", "captain", "colonel", "major", "professor", "judge", "aunt", "uncle", "grandma", "granny", "grandpa"]

    static let particles: Set<String> = ["de", "du", "des", "von", "van", "der", "da", "di", "del", "della", "le", "la"]

    /// Titles that may stand alone as a role ("the General", "the Doctor").
    static let roleTitles: Set<String> = Set(["general", "colonel", "captain", "major", "doctor", "dr", "professor", "count", "countess", "baron", "baroness",
                                              "prince", "princess", "king", "queen", "judge", "marquis", "duke", "duchess"] + Lexicon.ranks)

    /// Titles a peer or a ruler takes with a place: "the Duke of Omnium", "the Prince of Wales".
    static let territorialTitles: Set<String> = ["lord", "lady", "king", "queen", "prince", "princess", "count", "countess", "duke", "duchess", "earl", "marquis", "baron", "baroness"]

    /// "The Doctor's" is written for the Doctor: the display form drops the possessive.
    private func withoutPossessive(_ surface: String, _ last: Token) -> String {
        guard last.isPossessive, surface.hasSuffix("'s") || surface.hasSuffix("\u{2019}s") || surface.hasSuffix(" s") else { return surface }
        return String(surface.dropLast(2))
    }

    /// A mention's text as displayed: on one line, without a possessive.
    private func surface(_ range: Range<Int>) -> String {
        let last = tokens[range.upperBound - 1]
        return withoutPossessive(text.string(tokens[range.lowerBound].start..<last.end), last)
            .split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }).joined(separator: " ")
    }

    /// Prepositions whose object is where someone goes or is ("to Shrewsbury", "from Bath").
    static let placePrepositions: Set<String> = ["to", "from", "at", "in", "into", "near", "towards", "toward", "through", "across", "via"]

    /// The nouns of a street's name ("Boulevard Raspail", "Rue Saint-Honoré", "Unter den Linden" aside).
    static let streetNouns: Set<String> = ["boulevard", "avenue", "rue", "quai", "platz", "strasse", "straße", "piazza", "plaza", "calle"]

    /// Titles a place's name takes ("St. Petersburg", "Saint-Etienne"); any other title makes a person.
    static let placeTitles: Set<String> = ["st", "saint"]

    /// "St. Jean", "Saint Louis": the token at `index` follows a place's title.
    private func afterPlaceTitle(_ index: Int) -> Bool {
        guard index >= 1 else { return false }
        if Self.placeTitles.contains(tokens[index - 1].lower) { return true }
        return index >= 2 && tokens[index - 1].lower == "." && Self.placeTitles.contains(tokens[index - 2].lower)
    }

    /// Name words, and those of them that are also common words ("Rose", "Hall", "May"): those
    /// count as names only inside a sentence, never at its start ("Rose from her chair"). `personal`:
    /// words the text uses as only a person's name is used (after a person's title or a given name,
    /// beside a speech verb, called in a quote).
    func nameWords() -> (names: Set<String>, wordLike: Set<String>, personal: Set<String>) {
        var capitalisedInside: [String: Int] = [:]
        var lowercase: [String: Int] = [:]
        var tagged: Set<String> = []
        // Uses that only a name has: after a title ("Miss Rose") or beside a speech verb inside
        // a sentence ("said Rose"); two of them make a name of a word that is also a common word.
        var evidence: [String: Int] = [:]
        var personal: Set<String> = [], called: [String: Int] = [:]
        // "said Sunday": a day or month beside a speech verb, three times or more, is a person's name.
        var calendarTags: [String: Int] = [:]
        // "Mrs. Hall" twice or more: then "said Hall" is a person too.
        var titledPlaceNouns: [String: Int] = [:]
        for (index, token) in tokens.enumerated() where token.isWord && token.isCapitalized && token.quote < 0 {
            // Next to a speech verb ("said Anne", "Anne said") a capitalised word is a name.
            let before = index > 0 ? tokens[index - 1].lower : "", after = index + 1 < tokens.count ? tokens[index + 1].lower : ""
            // "the journey to Shrewsbury confirmed this": a word after "to" or "from" is the
            // preposition's object, not the verb's subject.
            // "My name is Ishmael", "Call me Ishmael": a name, though the narrator's own is seldom written.
            let introduced = index >= 3 && tokens[index - 3].lower == "my" && tokens[index - 2].lower == "name"
                && ["is", "was"].contains(tokens[index - 1].lower) || index >= 2 && tokens[index - 2].lower == "call" && before == "me"
            if Lexicon.speechVerbs.contains(before) || Lexicon.speechVerbs.contains(after) && !Self.placePrepositions.contains(before) || introduced {
                tagged.insert(token.lower)
                if Lexicon.calendarWords.contains(token.lower) { calendarTags[token.lower, default: 0] += 1 }
            }
            guard !token.sentenceInitial else { continue }
            let titled = index > 0 && (Lexicon.honorifics[before] != nil || before == "." && index > 1 && Lexicon.abbreviations.contains(tokens[index - 2].lower))
            // "Harvey Stone": a capitalised word after a given name is a surname.
            let surname = index > 0 && tokens[index - 1].isCapitalized && FirstNames.isGivenName(before)
            // "Lady Catherine de Bourgh", "Mr. van der Berg": after particles that follow a given name or
            // a title (not "Rue de Rivoli").
            var p = index - 1
            while p >= 0, index - p <= 2, Self.particles.contains(tokens[p].lower), !tokens[p].isCapitalized { p -= 1 }
            let particled = p >= 0 && p < index - 1 && tokens[p].isCapitalized
                && (Lexicon.honorifics[tokens[p].lower] != nil || FirstNames.isGivenName(tokens[p].lower) && !afterPlaceTitle(p))
                || p >= 1 && p < index - 1 && tokens[p].lower == "." && Lexicon.abbreviations.contains(tokens[p - 1].lower)
            if titled || surname || particled || Lexicon.speechVerbs.contains(before) { evidence[token.lower, default: 0] += 1 }
            let placeTitle = Self.placeTitles.contains(before) || before == "." && index > 1 && Self.placeTitles.contains(tokens[index - 2].lower)
            if (titled && !placeTitle) || surname || particled { personal.insert(token.lower) }
            if titled, !placeTitle, Lexicon.placeNouns.contains(token.lower) { titledPlaceNouns[token.lower, default: 0] += 1 }
        }
        // "Did she say any more, Anny dear?": a capitalised word called with an endearment is a name;
        // "Look out now, Five!": one called alone is evidence of one, as a title is.
        for index in tokens.indices.dropFirst().dropLast() where tokens[index].isCapitalized && tokens[index].quote >= 0 {
            guard tokens[index - 1].lower == ",", !tokens[index].sentenceInitial else { continue }
            if Lexicon.endearments.contains(tokens[index + 1].lower) { tagged.insert(tokens[index].lower) }
            if ["!", "?"].contains(tokens[index + 1].lower) { evidence[tokens[index].lower, default: 0] += 1; called[tokens[index].lower, default: 0] += 1 }
        }
        // Called twice: once may be a question about the place ("For Tibby, Oxford?").
        personal.formUnion(tagged.union(called.filter { $0.value >= 2 }.keys))
        for token in tokens where token.isWord {
            if token.isCapitalized {
                if token.lower.count > 1, token.end - token.start == token.lower.unicodeScalars.count,
                   (token.start..<token.end).allSatisfy({ ScalarClass.isUpper(text.codes[$0]) }) { continue }
                if !token.sentenceInitial { capitalisedInside[token.lower, default: 0] += 1 }
            } else {
                lowercase[token.lower, default: 0] += 1
            }
        }
        // "Howards End", "Wickham Place": a word nearly always written before the same capitalised
        // common word is part of a place's name, not a person's.
        var followers: [String: [String: Int]] = [:]
        for index in tokens.indices.dropLast() {
            let token = tokens[index], next = tokens[index + 1]
            guard token.isWord, token.isCapitalized, !token.sentenceInitial, next.isWord, next.isCapitalized, !next.sentenceInitial,
                  next.paragraph == token.paragraph, !token.isPossessive else { continue }
            followers[token.lower, default: [:]][next.lower, default: 0] += 1
        }
        // "Boulevard Montparnasse", "Rue de Rivoli": the word after a street's noun names the street.
        var afterStreet: [String: Int] = [:]
        for index in tokens.indices.dropLast() where Self.streetNouns.contains(tokens[index].lower) && tokens[index].isCapitalized {
            var next = index + 1
            if next + 1 < tokens.count, Self.particles.contains(tokens[next].lower) { next += 1 }
            if tokens[next].isWord, tokens[next].isCapitalized, tokens[next].paragraph == tokens[index].paragraph { afterStreet[tokens[next].lower, default: 0] += 1 }
        }
        func isPlacePart(_ word: String, count: Int) -> Bool {
            if let street = afterStreet[word], street * 2 >= count, !personal.contains(word) { return true }
            // "Harvey Stone" is a person: a given name is never part of a place's name here.
            guard !FirstNames.isGivenName(word), let (next, together) = followers[word]?.max(by: { $0.value < $1.value }), together >= 2, together * 3 >= count * 2 else { return false }
            return Lexicon.notNames.contains(next) || lowercase[next, default: 0] * 4 > capitalisedInside[next, default: 0]
        }
        // "Sydney Carton": a place's name written before a surname (a word written capitalised only,
        // no place, the two together no place either: "Nova Scotia") is a given name there.
        for (word, nexts) in followers where PlaceNames.contains(word) {
            if nexts.keys.contains(where: { next in
                lowercase[next, default: 0] * 4 <= capitalisedInside[next, default: 0] && !Lexicon.notNames.contains(next)
                    && !PlaceNames.contains(next) && !PlaceNames.contains(word + " " + next)
            }) { personal.insert(word) }
        }
        // "Bath", "Kingston", "Vienna": a place's name the text never uses as a person's is no name word.
        func isPlace(_ word: String) -> Bool { PlaceNames.contains(word) && !FirstNames.isGivenName(word) && !personal.contains(word) }
        var result: Set<String> = [], wordLike: Set<String> = []
        // Once is enough for a word after a title or a given name ("introduced him as Robert Prentiss").
        for (word, count) in capitalisedInside where count >= 2 || tagged.contains(word) || FirstNames.isGivenName(word) || evidence[word] != nil {
            guard word.count > 1, !Lexicon.notNames.contains(word), !Self.streetNouns.contains(word), Lexicon.honorifics[word] == nil else { continue }
            guard !isPlacePart(word, count: count), !isPlace(word) else { continue }
            guard let first = word.unicodeScalars.first, first.properties.isAlphabetic else { continue }
            // Beside a speech verb ("said Seven") a word written in lower case now and then is still a name.
            if lowercase[word, default: 0] * (tagged.contains(word) ? 2 : 4) <= count { result.insert(word) }
            else if evidence[word, default: 0] >= 2 { result.insert(word); wordLike.insert(word) }
        }
        // Known given names count even when they only open sentences ("Anne flushed.").
        for token in tokens where token.isWord && token.isCapitalized && token.sentenceInitial && lowercase[token.lower] == nil {
            guard token.lower.count > 1, !Lexicon.notNames.contains(token.lower), Lexicon.honorifics[token.lower] == nil,
                  !Lexicon.speechVerbs.contains(token.lower), !isPlacePart(token.lower, count: capitalisedInside[token.lower, default: 0]),
                  !isPlace(token.lower) else { continue }
            if FirstNames.isGivenName(token.lower) || tagged.contains(token.lower) { result.insert(token.lower) }
        }
        for (word, count) in titledPlaceNouns where count >= 2 {
            result.insert(word)
            wordLike.insert(word)
        }
        for (word, count) in calendarTags where count >= 3 {
            result.insert(word)
            wordLike.insert(word)
            personal.insert(word)
        }
        return (result, wordLike, personal)
    }

    /// "St. Petersburg", "Nova Scotia", "San Sebastian": a mention with no person's title whose words
    /// make a place's name, none of them used as a person's, and the first no given name unless a
    /// saint's title leads ("St. Louis"; then the text must never call or tag a "St." someone).
    static func isPlace(title: String?, words: [String], personal: Set<String>) -> Bool {
        guard let first = words.first, !words.contains(where: personal.contains) else { return false }
        let name = words.joined(separator: " ")
        guard let title else { return !FirstNames.isGivenName(first) && PlaceNames.contains(name) }
        guard placeTitles.contains(title), !personal.contains("st"), !personal.contains("saint") else { return false }
        return PlaceNames.contains("saint " + name) || PlaceNames.contains("st " + name)
    }

    /// Name words the text joins with "and" ("Martha and Potapitch") more often than it writes
    /// them side by side: two people, so never one full name where a slip of the text writes
    /// them together once ("Potapitch and Martha Potapitch in his frockcoat"). A real full name
    /// is written together far more often than coordinated ("Jane Fairfax").
    func coordinatedPairs(_ nameWords: Set<String>) -> Set<[String]> {
        var coordinated: [[String]: Int] = [:], adjacent: [[String]: Int] = [:]
        guard tokens.count >= 3 else { return [] }
        func isName(_ t: Token) -> Bool { t.isWord && t.isCapitalized && nameWords.contains(t.lower) }
        for index in 1..<(tokens.count - 1) {
            let a = tokens[index - 1], b = tokens[index], c = tokens[index + 1]
            if isName(a), isName(b), !a.isPossessive, a.paragraph == b.paragraph { adjacent[[a.lower, b.lower], default: 0] += 1 }
            guard b.lower == "and", isName(a), isName(c), !a.isPossessive, a.lower != c.lower else { continue }
            coordinated[[a.lower, c.lower], default: 0] += 1
            coordinated[[c.lower, a.lower], default: 0] += 1
        }
        return Set(coordinated.filter { adjacent[$0.key, default: 0] <= $0.value }.keys)
    }

    /// "the Churchills", "the Mr. Knightleys", "the Bateses": a surname made plural after "the"
    /// names a family, never one speaker, so it is no mention (nor a pronoun's antecedent).
    func isFamilyPlural(first: Int, words: [String], nameWords: Set<String>) -> Bool {
        guard first > 0, tokens[first - 1].lower == "the", let last = words.last, last.hasSuffix("s"), last.count > 3 else { return false }
        let singular = [String(last.dropLast()), last.hasSuffix("es") ? String(last.dropLast(2)) : nil]
        return singular.contains { $0.map(nameWords.contains) == true }
    }

    /// The end of a run of initials ("E. W. B.") that a name word follows, or nil.
    private func initialsEnd(from start: Int, paragraph: Int, nameWords: Set<String>) -> Int? {
        var k = start
        while k + 2 < tokens.count, tokens[k].isWord, tokens[k].isCapitalized, tokens[k].lower.count == 1, tokens[k].lower != "i",
              tokens[k + 1].lower == ".", tokens[k + 2].paragraph == paragraph {
            k += 2
        }
        guard k > start, k < tokens.count, tokens[k].isWord, tokens[k].isCapitalized, nameWords.contains(tokens[k].lower) else { return nil }
        return k
    }

    /// "by Ernest Hemingway", "Author: Charles Dickens": a paragraph that only names the book's
    /// author names no one in the story.
    func bylineParagraphs() -> Set<Int> {
        var words: [Int: [String]] = [:]
        // "'By whom?' asked Syme." is speech, no byline.
        var spoken: Set<Int> = []
        for token in tokens.prefix(400) where token.isWord || token.lower == ":" {
            if token.quote >= 0 { spoken.insert(token.paragraph) }
            words[token.paragraph, default: []].append(token.lower)
        }
        return Set(words.filter { paragraph, line in
            guard !spoken.contains(paragraph) else { return false }
            guard let first = line.first, ["by", "author"].contains(first), (2...5).contains(line.count) else { return false }
            return first == "by" || line.dropFirst().first == ":"
        }.keys)
    }

    /// The place after a title's "of" ("Duke of Omnium", "Earl of Mount Edgecumbe"): up to two
    /// capitalised words in the title's paragraph and quote; nil when "of" does not follow.
    private func placeOfTitle(after index: Int, in title: Token) -> (words: [String], end: Int)? {
        guard !title.isPossessive, index + 1 < tokens.count, tokens[index].lower == "of" else { return nil }
        var words: [String] = [], end = index + 1
        while end < tokens.count, words.count < 2 {
            let t = tokens[end]
            guard t.isWord, t.isCapitalized, t.quote == title.quote, t.paragraph == title.paragraph, Lexicon.honorifics[t.lower] == nil else { break }
            words.append(t.lower)
            end += 1
            if t.isPossessive { break }
        }
        return words.isEmpty ? nil : (words, end)
    }

    /// One or two particles and the capitalised name word after them, in one paragraph ("de Griers",
    /// "van der Berg"): the surname as one word and the token after it; nil otherwise.
    private func particleSurname(at start: Int, nameWords: Set<String>) -> (word: String, end: Int)? {
        var k = start
        while k < tokens.count, k - start < 2, Self.particles.contains(tokens[k].lower), tokens[k].paragraph == tokens[start].paragraph { k += 1 }
        guard k > start, k < tokens.count, tokens[k].isWord, tokens[k].isCapitalized, nameWords.contains(tokens[k].lower),
              tokens[k].paragraph == tokens[start].paragraph else { return nil }
        return ((start...k).map { tokens[$0].lower }.joined(separator: " "), k + 1)
    }

    /// The words joined to `index` by hyphens with no space between ("Lloyd-Jones",
    /// "Winnie-the-Pooh"): their tokens, the last a capitalised word; nil when none is.
    private func hyphenatedPart(after index: Int) -> ClosedRange<Int>? {
        func joined(_ k: Int) -> Bool { k < tokens.count && tokens[k].start == tokens[k - 1].end && tokens[k].paragraph == tokens[index].paragraph }
        guard joined(index + 1), tokens[index + 1].lower == "-", joined(index + 2) else { return nil }
        var last = index + 2
        // "Winnie-the-Pooh": one lower-case particle between two hyphens.
        if Self.hyphenParticles.contains(tokens[last].lower), !tokens[last].isCapitalized, joined(last + 1), tokens[last + 1].lower == "-", joined(last + 2) {
            last += 2
        }
        let next = tokens[last]
        guard next.isWord, next.isCapitalized, !Lexicon.notNames.contains(next.lower) else { return nil }
        return (index + 1)...last
    }

    private static let hyphenParticles: Set<String> = ["the", "de", "la", "le", "of"]

    private func surnameFollows(_ index: Int, nameWords: Set<String>, wordLike: Set<String>) -> Bool {
        guard index + 1 < tokens.count else { return false }
        let next = tokens[index + 1]
        return next.isWord && next.isCapitalized && next.paragraph == tokens[index].paragraph
            && nameWords.contains(next.lower) && !wordLike.contains(next.lower) && !FirstNames.isGivenName(next.lower)
    }

    func find() -> [NameMention] {
        let (nameWords, wordLike, personal) = nameWords()
        let bylines = bylineParagraphs()
        let coordinated = coordinatedPairs(nameWords)
        var mentions: [NameMention] = []
        var i = 0
        let n = tokens.count
        while i < n {
            let token = tokens[i]
            guard token.isWord, token.isCapitalized || NameMentionFinder.particles.contains(token.lower), !bylines.contains(token.paragraph) else { i += 1; continue }
            // "Rose from her chair", but "May Welland sat": a surname after it makes it a name.
            // So does a speech verb: "'That's true,' Small answered."
            if token.sentenceInitial, wordLike.contains(token.lower), !surnameFollows(i, nameWords: nameWords, wordLike: wordLike),
               !(i + 1 < n && tokens[i + 1].paragraph == token.paragraph && Lexicon.speechVerbs.contains(tokens[i + 1].lower)) { i += 1; continue }
            var j = i
            var title: String?
            if Lexicon.honorifics[token.lower] != nil {
                title = NameMentionFinder.canonicalTitle(token.lower)
                j = i + 1
                // "Mr. Smith", but "the General. Meanwhile": only an abbreviation takes a full stop.
                if j < n, tokens[j].lower == ".", tokens[j].paragraph == token.paragraph, Lexicon.abbreviations.contains(token.lower) { j += 1 }
            }
            var words: [String] = []
            var end = j
            var initials = 0
            // "the Duke of Omnium": one person, named by the title and its place, not "the Duke"
            // beside a second person called "Omnium".
            if let title, Self.territorialTitles.contains(title), let place = placeOfTitle(after: j, in: token) {
                mentions.append(NameMention(firstToken: i, endToken: place.end, title: title, words: place.words, surface: surface(i..<place.end),
                                            inQuote: token.quote >= 0, isRoleTitle: false))
                i = place.end
                continue
            }
            // "the Queen's Croquet-Ground": a title owning something names no one after it.
            while end < n, words.count - initials < 3, title == nil || !token.isPossessive {
                let t = tokens[end]
                // "Lady Catherine de Bourgh", "Mr. van der Berg", "Maxim de Winter": a particle in lower
                // case goes on a name only after a title or a given name ("the Closerie des Lilas" is a café).
                let lowerParticle = !t.isCapitalized && NameMentionFinder.particles.contains(t.lower)
                    && (title.map { !Self.placeTitles.contains($0) } ?? (words.count == 1 && FirstNames.isGivenName(words[0])))
                guard t.isWord, t.isCapitalized || lowerParticle, t.quote == token.quote, t.paragraph == token.paragraph else { break }
                // "Mr. E. W. B. Childers": initials join the name that follows them.
                if let next = initialsEnd(from: end, paragraph: t.paragraph, nameWords: nameWords), title != nil || !words.isEmpty {
                    for k in stride(from: end, to: next, by: 2) { words.append(tokens[k].lower) }
                    initials += (next - end) / 2
                    end = next
                    continue
                }
                if t.lower.count > 1, (t.start..<t.end).allSatisfy({ ScalarClass.isUpper(text.codes[$0]) || !ScalarClass.isLetter(text.codes[$0]) }) { break }
                // "De Griers", "van der Berg": particles join the surname that follows them.
                if let surname = particleSurname(at: end, nameWords: nameWords) {
                    words.append(surname.word)
                    end = surname.end
                    if tokens[end - 1].isPossessive { break }
                    continue
                }
                if lowerParticle { break }
                if let last = words.last, coordinated.contains([last, t.lower]) { break }
                let personTitle = title.map { !Self.placeTitles.contains($0) } ?? false
                let acceptable = nameWords.contains(t.lower) || (title != nil && words.isEmpty && Lexicon.honorifics[t.lower] == nil && t.lower.count > 1
                    && (!Lexicon.notNames.contains(t.lower) || personTitle && Lexicon.placeNouns.contains(t.lower)))
                guard acceptable else { break }
                words.append(t.lower)
                end += 1
                // "Mrs. Lloyd-Jones", "Mary-Ann": a hyphen inside a name joins its parts.
                if !t.isPossessive, let joined = hyphenatedPart(after: end - 1) {
                    words[words.count - 1] += joined.map { tokens[$0].lower }.joined()
                    end = joined.upperBound + 1
                    if tokens[joined.upperBound].isPossessive { break }
                    continue
                }
                if t.isPossessive { break }
            }
            if words.isEmpty {
                if let title, NameMentionFinder.roleTitles.contains(title), i > 0, tokens[i - 1].lower == "the" {
                    mentions.append(NameMention(firstToken: i, endToken: i + 1, title: title, words: [], surface: "The " + withoutPossessive(text.string(token.start..<token.end), token), inQuote: token.quote >= 0, isRoleTitle: true))
                    i += 1
                } else if let title, NameMentionFinder.bareTitles.contains(title), token.quote < 0, i == 0 || tokens[i - 1].lower != "the" {
                    // "said Mademoiselle": a title alone names the character who bears it.
                    mentions.append(NameMention(firstToken: i, endToken: j, title: title, words: [], surface: text.string(token.start..<token.end), inQuote: false, isRoleTitle: false))
                    i = j
                } else {
                    i = max(i + 1, j)
                }
                continue
            }
            if isFamilyPlural(first: i, words: words, nameWords: nameWords) || Self.isPlace(title: title, words: words, personal: personal) { i = end; continue }
            mentions.append(NameMention(firstToken: i, endToken: end, title: title, words: words, surface: surface(i..<end), inQuote: token.quote >= 0, isRoleTitle: false))
            i = end
        }
        return mentions
    }
}
