import StoryModel

/// How a quote's speaker was decided; each kind has a measured reliability (see Confidence).
enum AttributionEvidence: Int, Sendable, Comparable {
    case notSpeech = -1, none = 0, guess, crowdedTurn, fallback, turnTaking, addressee, action, continuation, pronounTagClose, pronounTag, namedTag, script

    static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// The speaker chosen for one quote.
struct Attribution: Sendable {
    var entity: Int = -1
    var evidence: AttributionEvidence = .none
    /// The tag names the speaker by a form that could be someone else too (`AmbiguousTags`).
    var ambiguousName = false
}

extension [Attribution] {
    /// The speaker of the nearest turn of someone else before (`step` −1) or after (+1) quote `q`
    /// (a line in two parts is one turn); nil at the ends and where no one was found.
    func neighbour(of q: Int, step: Int) -> Int? {
        var k = q + step
        while indices.contains(k), self[k].entity == self[q].entity { k += step }
        guard indices.contains(k), self[k].entity >= 0 else { return nil }
        return self[k].entity
    }
}

/// The subject of a speech tag or of an action sentence.
enum TagSubject {
    case entity(Int)
    case pronoun(Gender)
    case narrator
    /// `written`: the description as the tag writes it ("a grey-headed old man", "the pink lady").
    case role(key: String, display: String, gender: Gender, written: String)
    /// "her father", "his wife": a relative of the last person of that gender; the role when
    /// the story names no such relative (`roleGender` is nil when the noun is no role of its own).
    case kin(possessor: Gender, noun: String, roleKey: String, roleGender: Gender?)
    /// "replied the other": the one of two talking who did not speak last.
    case other
}

/// Decides who speaks each quote, in order of evidence: speech tags beside the quote (named,
/// then pronoun), the paragraph's other quotes, the character whose action the paragraph
/// describes, the person addressed in the previous turn, and turn-taking in runs of dialogue.
struct SpeakerAttributor {
    let text: AnalysisText
    let tokens: [Token]
    let quotes: [QuoteSpan]
    let mentions: [NameMention]
    let mentionEntity: [Int]
    let mentionAt: [Int32]
    var entities: [Entity]
    var genders: [Gender]
    /// Quote index → token range inside it.
    let quoteTokens: [Range<Int>]

    private var roleEntity: [String: Int] = [:]
    private(set) var narrator: Int = -1
    /// Narration mentions in text order: (scalar position, entity).
    private var narrationEvents: [(position: Int, entity: Int)]
    /// Token index of each narration event.
    private var narrationEventTokens: [Int]
    /// Mentions in narration per entity (how central a character is).
    private var narrationCounts: [Int]
    /// Entities addressed by vocatives inside each quote.
    private(set) var vocatives: [[Int]]
    /// Entities some quote summons with "!" right after the name ("Pat! Pat! Where are you?").
    private var summoned: Set<Int> = []
    /// Entities that may speak untagged (see `isPerson`).
    var personFlags: [Bool] = []
    /// Who has been given a line so far, while the tag pass runs.
    private var spokenSoFar: Set<Int> = []
    /// Kin tags resolved to a person, per role key ("her mother" → Mrs. Dashwood × 6).
    private var kinResolved: [String: [Int: Int]] = [:]
    /// How far the chosen referent of the last he/she tag scored above the next candidate.
    private var lastPronounMargin: Double = .infinity
    /// The last kin tag resolved as a he or she would be: as sure as a pronoun tag, no more.
    private var kinGuessed = false
    /// Narration "the" tokens by the word after them.
    private let definites: [String: [Int]]
    /// Each lower-case word's first token in the narration.
    private let firstUse: [String: Int]
    /// Nouns the narration uses of people (`init`).
    private let personNouns: Set<String>
    /// Nouns the narration goes on to call "it" (`things(definites:tokens:)`).
    private let things: Set<String>

    init(text: AnalysisText, tokens: [Token], quotes: [QuoteSpan], mentions: [NameMention], mentionEntity: [Int],
         mentionAt: [Int32], entities: [Entity], genders: [Gender]) {
        self.text = text
        self.tokens = tokens
        self.quotes = quotes
        self.mentions = mentions
        self.mentionEntity = mentionEntity
        self.mentionAt = mentionAt
        self.entities = entities
        var firstUse: [String: Int] = [:]
        for (index, token) in tokens.enumerated() where token.isWord && token.quote < 0 && firstUse[token.lower] == nil {
            firstUse[token.lower] = index
        }
        self.firstUse = firstUse
        var definites: [String: [Int]] = [:]
        for i in tokens.indices.dropLast() where tokens[i].quote < 0 && tokens[i].lower == "the" {
            definites[tokens[i + 1].lower, default: []].append(i)
        }
        self.definites = definites
        self.things = Self.things(definites: definites, tokens: tokens)
        // Nouns the narration shows speaking or as a "who": "the carabineer said yes", "said the
        // turnkey", "the rustic, who leered at me".
        var personNouns: Set<String> = []
        for index in tokens.indices.dropFirst(2) where tokens[index].quote < 0 {
            let word = tokens[index].lower
            let speaks = Lexicon.speechVerbs.contains(word) && !Lexicon.continuingVerbs.contains(word) || word == "who"
            if speaks, ["the", "a", "an"].contains(tokens[index - 2].lower), tokens[index - 1].isWord, !tokens[index - 1].isCapitalized {
                personNouns.insert(tokens[index - 1].lower)
            }
            if word == "who", tokens[index - 1].lower == ",", index >= 3, ["the", "a", "an"].contains(tokens[index - 3].lower),
               tokens[index - 2].isWord, !tokens[index - 2].isCapitalized {
                personNouns.insert(tokens[index - 2].lower)
            }
            if Lexicon.speechVerbs.contains(tokens[index - 2].lower), tokens[index - 1].lower == "the", tokens[index].isWord, !tokens[index].isCapitalized {
                personNouns.insert(word)
            }
        }
        self.personNouns = personNouns
        self.genders = genders
        var ranges = Array(repeating: 0..<0, count: quotes.count)
        var i = 0
        while i < tokens.count {
            let q = tokens[i].quote
            if q >= 0 {
                var j = i
                while j < tokens.count, tokens[j].quote == q { j += 1 }
                ranges[q] = i..<j
                i = j
            } else { i += 1 }
        }
        self.quoteTokens = ranges
        var events: [(position: Int, entity: Int)] = []
        var eventTokens: [Int] = []
        var counts = Array(repeating: 0, count: entities.count)
        for (index, mention) in mentions.enumerated() where !mention.inQuote && mentionEntity[index] >= 0 {
            events.append((tokens[mention.firstToken].start, mentionEntity[index]))
            eventTokens.append(mention.firstToken)
            counts[mentionEntity[index]] += 1
        }
        self.narrationEvents = events
        self.narrationEventTokens = eventTokens
        self.narrationCounts = counts
        var vocatives = Array(repeating: [Int](), count: quotes.count), summoned: Set<Int> = []
        for (index, mention) in mentions.enumerated() where mention.inQuote && mentionEntity[index] >= 0 {
            let before = mention.firstToken > 0 ? tokens[mention.firstToken - 1] : nil
            let after = mention.endToken < tokens.count ? tokens[mention.endToken] : nil
            let q = tokens[mention.firstToken].quote
            let openerBefore = before == nil || before!.quote != q || [",", "\"", "'", "!", "\u{201C}", "\u{2018}", "dear", "oh", "o", "my"].contains(before!.lower) || (before!.lower == "." && tokens[mention.firstToken].sentenceInitial)
            // "Anny dear, ...": an endearment after the name is still the call.
            let closerAfter = after == nil || after!.quote != q || [",", "!", "?", ".", ";", "\u{2014}", "-", "\"", "\u{201D}"].contains(after!.lower)
                || Lexicon.endearments.contains(after!.lower)
            if q >= 0, openerBefore && closerAfter && (before == nil || before!.lower != "." || after?.lower == ",") {
                vocatives[q].append(mentionEntity[index])
                if after?.lower == "!" { summoned.insert(mentionEntity[index]) }
            }
        }
        self.vocatives = vocatives
        self.summoned = summoned
        for (index, entity) in entities.enumerated() {
            for key in entity.formCounts.keys where entity.kind == .role || key.hasPrefix("the ") { roleEntity[key] = index }
        }
    }

    /// How others address the narrator in the turns around the narrator's own ("sir" or
    /// "madam"): the narrator's gender when nothing else tells it.
    func narratorAddressGender(_ attributions: [Attribution]) -> Gender {
        guard narrator >= 0 else { return .unknown }
        var male = 0, female = 0
        for q in quotes.indices where attributions[q].entity == narrator {
            for neighbour in [q - 1, q + 1] where neighbour >= 0 && neighbour < quotes.count && attributions[neighbour].entity != narrator {
                for t in quoteTokens[neighbour] where tokens[t].isWord {
                    switch tokens[t].lower {
                    case "sir", "monsieur", "mister", "fellow", "lad", "sonny", "brother", "gentleman": male += 1
                    case "madam", "ma'am", "madame", "mademoiselle", "miss", "lass", "sister", "lady": female += 1
                    default: break
                    }
                }
            }
        }
        if male + female >= 3, male >= 2 * female + 1 { return .male }
        if male + female >= 3, female >= 2 * male + 1 { return .female }
        return .unknown
    }

    // MARK: entities created while reading tags

    mutating func roleEntityIndex(key: String, display: String, gender: Gender, position: Int) -> Int {
        if let existing = roleEntity[key] { return existing }
        // "said the general", "said the doctor": the character the story titles General or
        // Doctor (Doctor Losberne), if it names one (measured on the thirteen PDNC novels: Oliver
        // Twist +0.028, The Mysterious Affair at Styles +0.005, Anne of Green Gables -0.001).
        let words = key.split(separator: " ")
        if words.count == 2, words[0] == "the", NameMentionFinder.roleTitles.contains(String(words[1])) {
            let title = NameMentionFinder.canonicalTitle(String(words[1]))
            let bearers = entities.indices.filter { entities[$0].kind == .named && entities[$0].titles[title] != nil }
            if let target = bearers.max(by: { (entities[$0].titles[title]!, $1) < (entities[$1].titles[title]!, $0) }) {
                roleEntity[key] = target
                return target
            }
        }
        // "the child" says nothing of gender; the pronouns the narration uses for it do. A group's
        // "he" or "she" is one of its members, so a crowd stays of no gender.
        let isGroup = Lexicon.isGroup(roleKey: key)
        let gender = gender == .unknown && !isGroup ? pronounGender(ofRole: words.map(String.init)) : gender
        var entity = Entity(kind: .role, firstPosition: position)
        entity.roleGender = gender
        entity.isGroup = isGroup
        entity.add(formKey: key, display: display, title: nil, count: 1, position: position)
        entities.append(entity)
        genders.append(gender)
        roleEntity[key] = entities.count - 1
        return entities.count - 1
    }

    /// The gender of the pronoun that first follows "the child" in its sentence of narration,
    /// when those pronouns clearly agree ("The child sat down; her hands shook").
    private mutating func pronounGender(ofRole words: [String]) -> Gender {
        guard words.count >= 2, words[0] == "the" else { return .unknown }
        var male = 0, female = 0
        for i in definites[words[1]] ?? [] where i + words.count < tokens.count {
            guard (2..<words.count).allSatisfy({ tokens[i + $0].lower == words[$0] }) else { continue }
            var k = i + words.count
            while k < tokens.count, k - i < 14, tokens[k].quote < 0, !tokens[k].sentenceInitial {
                let w = tokens[k].lower
                if Lexicon.malePronouns.contains(w) { male += 1; break }
                if Lexicon.femalePronouns.contains(w) { female += 1; break }
                k += 1
            }
        }
        if female >= 2, female >= 3 * male { return .female }
        if male >= 2, male >= 3 * female { return .male }
        return .unknown
    }

    mutating func narratorIndex(position: Int) -> Int {
        if narrator >= 0 { return narrator }
        var entity = Entity(kind: .narrator, firstPosition: position)
        entity.add(formKey: "i", display: "I", title: nil, count: 1, position: position)
        entities.append(entity)
        genders.append(.unknown)
        narrator = entities.count - 1
        return narrator
    }

    // MARK: noun phrases

    /// Parses a subject noun phrase at token `i`: a name, he/she/I, or `the [adj] role`.
    func subject(at i: Int, paragraph: Int) -> (TagSubject, end: Int)? {
        guard i < tokens.count, tokens[i].paragraph == paragraph, tokens[i].quote < 0 else { return nil }
        let t = tokens[i]
        let m = mentionAt[i]
        if m >= 0 {
            let entity = mentionEntity[Int(m)]
            let end = mentions[Int(m)].endToken
            if entity >= 0, !tokens[end - 1].isPossessive { return (.entity(entity), end) }
            if entity >= 0, end < tokens.count, let relative = relative(of: entity, noun: tokens[end].lower) { return (.entity(relative), end + 1) }
            if let voice = possessorsVoice(at: i) { return voice }
            if entity >= 0 { return nil }
        }
        if t.lower == "the", i + 1 < tokens.count, let voice = possessorsVoice(at: i + 1) { return voice }
        // "said Mother", "Father looked up": a parent the family calls so, by that name (not "the
        // Grandmother", a role).
        if t.isCapitalized, !t.isPossessive, let gender = Lexicon.parentWords[t.lower],
           t.sentenceInitial || i == 0 || !tokens[i - 1].isWord || Lexicon.speechVerbs.contains(tokens[i - 1].lower) {
            let display = String(t.lower.prefix(1)).uppercased() + t.lower.dropFirst()
            return (.role(key: t.lower, display: display, gender: gender, written: display), i + 1)
        }
        switch t.lower {
        case "he": return (.pronoun(.male), i + 1)
        case "she": return (.pronoun(.female), i + 1)
        case "i": return (.narrator, i + 1)
        case "the" where i + 1 < tokens.count && (tokens[i + 1].lower == "latter" || tokens[i + 1].lower == "former"):
            // "Mr. Weston and Mr. Knightley came in. 'A fine day,' said the former."
            guard let named = formerOrLatter(latter: tokens[i + 1].lower == "latter", before: tokens[i].start) else { return nil }
            return (.entity(named), i + 2)
        case "the", "a", "an", "her", "his", "my", "their", "our":
            // "the Dormouse yawned": a capitalised noun the story uses as a name, after "the".
            if t.lower == "the", i + 1 < tokens.count, mentionAt[i + 1] >= 0, mentionEntity[Int(mentionAt[i + 1])] >= 0,
               !mentions[Int(mentionAt[i + 1])].isRoleTitle, !tokens[mentions[Int(mentionAt[i + 1])].endToken - 1].isPossessive {
                return (.entity(mentionEntity[Int(mentionAt[i + 1])]), mentions[Int(mentionAt[i + 1])].endToken)
            }
            var j = i + 1
            var words: [String] = []
            var hyphen = false
            while j < tokens.count, words.count < 5, tokens[j].paragraph == paragraph, tokens[j].quote < 0 {
                // "a very self-possessed young lady", "the station-master": hyphenated words are one word.
                if !tokens[j].isWord {
                    guard tokens[j].lower == "-", !words.isEmpty, !hyphen else { break }
                    hyphen = true
                    j += 1; continue
                }
                // "the unsympathetic Marilla": an epithet before a name is still that person.
                if t.lower == "the", !words.isEmpty, !hyphen, mentionAt[j] >= 0, mentionEntity[Int(mentionAt[j])] >= 0,
                   !tokens[mentions[Int(mentionAt[j])].endToken - 1].isPossessive {
                    return (.entity(mentionEntity[Int(mentionAt[j])]), mentions[Int(mentionAt[j])].endToken)
                }
                // "my companion his voice now trembling": another determiner starts another phrase.
                if !words.isEmpty, !hyphen, ["the", "a", "an", "his", "her", "my", "their", "our"].contains(tokens[j].lower),
                   Lexicon.speechVerbs.contains(tokens[j - 1].lower) == false, t.lower != "the" { return nil }
                if hyphen { words[words.count - 1] += "-" + tokens[j].lower; hyphen = false } else { words.append(tokens[j].lower) }
                // "said his lady" is his wife.
                let noun = t.lower == "his" && tokens[j].lower == "lady" ? "wife" : tokens[j].lower
                if t.lower == "her" || t.lower == "his", words.count <= 2, Self.kinTitles[noun] != nil {
                    return (.kin(possessor: t.lower == "her" ? .female : .male, noun: noun, roleKey: t.lower + " " + noun,
                                 roleGender: Self.kinGender(noun)), j + 1)
                }
                // "--his voice dropped--", "Her voice mocked at my prudence": the voice is the person's;
                // so is "the voice of Mr. Hale".
                if words == ["voice"] {
                    if t.lower == "the", j + 2 < tokens.count, tokens[j + 1].lower == "of", let (owner, end) = subject(at: j + 2, paragraph: paragraph),
                       case .entity = owner {
                        return (owner, end)
                    }
                    switch t.lower {
                    case "his": return (.pronoun(.male), j + 1)
                    case "her": return (.pronoun(.female), j + 1)
                    case "my": return (.narrator, j + 1)
                    default: break
                    }
                }
                let compound = words.last!.contains("-") ? Lexicon.roleNouns[words.last!.filter { $0 != "-" }] : nil
                if let roleGender = compound ?? Lexicon.roleNouns[tokens[j].lower], tokens[j].lower != "old" {
                    // Take the longest phrase ending in a role noun ("the old man").
                    let next = j + 1 < tokens.count ? tokens[j + 1] : nil
                    if let next, next.isWord, Lexicon.roleNouns[next.lower] != nil, words.count < 3 { j += 1; continue }
                    let determiner = t.lower == "a" || t.lower == "an" ? "the" : t.lower
                    // The head and an age word or a lasting trait (`roleKey`).
                    let head = words.last!
                    let key = roleKey(determiner, modifiers: words.dropLast(), head: head)
                    let written = writtenPhrase(i..<(j + 1))
                    return (.role(key: key, display: key, gender: roleGender, written: written), j + 1)
                }
                if Lexicon.speechVerbs.contains(tokens[j].lower) {
                    return ["the", "a", "an"].contains(t.lower) ? openRole(the: i, words: words.dropLast(), verb: j) : nil
                }
                if Lexicon.notRoles.contains(tokens[j].lower) { return nil }
                j += 1
            }
            return nil
        default:
            return nil
        }
    }

    /// "said the surgeon", "replied the turnkey, with a shake of his head": after a speech verb,
    /// where English puts the subject last, a definite noun phrase is the speaker whatever its
    /// noun; the head is the last word before a comma, a preposition or a clause ("the gentleman
    /// in the white waistcoat" is a gentleman). The role nouns of the lexicon need not list it.
    func invertedRole(at i: Int, paragraph: Int) -> TagSubject? {
        guard i + 1 < tokens.count, ["the", "a", "an"].contains(tokens[i].lower), tokens[i].paragraph == paragraph, tokens[i].quote < 0 else { return nil }
        // "cried a looker-on": an indefinite brings someone new in.
        let definite = tokens[i].lower == "the"
        var words: [String] = []
        var j = i + 1
        while j < tokens.count, words.count < 4, tokens[j].paragraph == paragraph, tokens[j].quote < 0 {
            // "cried a loud, hoarse voice": a comma between adjectives, the noun still to come.
            if !tokens[j].isWord {
                guard tokens[j].lower == ",", !words.isEmpty, j + 2 < tokens.count, tokens[j + 1].isWord, tokens[j + 2].isWord,
                      Lexicon.roleNouns[tokens[j + 2].lower] != nil, !Self.phraseEnds.contains(tokens[j + 1].lower) else { break }
                j += 1
                continue
            }
            // "said the Hatter": a capitalised noun the story uses as a name is that character.
            if mentionAt[j] >= 0, mentionEntity[Int(mentionAt[j])] >= 0, !tokens[mentions[Int(mentionAt[j])].endToken - 1].isPossessive {
                return .entity(mentionEntity[Int(mentionAt[j])])
            }
            let w = tokens[j].lower
            if Self.clauseWords.contains(w) || Self.phraseEnds.contains(w) || Lexicon.speechVerbs.contains(w) || w.hasSuffix("ly") { break }
            // "the half-witted dupe", "the game-keeper": a hyphenated word is one word.
            if let compound = hyphenated(from: j, paragraph: paragraph) {
                words.append(compound.word)
                j = compound.end
                continue
            }
            words.append(w)
            j += 1
        }
        // "said the master": a title written in lower case is a role noun.
        guard let head = words.last, Self.canHeadRole(head) || Lexicon.honorifics[head] != nil && head.count > 2 && !tokens[j - 1].isCapitalized else { return nil }
        // "said the second": one of a group the narration counted off ("said the first housemaid").
        if words.count == 1, Self.ordinals.contains(head) { return definite ? countedRole(head, before: i) : nil }
        // The phrase must end there: at punctuation, a preposition or a relative clause.
        guard j >= tokens.count || !tokens[j].isWord || Self.phraseEnds.contains(tokens[j].lower) || tokens[j].paragraph != paragraph || tokens[j].quote >= 0 else { return nil }
        // "the gentleman in the white waistcoat", "the landlord of the Cripples": a phrase with
        // "the" after in/of/at picks one person out and is part of the description ("in a low
        // voice", "with a smile" say how the line was spoken and are not).
        if let qualifier = definiteQualifier(at: j, paragraph: paragraph) {
            let key = roleKey("the", modifiers: words.dropLast(), head: head) + " " + qualifier
            return .role(key: key, display: key, gender: GenderAgeInference.nounGender(head) ?? .unknown, written: key)
        }
        guard !definite || isKnown(head.split(separator: "-").last.map(String.init) ?? head, phrase: i + 1..<j, usedBefore: j - 1) else { return nil }
        // "muttered a deep curse", "said a very good thing": an indefinite after the verb may be
        // its object; only a noun of people ("a looker-on", "a sleepy-faced carpenter") speaks.
        guard definite || namesPeople(head, modifiers: words.dropLast()) else { return nil }
        let key = roleKey("the", modifiers: words.dropLast(), head: head)
        return .role(key: key, display: key, gender: Lexicon.roleNouns[head] ?? GenderAgeInference.nounGender(head) ?? .unknown, written: writtenPhrase(i..<j))
    }

    /// "the" presupposes someone the reader knows: a noun the narration used before (a bare noun
    /// it never used, "admitted the caller", is an epithet for someone present, left to
    /// turn-taking), or an office written with capitals ("said the City Magistrate"), one known
    /// person the first time too.
    private func isKnown(_ head: String, phrase: Range<Int>, usedBefore limit: Int) -> Bool {
        phrase.allSatisfy { $0 < tokens.count && tokens[$0].isCapitalized } || firstUse[head].map { $0 < limit } == true
    }

    /// "'…,' said the first housemaid. '…,' said the second": the ordinal's noun is left out
    /// because the narration just gave it; the role is the group's member of that number.
    private func countedRole(_ ordinal: String, before i: Int) -> TagSubject? {
        let paragraph = tokens[i].paragraph
        var k = i - 1
        while k > 0, tokens[k].paragraph >= paragraph - 3 {
            defer { k -= 1 }
            guard tokens[k].quote < 0, ["the", "a", "an"].contains(tokens[k - 1].lower),
                  Self.ordinals.contains(tokens[k].lower) || tokens[k].lower == "first", k + 1 < tokens.count, tokens[k + 1].isWord,
                  tokens[k + 1].quote < 0 else { continue }
            let noun = hyphenated(from: k + 1, paragraph: tokens[k + 1].paragraph)?.word ?? tokens[k + 1].lower
            guard Self.canHeadRole(noun), !Self.clauseWords.contains(noun), !Self.phraseEnds.contains(noun), !Self.ordinals.contains(noun) else { return nil }
            let key = roleKey("the", modifiers: [ordinal], head: noun)
            let gender = Lexicon.roleNouns[noun] ?? GenderAgeInference.nounGender(noun) ?? .unknown
            return .role(key: key, display: key, gender: gender, written: key)
        }
        return nil
    }

    private static let ordinals: Set<String> = ["second", "third", "fourth", "fifth", "sixth"]

    /// Whether a noun is one of people: a role noun, one formed like one ("-man", "-ess"), a
    /// compound ("looker-on"), one the book shows speaking or followed by "who", or one a
    /// compound of body or temper describes ("a sleepy-faced carpenter").
    private func namesPeople(_ head: String, modifiers: some Sequence<String> = [String]()) -> Bool {
        Lexicon.roleNouns[head] != nil || GenderAgeInference.nounGender(head) != nil || head.contains("-")
            || personNouns.contains(head) || modifiers.contains(where: Self.describesPerson)
    }

    /// A compound of body or temper ("sleepy-faced", "grey-haired", "kind-hearted", "smartly-dressed")
    /// describes a person, whatever noun it goes with.
    static func describesPerson(_ word: String) -> Bool {
        guard let last = word.split(separator: "-").last, word.contains("-") else { return false }
        return ["faced", "eyed", "haired", "headed", "legged", "hearted", "backed", "looking", "dressed", "tempered", "minded", "natured", "spoken"]
            .contains(String(last))
    }

    /// The hyphenated word starting at token `j` ("half-witted", "game-keeper") and the token after it.
    private func hyphenated(from j: Int, paragraph: Int) -> (word: String, end: Int)? {
        var word = tokens[j].lower
        var k = j + 1
        while k + 1 < tokens.count, tokens[k].lower == "-", tokens[k + 1].isWord, tokens[k + 1].paragraph == paragraph,
              tokens[k + 1].start == tokens[k].end, tokens[k].start == tokens[k - 1].end {
            word += "-" + tokens[k + 1].lower
            k += 2
        }
        return k > j + 1 ? (word, k) : nil
    }

    /// A role's key: the head and an age word; other adjectives describe a moment ("the
    /// angry man"). But a generic head ("man", "woman") picks nobody out by itself, and a
    /// compound or participle before it names a lasting trait that does ("the hump-backed
    /// man", "the labouring man"): that one is kept instead, as is a compound before a noun the
    /// narration never writes alone ("the book-stall keeper"; "the dining-car conductor" is
    /// "the conductor" where the narration says so). A compound written with or without its
    /// hyphen ("station-master", "stationmaster") is one noun.
    func roleKey(_ determiner: String, modifiers: some BidirectionalCollection<String>, head written: String) -> String {
        let solid = written.filter { $0 != "-" }
        let head = written.contains("-") && Lexicon.roleNouns[solid] != nil ? solid : written
        let generic = Self.genericHeads.contains(head)
        if let trait = modifiers.last, trait.contains("-") && (generic || definites[head] == nil) || generic && trait.count > 5 && trait.hasSuffix("ing") {
            return determiner + " " + trait + " " + head
        }
        // An age word or an ordinal picks one out ("the old man", "the second housemaid").
        let age = modifiers.last { Lexicon.isAgeCue($0) || Self.ordinals.contains($0) || $0 == "first" }
        return determiner + " " + (age.map { $0 + " " } ?? "") + head
    }

    /// Adverbial particles end a verb phrase, never a noun phrase ("called the dogs back", "the clerks came out").
    private static let adverbParticles: Set<String> = ["back", "out", "off", "down", "away", "aside", "forth", "together", "home", "over", "along", "around", "about"]

    /// A noun that may head a description of a person in a tag: not a pronoun-like word
    /// ("the other"), a title or a word that is never a name.
    private static func canHeadRole(_ head: String) -> Bool {
        // A title that stands alone as a role ("protested the judge") may head one.
        head.count > 2 && !Lexicon.notRoles.contains(head) && !Lexicon.notNames.contains(head) && !adverbParticles.contains(head)
            && (Lexicon.honorifics[head] == nil || NameMentionFinder.roleTitles.contains(head))
            && head.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || $0 == "-" }
    }

    /// "The rain continued fast … it still rained": a noun the narration goes on to call "it"
    /// more often than "he" or "she" is a thing. Found once for every noun after "the".
    private static func things(definites: [String: [Int]], tokens: [Token]) -> Set<String> {
        var result: Set<String> = []
        for (noun, occurrences) in definites {
            var things = 0, people = 0
            for i in occurrences {
                var k = i + 2
                while k < tokens.count, k - i < 14, tokens[k].quote < 0, !tokens[k].sentenceInitial {
                    let w = tokens[k].lower
                    if w == "it" || w == "its" { things += 1; break }
                    if Lexicon.malePronouns.contains(w) || Lexicon.femalePronouns.contains(w) || w == "who" { people += 1; break }
                    k += 1
                }
            }
            if things > people { result.insert(noun) }
        }
        return result
    }

    /// `"…," the concierge called`: a definite noun phrase right before a speech verb is its
    /// subject whatever its noun, as after one (`invertedRole`): plain modifiers and a singular
    /// head ("the dining-car conductor"; a plural is a group) the narration has used before.
    /// An indefinite one ("A watchman was crying") brings someone in, when its noun is one of people.
    private func openRole(the i: Int, words: ArraySlice<String>, verb j: Int) -> (TagSubject, end: Int)? {
        // "the owner of the bottle shouted": a noun after a preposition is not the subject.
        guard i == 0 || !Self.prepositions.contains(tokens[i - 1].lower), isSpeechVerb(j) else { return nil }
        // "left the room crying": after a verb the noun phrase is its object.
        guard i == 0 || tokens[i].sentenceInitial || !tokens[i - 1].isWord || Self.clauseOpeners.contains(tokens[i - 1].lower)
                || Self.subjectOpeners.contains(tokens[i - 1].lower) else { return nil }
        // "A watchman was crying": the auxiliary is not part of the noun phrase.
        var words = words
        while let last = words.last, Lexicon.tagFillers.contains(last), words.count > 1 { words = words.dropLast() }
        // "the" presupposes someone known; "a" brings someone in.
        let definite = tokens[i].lower == "the"
        guard let head = words.last, Self.canHeadRole(head), !head.hasSuffix("s") || head.hasSuffix("ss"),
              !words.dropLast().contains(where: { Self.clauseWords.contains($0) || $0.hasSuffix("'s") }),
              !definite || isKnown(head, phrase: i + 1..<i + 1 + words.count, usedBefore: i) else { return nil }
        // "The rain continued fast": a verb that also tells of things going on needs a noun of people.
        // Before its verb an indefinite needs a noun of people ("A little cry broke from her lips").
        guard !things.contains(head), definite && !Lexicon.continuingVerbs.contains(tokens[j].lower)
                || namesPeople(head, modifiers: words.dropLast()) else { return nil }
        let key = roleKey("the", modifiers: words.dropLast(), head: head)
        return (.role(key: key, display: key, gender: GenderAgeInference.nounGender(head) ?? .unknown, written: writtenPhrase(i..<j)), j)
    }

    /// A description as written, lowercased with its possessives ("the apothecary's apprentice",
    /// "a self-possessed young lady"): how the reader knows the person, kept as an alias.
    func writtenPhrase(_ range: Range<Int>) -> String {
        var phrase = ""
        for k in range {
            if tokens[k].isWord {
                phrase += (phrase.isEmpty || phrase.hasSuffix("-") ? "" : " ") + tokens[k].asWritten
            } else if tokens[k].lower == "-" {
                phrase += "-"
            }
        }
        return phrase
    }

    /// A role after a speech verb with its picking-out phrase ("said the gentleman in the white waistcoat").
    private func qualified(_ subject: TagSubject, end: Int, paragraph: Int) -> TagSubject {
        guard case let .role(key, _, gender, _) = subject, key.hasPrefix("the "), let qualifier = definiteQualifier(at: end, paragraph: paragraph) else { return subject }
        let full = key + " " + qualifier
        return .role(key: full, display: full, gender: gender, written: full)
    }

    /// `in the white waistcoat` up to a comma or full stop, at most four words after "the".
    private func definiteQualifier(at j: Int, paragraph: Int) -> String? {
        guard j + 2 < tokens.count, ["in", "of", "at"].contains(tokens[j].lower), tokens[j + 1].lower == "the" else { return nil }
        var words = [tokens[j].lower, "the"]
        var k = j + 2
        while k < tokens.count, tokens[k].isWord, tokens[k].paragraph == paragraph, tokens[k].quote < 0, words.count < 6 {
            if Self.clauseWords.contains(tokens[k].lower) || Self.phraseEnds.contains(tokens[k].lower) { return nil }
            words.append(tokens[k].lower)
            k += 1
        }
        guard words.count > 2, k < tokens.count, !tokens[k].isWord, [",", ".", ";", ":", "!", "?"].contains(tokens[k].lower) else { return nil }
        return words.joined(separator: " ")
    }

    private static let subjectOpeners: Set<String> = ["and", "but", "when", "while", "then", ";", "till", "until"]

    private static let prepositions: Set<String> = ["of", "in", "on", "at", "with", "from", "by", "to", "for", "into", "over", "under", "through", "without"]

    private static let phraseEnds: Set<String> = [
        "in", "on", "at", "with", "from", "of", "by", "to", "who", "whom", "whose", "which", "that", "and", "but", "as",
        "after", "before", "without", "through", "into", "over", "under", "while", "when", "for", "again", "once",
    ]

    /// The later (or earlier) of the last two people the narration named before `position`, within
    /// a few paragraphs.
    func formerOrLatter(latter: Bool, before position: Int) -> Int? {
        var named: [Int] = []
        var e = lowerBound(narrationEvents, position) - 1
        while e >= 0, named.count < 2, position - narrationEvents[e].position < 1500 {
            let c = narrationEvents[e].entity
            if c >= 0, c < entities.count, entities[c].kind == .named, !named.contains(c) { named.append(c) }
            e -= 1
        }
        guard named.count == 2 else { return nil }
        return latter ? named[0] : named[1]
    }

    /// Kinship nouns and the title their bearer shares a surname under.
    static let kinTitles: [String: String] = [
        "mother": "mrs", "mamma": "mrs", "mama": "mrs", "wife": "mrs", "aunt": "mrs", "father": "mr", "papa": "mr", "husband": "mr",
        "uncle": "mr", "brother": "mr",
        "sister": "miss", "daughter": "miss",
    ]

    /// A kinship noun's gender as a role that speaks: "said his wife", when no Mrs. of his name is
    /// found, is a woman of her own. A brother, son or daughter not found is left to the turns
    /// (measured: as roles they took the turns' right answers).
    static func kinGender(_ noun: String) -> Gender? {
        Lexicon.roleNouns[noun] ?? ["wife": .female, "husband": .male][noun]
    }

    /// "said Mr. Bumble's voice", "said the Rabbit's voice" (from the name): the voice is the possessor's.
    private func possessorsVoice(at i: Int) -> (TagSubject, end: Int)? {
        guard mentionAt[i] >= 0, case let m = Int(mentionAt[i]), mentionEntity[m] >= 0 else { return nil }
        let end = mentions[m].endToken
        guard tokens[end - 1].isPossessive, end < tokens.count, tokens[end].lower == "voice" else { return nil }
        return (.entity(mentionEntity[m]), end + 1)
    }

    /// The person a narration mention stands for: the relative in "Daisy's mother" (nil when
    /// the family has none titled so), else the one named.
    private func kinAware(_ entity: Int, mentionAt token: Int) -> Int? {
        guard mentionAt[token] >= 0 else { return entity }
        let end = mentions[Int(mentionAt[token])].endToken
        guard tokens[end - 1].isPossessive, end < tokens.count, Self.kinTitles[tokens[end].lower] != nil else { return entity }
        return relative(of: entity, noun: tokens[end].lower)
    }

    /// "Lizzy's mother": the titled member of the same family (Mrs. Bennet for a Bennet).
    func relative(of entity: Int, noun: String) -> Int? {
        guard let title = Self.kinTitles[noun] else { return nil }
        guard let surname = familyName(of: entity) else { return nil }
        return entities.indices.first { index in
            index != entity && entities[index].surname == surname && entities[index].titles[title] != nil
        }
    }

    /// "returned her sister" when no Miss of the family is titled so: the one of the possessor's
    /// family (by surname) of the noun's gender who spoke or was named last, within the scene.
    /// Mothers, wives and aunts are left to `relative(of:noun:)`: their title tells them apart.
    func familyMember(of possessor: Int, noun: String, quote q: Int, position: Int, speakers: [Attribution]) -> Int? {
        guard ["sister", "daughter", "brother"].contains(noun), let gender = Lexicon.roleNouns[noun],
              let surname = familyName(of: possessor) else { return nil }
        let family = Set(entities.indices.filter { c in
            c != possessor && entities[c].kind == .named && genders[c] == gender && isPerson(c)
                && entities[c].titles["mrs"] == nil && familyName(of: c) == surname
        })
        guard !family.isEmpty else { return nil }
        for k in stride(from: q - 1, through: max(0, q - 8), by: -1) where family.contains(speakers[k].entity) { return speakers[k].entity }
        var e = lowerBound(narrationEvents, position) - 1
        while e >= 0, position - narrationEvents[e].position < 3000, family.count > 1 {
            if family.contains(narrationEvents[e].entity) { return narrationEvents[e].entity }
            e -= 1
        }
        return family.count == 1 ? family.first : nil
    }

    /// Whether `person` may be `possessor`'s relative of that kind, by name alone: called by a
    /// given name or a family title (not "the Queen"), and, but for an aunt, uncle or cousin, of
    /// the same family when both surnames are known (Mrs. Allen is not Mr. Tilney's sister).
    func mayBeRelative(_ person: Int, of possessor: Int, noun: String) -> Bool {
        let personal = entities[person].givenName != nil || !Set(entities[person].titles.keys).isDisjoint(with: ["mr", "mrs", "miss"])
        guard personal else { return false }
        if ["aunt", "uncle", "cousin"].contains(noun) { return true }
        guard let theirs = familyName(of: person), let ours = familyName(of: possessor) else { return true }
        return theirs == ours
    }

    /// The surname a named person's forms carry ("dashwood" for Elinor Dashwood or Miss
    /// Dashwood); nil when every form is a given name, alone or after a title that takes one.
    /// A title and a given name alone ("Miss Louisa") tell no family.
    func familyName(of entity: Int) -> String? {
        if let surname = entities[entity].surname, !FirstNames.isGivenName(surname) { return surname }
        return entities[entity].formCounts.keys.sorted().lazy.compactMap { key -> String? in
            let words = key.split(separator: " ")
            guard words.count >= 2 else { return nil }
            if words.count == 2, Lexicon.givenNameTitles.contains(String(words[0])) || FirstNames.isGivenName(String(words[1])) { return nil }
            return String(words.last!)
        }.first
    }

    /// A speech verb; one that says something only with its particle ("struck in", "went on")
    /// needs it: "The clock struck twelve" is no tag.
    private func isSpeechVerb(_ i: Int) -> Bool {
        guard i < tokens.count, tokens[i].isWord, Lexicon.speechVerbs.contains(tokens[i].lower) else { return false }
        guard let particles = Lexicon.speechParticles[tokens[i].lower] else { return true }
        return i + 1 < tokens.count && particles.contains(tokens[i + 1].lower)
    }

    /// "Her brother told her that it was ...": a verb that introduces reported speech starts
    /// a new statement; it is not the tag of the quote before it.
    private func reportsSpeech(after verb: Int) -> Bool {
        for k in (verb + 1)...(verb + 2) where k < tokens.count && tokens[k].quote < 0 {
            if tokens[k].lower == "that" || tokens[k].lower == "how" { return true }
            if !tokens[k].isWord { return false }
        }
        return false
    }

    private func skipFillers(_ i: Int, paragraph: Int) -> Int {
        var j = i
        var skipped = 0
        while j < tokens.count, skipped < 3, tokens[j].paragraph == paragraph, tokens[j].quote < 0,
              tokens[j].isWord, Lexicon.tagFillers.contains(tokens[j].lower) || (tokens[j].lower.hasSuffix("ly") && tokens[j].lower.count > 4) {
            j += 1; skipped += 1
        }
        return j
    }

    /// The tag right after a quote: `said Anne`, `Anne said`, `said he`, `she answered quietly`,
    /// or a plain action (`Anne flushed`), reported as weaker.
    func tagAfter(_ q: Int) -> (TagSubject, strong: Bool)? {
        var i = quoteTokens[q].upperBound
        let paragraph = quotes[q].lastParagraph
        var skipped = 0
        while i < tokens.count, skipped < 2, tokens[i].paragraph == paragraph, tokens[i].quote < 0, !tokens[i].isWord,
              [",", "-", "\u{2014}", "\u{2013}", ";", ":"].contains(tokens[i].lower) {
            i += 1; skipped += 1
        }
        guard i < tokens.count, tokens[i].paragraph == paragraph, tokens[i].quote < 0, tokens[i].isWord else { return nil }
        // "was Mr. Woodhouse's observation": the possessor made the remark; so in "came Cecil's
        // voice from the hall".
        if ["was", "came"].contains(tokens[i].lower), i + 1 < tokens.count, mentionAt[i + 1] >= 0 {
            let m = Int(mentionAt[i + 1])
            let end = mentions[m].endToken
            if mentionEntity[m] >= 0, tokens[end - 1].isPossessive, end < tokens.count, tokens[end].isWord {
                return (.entity(mentionEntity[m]), true)
            }
        }
        let first = skipFillers(i, paragraph: paragraph)
        if isSpeechVerb(first) {
            // "called out Pooh", "put in Tom": the subject follows the verb's particle.
            if first + 2 < tokens.count, Lexicon.tagParticles[tokens[first].lower]?.contains(tokens[first + 1].lower) == true,
               let (subject, end) = subject(at: first + 2, paragraph: paragraph) {
                return (qualified(subject, end: end, paragraph: paragraph), true)
            }
            if isTheOther(at: first + 1, paragraph: paragraph) { return (.other, true) }
            if let (subject, end) = subject(at: first + 1, paragraph: paragraph) { return (qualified(subject, end: end, paragraph: paragraph), true) }
            let after = skipFillers(first + 1, paragraph: paragraph)
            if let (subject, _) = subject(at: after, paragraph: paragraph) { return (subject, true) }
            if let role = invertedRole(at: first + 1, paragraph: paragraph) { return (role, true) }
        }
        // `"...," squeaked the Hatter`: a quote that ends in a comma goes on into its tag, so a
        // past-tense verb with the subject after it is a speech verb whether or not the lexicon
        // lists it.
        // So does one that ends in "?" or "!" when a lower-case -ed word follows it: `"Home!"
        // bellowed Tom`.
        if endsWithComma(q) || endsWithQuestionOrExclamation(q), Self.isPastTense(tokens[first]) {
            if let (subject, end) = subject(at: first + 1, paragraph: paragraph) { return (qualified(subject, end: end, paragraph: paragraph), true) }
            if let role = invertedRole(at: first + 1, paragraph: paragraph) { return (role, true) }
        }
        if let (subject, end) = subject(at: i, paragraph: paragraph) {
            let verb = skipFillers(end, paragraph: paragraph)
            // "I say", "I tell him": a present tense the narrator tells in.
            let narratorSays: Bool = if case .narrator = subject, verb < tokens.count {
                Lexicon.firstPersonSpeechVerbs.contains(tokens[verb].lower)
            } else { false }
            // After a quote closed by a full stop, "Morland remonstrated, pleaded ..." is a new
            // sentence of narration: at most the next person's action, not this quote's tag.
            if isSpeechVerb(verb) || narratorSays { return reportsSpeech(after: verb) ? nil : (subject, !endsWithFullStop(q)) }
            // `"...," the Hatter squeaked` likewise.
            if endsWithComma(q), verb < tokens.count, tokens[verb].paragraph == paragraph, tokens[verb].quote < 0, Self.isPastTense(tokens[verb]),
               !reportsSpeech(after: verb) {
                return (subject, true)
            }
            if verb < tokens.count, tokens[verb].isWord, !tokens[verb].isCapitalized, tokens[verb].paragraph == paragraph, tokens[verb].quote < 0 {
                return (subject, false)
            }
        }
        return nil
    }

    /// "replied the other" (ending its phrase: not "the other man"), "returned the person
    /// addressed": whoever the turn before spoke to.
    private func isTheOther(at i: Int, paragraph: Int) -> Bool {
        guard i + 1 < tokens.count, tokens[i].lower == "the", tokens[i + 1].paragraph == paragraph else { return false }
        var end = i + 2
        if tokens[i + 1].lower != "other" {
            guard i + 2 < tokens.count, tokens[i + 1].isWord, tokens[i + 2].lower == "addressed" else { return false }
            end = i + 3
        }
        return end >= tokens.count || !tokens[end].isWord || tokens[end].quote >= 0 || tokens[end].paragraph != paragraph
    }

    /// Whether the quote's last mark inside its quotation marks is a full stop ("... if it is an inch.").
    private func endsWithFullStop(_ q: Int) -> Bool { lastMark(q) == "." }

    /// Whether the quote's last mark inside its quotation marks is a comma (`"Well,"`).
    private func endsWithComma(_ q: Int) -> Bool { lastMark(q) == "," }

    private func endsWithQuestionOrExclamation(_ q: Int) -> Bool { lastMark(q) == "?" || lastMark(q) == "!" }

    private func lastMark(_ q: Int) -> String? {
        var k = quoteTokens[q].upperBound - 1
        while k >= quoteTokens[q].lowerBound, !tokens[k].isWord, Self.quoteMarks.contains(tokens[k].lower) { k -= 1 }
        return k >= quoteTokens[q].lowerBound ? tokens[k].lower : nil
    }

    /// A lower-case word in -ed that is no adjective of the lexicon's tag fillers ("squeaked").
    private static func isPastTense(_ token: Token) -> Bool {
        token.isWord && !token.isCapitalized && token.lower.count > 4 && token.lower.hasSuffix("ed") && !Lexicon.tagFillers.contains(token.lower)
    }

    private static let quoteMarks: Set<String> = ["\"", "'", "\u{201C}", "\u{201D}", "\u{2018}", "\u{2019}"]

    /// The tag in the narration that leads into a quote in its paragraph: `Anne said:`,
    /// `said Marilla,`, or the subject of the paragraph's action (weaker).
    func tagBefore(_ q: Int) -> (TagSubject, strong: Bool)? {
        let paragraph = quotes[q].paragraph
        let end = quoteTokens[q].lowerBound
        var start = end
        while start > 0, tokens[start - 1].quote < 0, tokens[start - 1].paragraph == paragraph { start -= 1 }
        guard start < end else { return leadInParagraph(q) }
        return leadIn(start: start, end: end, paragraph: paragraph)
    }

    /// A narration paragraph that ends in `:`, `,` or a dash introduces the quote opening the
    /// next one ("Marilla intercepted the look and said grimly:"); only a speech verb counts.
    func leadInParagraph(_ q: Int) -> (TagSubject, strong: Bool)? {
        let end = quoteTokens[q].lowerBound
        guard end > 0, tokens[end - 1].quote < 0, tokens[end - 1].paragraph == quotes[q].paragraph - 1,
              [":", ",", "-", "\u{2014}", "\u{2013}"].contains(tokens[end - 1].lower) else { return nil }
        let paragraph = tokens[end - 1].paragraph
        var start = end - 1
        while start > 0, tokens[start - 1].quote < 0, tokens[start - 1].paragraph == paragraph { start -= 1 }
        guard let found = leadIn(start: start, end: end - 1, paragraph: paragraph), found.strong else { return nil }
        return found
    }

    private func leadIn(start: Int, end: Int, paragraph: Int) -> (TagSubject, strong: Bool)? {
        // Speech verb in the last sentence before the quote.
        var sentenceStart = end - 1
        while sentenceStart > start, !tokens[sentenceStart].sentenceInitial { sentenceStart -= 1 }
        var i = end - 1
        while i >= sentenceStart {
            // "being called the most charming girl": a passive names no speaker ("was saying" does).
            if isSpeechVerb(i), i == 0 || tokens[i].lower.hasSuffix("ing") || !Self.passiveAuxiliaries.contains(tokens[i - 1].lower) {
                var k = i - 1
                var steps = 0
                while k >= sentenceStart, steps < 4 {
                    if let (subject, subjectEnd) = subject(at: k, paragraph: paragraph), skipFillers(subjectEnd, paragraph: paragraph) == i {
                        return (subject, true)
                    }
                    k -= 1; steps += 1
                }
                // "said Marilla:" — the inverted order; a participle takes an object instead
                // ("Observing his second daughter ..., he addressed her").
                let participle = tokens[i].lower.hasSuffix("ing")
                if !participle, isTheOther(at: i + 1, paragraph: paragraph) { return (.other, true) }
                if !participle, let (subject, end) = subject(at: i + 1, paragraph: paragraph) { return (qualified(subject, end: end, paragraph: paragraph), true) }
                if !participle, let role = invertedRole(at: i + 1, paragraph: paragraph) { return (role, true) }
                if let subject = coordinatedSubject(before: i, sentenceStart: sentenceStart, paragraph: paragraph) {
                    return (subject, true)
                }
                if let subject = relativeClauseAntecedent(before: i, sentenceStart: sentenceStart, paragraph: paragraph) {
                    return (subject, true)
                }
                // "James, as the door was closed on them, said,": the sentence's subject.
                if let (subject, _) = subject(at: sentenceStart, paragraph: paragraph) { return (subject, true) }
                // "But Marilla, seeing the disappointment on Anne's face, said": a named subject after a conjunction.
                if let (subject, _) = subject(at: afterOpeningWords(sentenceStart), paragraph: paragraph), case .entity = subject {
                    return (subject, true)
                }
            }
            i -= 1
        }
        // The action's subject: the first sentence-initial subject in the lead-in.
        i = start
        while i < end {
            if tokens[i].sentenceInitial || i == start,
               let (subject, _) = subject(at: i, paragraph: paragraph) ?? afterOpeningAdverb(i).flatMap({ subject(at: $0, paragraph: paragraph) }) {
                if case .narrator = subject, narrator < 0 { return nil }
                return (subject, false)
            }
            i += 1
        }
        return nil
    }

    /// "Later Mr. Eager spoke of her", "Suddenly, Marilla rose": where the subject starts after
    /// one adverb opening the sentence.
    private func afterOpeningAdverb(_ start: Int) -> Int? {
        guard start + 1 < tokens.count, tokens[start].isWord, tokens[start].sentenceInitial, mentionAt[start] < 0 else { return nil }
        let word = tokens[start].lower
        guard Self.openingAdverbs.contains(word) || word.count > 4 && word.hasSuffix("ly") else { return nil }
        return tokens[start + 1].lower == "," ? start + 2 : start + 1
    }

    private func followsOpeningAdverb(_ mentionStart: Int) -> Bool {
        (max(0, mentionStart - 2)..<mentionStart).contains { afterOpeningAdverb($0) == mentionStart }
    }

    private static let openingAdverbs: Set<String> = ["later", "then", "presently", "now", "soon", "afterwards", "meanwhile"]

    private static let passiveAuxiliaries: Set<String> = ["being", "been", "be", "is", "was", "were", "are", "get", "got"]

    /// The token before `verb`, skipping tag fillers ("and then whispered", ", had said").
    private func lastBeforeFillers(_ verb: Int, sentenceStart: Int) -> Int {
        var k = verb - 1
        while k > sentenceStart, tokens[k].isWord, Lexicon.tagFillers.contains(tokens[k].lower) { k -= 1 }
        return k
    }

    /// "when Isabella, who had been talking to James, turned to his sister and whispered": a
    /// speech verb joined by "and" shares the subject of the verb before it, the nearest person
    /// that opens a clause; a person after a preposition or a verb ("to his sister") is an object.
    private func coordinatedSubject(before verb: Int, sentenceStart: Int, paragraph: Int) -> TagSubject? {
        let and = lastBeforeFillers(verb, sentenceStart: sentenceStart)
        guard and > sentenceStart, tokens[and].lower == "and" else { return nil }
        var k = and - 1
        while k >= sentenceStart {
            let opensClause = k == sentenceStart || Self.clauseOpeners.contains(tokens[k - 1].lower)
            if opensClause, let (subject, end) = subject(at: k, paragraph: paragraph), end <= and {
                // "when the waiter appeared and said": a role with one short verb phrase before "and".
                if case .role = subject, and - end > 2 { return nil }
                return subject
            }
            k -= 1
        }
        return nil
    }

    /// "Mr. Woodhouse, whose thoughts were on the Bates's, said": the person a relative clause
    /// describes, when that clause ends right before the speech verb.
    private func relativeClauseAntecedent(before verb: Int, sentenceStart: Int, paragraph: Int) -> TagSubject? {
        let close = lastBeforeFillers(verb, sentenceStart: sentenceStart)
        guard close > sentenceStart else { return nil }
        var k: Int
        if tokens[close].lower == "," {
            k = close - 1
            while k > sentenceStart + 1, tokens[k].lower != "," || !["who", "whose"].contains(tokens[k + 1].lower) { k -= 1 }
            guard k > sentenceStart, tokens[k].lower == ",", ["who", "whose"].contains(tokens[k + 1].lower) else { return nil }
        } else {
            // "broken by Isabella, who in a voice of cold resentment said": "who" is the verb's
            // own subject, a few words back, with no other verb's subject between.
            k = close
            while k > sentenceStart + 1, verb - k <= 10, tokens[k].lower != "who" {
                if Self.clauseOpeners.contains(tokens[k].lower) && tokens[k].lower != "," { return nil }
                k -= 1
            }
            guard tokens[k].lower == "who", k - 1 > sentenceStart, tokens[k - 1].lower == "," else { return nil }
            k -= 1
        }
        // The antecedent is the noun phrase that ends at that comma.
        for start in stride(from: k - 1, through: max(sentenceStart, k - 4), by: -1) {
            if let (subject, end) = subject(at: start, paragraph: paragraph), end == k { return subject }
        }
        return nil
    }

    /// Skips the conjunctions and adverbs that open a sentence before its subject ("But Marilla, ...").
    private func afterOpeningWords(_ start: Int) -> Int {
        var i = start
        while i < tokens.count, i - start < 3, tokens[i].isWord, Self.sentenceOpeners.contains(tokens[i].lower) { i += 1 }
        return i
    }

    private static let sentenceOpeners: Set<String> = ["but", "and", "yet"]

    /// A mention after a clause opener (", and", "; but", "when") and before a verb-like lower-case
    /// word: the subject of that clause, not an object ("to Emma", "Emma's").
    private func opensClause(mentionStart: Int) -> Bool {
        guard mentionStart > 0, Self.clauseOpeners.contains(tokens[mentionStart - 1].lower),
              tokens[mentionStart - 1].quote < 0, mentionAt[mentionStart] >= 0 else { return false }
        let end = mentions[Int(mentionAt[mentionStart])].endToken
        guard !tokens[end - 1].isPossessive, end < tokens.count else { return false }
        let next = tokens[end]
        return next.isWord && !next.isCapitalized && next.quote < 0
    }

    /// Words and marks after which a noun phrase starts a clause, so can be its subject.
    static let clauseOpeners: Set<String> = [
        ",", ";", ":", "\u{2014}", "-", "and", "but", "when", "while", "whilst", "as", "then", "till", "until", "before",
        "after", "where", "whereupon", "so", "though", "although", "because", "since", "if",
    ]

    // MARK: resolution

    /// Resolves a tag's subject to an entity (see `resolvePronoun` for he/she).
    mutating func resolve(_ subject: TagSubject, position: Int, quote q: Int, speakers: [Attribution]) -> Int {
        switch subject {
        case .entity(let e): return e
        case .narrator: return narratorIndex(position: position)
        case .role(let key, let display, let gender, let written):
            if let named = appositiveName(of: key, before: position) { return named }
            if key.hasSuffix(" voice") || answers(q), let named = addressee(answeredBy: q, gender: gender, speakers: speakers) { return named }
            switch sceneIntroduction(of: written, quote: q) {
            case .entity(let named)?: return named
            case .role(let key, let display, let gender, let written)?:
                let role = resolveRole(key: key, display: display, gender: gender, written: written, position: position)
                entities[role].introduced = true
                return role
            default: break
            }
            if let introduced = introducedAntecedent(of: key, gender: gender, quote: q), case .role(let key, let display, let gender, let written) = introduced {
                return resolveRole(key: key, display: display, gender: gender, written: written, position: position)
            }
            return resolveRole(key: key, display: display, gender: gender, written: written, position: position)
        case .pronoun(let gender):
            // A he or she is one person, never a group the scene brought in ("The men laughed").
            if let introduced = introducedRole(gender, quote: q), case .role(let key, let display, let roleGender, let written) = introduced,
               !Lexicon.isGroup(roleKey: key) {
                return resolveRole(key: key, display: display, gender: roleGender, written: written, position: position)
            }
            if case .role(let key, let display, let roleGender, let written)? = sceneNewcomer(gender, quote: q), !Lexicon.isGroup(roleKey: key) {
                return resolveRole(key: key, display: display, gender: roleGender, written: written, position: position)
            }
            return resolvePronoun(gender, quote: q, position: position, speakers: speakers)
        case .other:
            return addressee(answeredBy: q, gender: .unknown, speakers: speakers) ?? -1
        case .kin(let possessorGender, let noun, let roleKey, let roleGender):
            return resolveKin(possessorGender: possessorGender, noun: noun, roleKey: roleKey, roleGender: roleGender,
                              position: position, quote: q, speakers: speakers)
        }
    }

    /// "said her father": her = the last woman the narration names; her father = Mr. of her
    /// surname, else one of her family, else the one the story titles Father, else a man in view.
    private mutating func resolveKin(possessorGender: Gender, noun: String, roleKey: String, roleGender: Gender?,
                                     position: Int, quote q: Int, speakers: [Attribution]) -> Int {
        kinGuessed = false
        func isPossessor(_ c: Int) -> Bool { c >= 0 && c < genders.count && genders[c] == possessorGender && entities[c].kind == .named }
        func kin(of c: Int) -> Int? {
            guard let found = relative(of: c, noun: noun) ?? familyMember(of: c, noun: noun, quote: q, position: position, speakers: speakers) else { return nil }
            kinResolved[roleKey, default: [:]][found, default: 0] += 1
            return found
        }
        var possessor: Int?
        if let called = vocatives[q].first(where: isPossessor) {
            // `"My dear Mr. Bennet," said his lady to him`: his is the man she speaks to.
            if let found = kin(of: called) { return found }
            possessor = called
        } else {
            // Her is the last woman the narration names, or the one before her if she has
            // such a relative ("Mr. Highcamp ..., while his wife was saying to Alcée Arobin");
            // failing those, one who spoke just before (`"…," said John Knightley. / "Yes,"
            // said his brother`).
            var e = lowerBound(narrationEvents, position) - 1
            var tried: [Int] = []
            while e >= 0, tried.count < 2, position - narrationEvents[e].position < 1500 {
                let c = narrationEvents[e].entity
                e -= 1
                guard isPossessor(c), isPerson(c), !tried.contains(c) else { continue }
                if let found = kin(of: c) { return found }
                tried.append(c)
            }
            possessor = tried.first
            for k in stride(from: q - 1, through: max(0, q - 3), by: -1) where quotes[q].paragraph - quotes[k].lastParagraph <= 3 {
                let previous = speakers[k].entity
                if !tried.contains(previous), isPossessor(previous), let found = kin(of: previous) { return found }
            }
        }
        guard let roleGender else { return -1 }
        // "said his father" beside "Father William", "her aunt" beside "Aunt Juley".
        let titled = entities.indices.filter { entities[$0].kind == .named && entities[$0].titles[noun] != nil }
        if let bearer = CharacterClusterer.mostTitled(titled, title: noun, entities: entities) { return bearer }
        // A named person is likelier right than a role no one else in the book is.
        if let possessor, roleGender != .unknown {
            let person = resolvePronoun(roleGender, quote: q, position: position, speakers: speakers)
            if person >= 0, person != possessor, mayBeRelative(person, of: possessor, noun: noun) { kinGuessed = true; return person }
        }
        return roleEntityIndex(key: roleKey, display: roleKey, gender: roleGender, position: position)
    }

    /// "I met the nursemaid, and inquired after her master. '...,' she replied": a role of the
    /// pronoun's gender written in the narration leading into the quote (its paragraph, or the
    /// narration paragraph before) is the referent when nobody of that gender is named there and
    /// no he/she of that gender comes before it (then it is an object: "She turned to the woman").
    /// The first such role is the one introduced ("a grey-headed old man ... He looked like an old soldier").
    func introducedRole(_ gender: Gender, quote q: Int) -> TagSubject? {
        let paragraph = quotes[q].paragraph
        let end = quoteTokens[q].lowerBound
        // Narration before the quote in its paragraph, or (the quote opens it) the paragraph before.
        guard end > 0, tokens[end - 1].quote < 0, tokens[end - 1].paragraph >= paragraph - 1 else { return nil }
        let stretchParagraph = tokens[end - 1].paragraph
        var start = end
        while start > 0, tokens[start - 1].paragraph == stretchParagraph {
            guard tokens[start - 1].quote < 0 else { return nil }
            start -= 1
        }
        let pronouns = gender == .female ? Lexicon.femalePronouns : Lexicon.malePronouns
        var found: TagSubject?
        var i = start
        while i < end {
            if namesPerson(at: i, gender: gender) { return newcomer(gender, before: end, from: start) }
            if found == nil, pronouns.contains(tokens[i].lower) { return newcomer(gender, before: end, from: start) }
            if ["a", "an", "the"].contains(tokens[i].lower), let (subject, subjectEnd) = describedRole(at: i, gender: gender) {
                // "the General" is a role title the story names: someone known, not introduced.
                if (i..<subjectEnd).contains(where: { namesPerson(at: $0, gender: gender) }) { return nil }
                // Later role phrases re-describe the first ("a man who ...", "an old soldier").
                if found == nil { found = subject }
                i = subjectEnd
                continue
            }
            i += 1
        }
        return found
    }

    /// "An old woman came and opened it. / '…,' I said. / She stared at me. / '…?'": a person the
    /// narration brought in as a clause's subject with an indefinite ("A man leaned over …") is the
    /// newest person of that gender in the scene, and he/she is that person until the narration
    /// names someone of that gender again (searched back over the narration of the last 3,000
    /// characters; a name of that gender, or a description opening a sentence, ends the search).
    private func sceneNewcomer(_ gender: Gender, quote q: Int) -> TagSubject? {
        let startPosition = quotes[q].start
        var i = quoteTokens[q].lowerBound - 1
        while i > 0, startPosition - tokens[i].start < 3000 {
            defer { i -= 1 }
            guard tokens[i].quote < 0 else { continue }
            if namesPerson(at: i, gender: gender) { return nil }
            // "The child, who was diminutive …": a definite description re-describes someone; the
            // other rules read it.
            if case .role(let key, let display, let roleGender, let written)? = presentPerson(at: i) {
                // Someone else is present ("The concierge stood there waiting"): with no gender to
                // tell, the other rules decide.
                return roleGender == gender ? .role(key: key, display: display, gender: roleGender, written: written) : nil
            }
            if tokens[i].lower == "the", tokens[i].sentenceInitial, case .role? = subject(at: i, paragraph: tokens[i].paragraph)?.0 { return nil }
            guard let found = introduction(at: i), found.asSubject, found.gender == gender else { continue }
            return redescribed(found.role, gender: gender, from: found.end, to: quoteTokens[q].lowerBound) ?? found.role
        }
        return nil
    }

    /// An indefinite description at token `i` that brings a person in, as a clause's subject ("An
    /// old woman came and opened it") or by a "who" clause ("a priest who was coming back"). A
    /// subject opens its sentence or a clause joined by a conjunction; after a comma an indefinite
    /// is as often a predicate ("she was, in reality, a kind-hearted woman").
    private func introduction(at i: Int) -> (role: TagSubject, end: Int, gender: Gender, asSubject: Bool)? {
        guard i > 0, ["a", "an"].contains(tokens[i].lower), let (role, end) = subject(at: i, paragraph: tokens[i].paragraph),
              case .role(let key, _, let gender, let written) = role, isDescription(written), !key.hasSuffix(" voice"),
              end < tokens.count, tokens[end].isWord, !tokens[end].isCapitalized else { return nil }
        let asSubject = (tokens[i].sentenceInitial || Self.subjectOpeners.contains(tokens[i - 1].lower)) && !Self.prepositions.contains(tokens[end].lower)
        guard asSubject || tokens[end].lower == "who" else { return nil }
        return (role, end, gender, asSubject)
    }

    /// The person the narration brings in (`introduction(at:)`) in the 1,500 characters before
    /// token `end`, the start of a run of dialogue, with no one named after it.
    private mutating func runNewcomer(before end: Int) -> Int? {
        var i = end - 1
        while i > 0, end - i < 400, tokens[end].start - tokens[i].start < 1500 {
            defer { i -= 1 }
            guard tokens[i].quote < 0 else { continue }
            if mentionAt[i] >= 0, mentionEntity[Int(mentionAt[i])] >= 0, isPerson(mentionEntity[Int(mentionAt[i])]) { return nil }
            // "the man" is anyone: a bare generic head is left to the rules for descriptions.
            guard let found = introduction(at: i), found.gender != .unknown, case .role(let key, let display, let gender, let written) = found.role,
                  !Self.genericHeads.contains(String(key.dropFirst(4))) else { continue }
            let role = resolveRole(key: key, display: display, gender: gender, written: written, position: tokens[i].start)
            entities[role].introduced = true
            return role
        }
        return nil
    }

    /// "The guard spat in the dust": a person the narration calls by a noun it uses of people
    /// (not a generic one), as a sentence's subject, is someone present.
    private func presentPerson(at i: Int) -> TagSubject? {
        guard tokens[i].lower == "the", tokens[i].sentenceInitial, i + 2 < tokens.count, tokens[i + 1].isWord, !tokens[i + 1].isCapitalized,
              tokens[i + 2].isWord, !tokens[i + 2].isCapitalized, !Self.prepositions.contains(tokens[i + 2].lower),
              !Self.clauseWords.contains(tokens[i + 2].lower) || ["was", "had"].contains(tokens[i + 2].lower) else { return nil }
        let noun = tokens[i + 1].lower
        guard namesPeople(noun), Self.canHeadRole(noun), !Self.genericHeads.contains(noun),
              !Lexicon.isAgeCue(noun), !noun.hasSuffix("s") || noun.hasSuffix("ss") else { return nil }
        let key = "the " + noun
        return .role(key: key, display: key, gender: Lexicon.roleNouns[noun] ?? GenderAgeInference.nounGender(noun) ?? .unknown, written: key)
    }

    /// "A man leaned over … / … / He was an old man, as brown as the others": the narration's
    /// own "he was a …" about the newcomer says who he is; that description names the role.
    private func redescribed(_ subject: TagSubject, gender: Gender, from start: Int, to end: Int) -> TagSubject? {
        let pronoun = gender == .female ? "she" : "he"
        var k = start
        while k + 3 < end {
            defer { k += 1 }
            guard tokens[k].quote < 0, tokens[k].sentenceInitial, tokens[k].lower == pronoun, tokens[k + 1].lower == "was",
                  ["a", "an"].contains(tokens[k + 2].lower), let (description, _) = describedRole(at: k + 2, gender: gender) else { continue }
            return description
        }
        return nil
    }

    /// "There was no sign of Poirot. As I walked away, I met an aged rustic, who leered at me.
    /// '...,' he asked": someone brought in with an indefinite in the last sentence before the quote,
    /// with no name or he/she of that gender after it, is the newest person there.
    private func newcomer(_ gender: Gender, before end: Int, from start: Int) -> TagSubject? {
        var sentenceStart = end - 1
        while sentenceStart > start, !tokens[sentenceStart].sentenceInitial { sentenceStart -= 1 }
        let pronouns = gender == .female ? Lexicon.femalePronouns : Lexicon.malePronouns
        var found: TagSubject?
        var subjectSeen = false  // someone of that gender came first in the sentence
        var i = sentenceStart
        while i < end {
            let word = tokens[i].lower
            if pronouns.contains(word) {
                if found != nil, !word.hasSuffix("self") { return nil }
                subjectSeen = true
            }
            // "…, and as I went out the porter stopped me": a new clause has a subject of its own.
            if word == ";" || (word == "and" || word == "but") && i > 0 && tokens[i - 1].lower == "," { subjectSeen = false }
            var role: (TagSubject, end: Int)?
            if namesPerson(at: i, gender: gender) {
                found = nil
                subjectSeen = true
            } else if word == "the", !subjectSeen {
                // "the porter stopped me to brush off my coat": the sentence's first person of that
                // gender, not one after another ("He turned to the porter", "Marilla found the girl taller").
                role = describedRole(at: i, gender: gender)
            } else if bringsIn(at: i) {
                role = describedRole(at: i, gender: gender) ?? personBeforeWho(at: i, gender: gender)
            }
            if let (subject, subjectEnd) = role {
                found = subject
                i = subjectEnd
            } else {
                i += 1
            }
        }
        return found
    }

    /// A role of `gender` described at token `i` ("a grey-headed old man", "the porter"), not a
    /// voice nor a clause that reaches a role noun.
    private func describedRole(at i: Int, gender: Gender) -> (TagSubject, end: Int)? {
        guard let (subject, end) = subject(at: i, paragraph: tokens[i].paragraph),
              case .role(let key, _, let roleGender, let written) = subject, roleGender == gender, isDescription(written),
              !key.hasSuffix(" voice") else { return nil }
        return (subject, end)
    }

    /// A name at token `i` of a person of `gender` (or of unknown gender) who could be speaking.
    private func namesPerson(at i: Int, gender: Gender) -> Bool {
        guard mentionAt[i] >= 0, case let e = mentionEntity[Int(mentionAt[i])], e >= 0 else { return false }
        return genders[e] == gender || genders[e] == .unknown && isPerson(e)
    }

    /// "an aged rustic, who leered at me": a noun phrase a "who" clause follows is a person,
    /// whatever its noun (the role nouns of the lexicon need not list it).
    private func personBeforeWho(at i: Int, gender: Gender) -> (TagSubject, end: Int)? {
        var words: [String] = []
        var j = i + 1
        while j < tokens.count, words.count < 4, tokens[j].isWord, tokens[j].quote < 0, tokens[j].paragraph == tokens[i].paragraph,
              !Self.clauseWords.contains(tokens[j].lower), !tokens[j].isCapitalized {
            words.append(tokens[j].lower); j += 1
        }
        guard let head = words.last, Self.canHeadRole(head), !head.hasSuffix("ly") else { return nil }
        var k = j
        if k < tokens.count, tokens[k].lower == "," { k += 1 }
        guard k < tokens.count, tokens[k].lower == "who" else { return nil }
        let key = roleKey("the", modifiers: words.dropLast(), head: head)
        return (.role(key: key, display: key, gender: gender, written: writtenPhrase(i..<j)), j)
    }

    /// "A maid ... entered the room. ... '...,' insisted the young woman": a generic definite
    /// description (woman, man, girl ...) takes up the person the narration of the last three
    /// paragraphs introduced with an indefinite role noun of a compatible gender, when the tag is
    /// the description's first.
    func introducedAntecedent(of key: String, gender: Gender, quote q: Int) -> TagSubject? {
        let words = key.split(separator: " ")
        guard words.first == "the", let head = words.last, Self.genericHeads.contains(String(head)) else { return nil }
        // Only a description's first use: one used before names someone already known ("the old lady").
        if let known = roleEntity[key], entities[known].firstPosition < quotes[q].start { return nil }
        let firstParagraph = quotes[q].paragraph - 3
        var i = quoteTokens[q].lowerBound - 1
        while i >= 0, tokens[i].paragraph >= firstParagraph {
            defer { i -= 1 }
            guard tokens[i].quote < 0, tokens[i].lower == "a" || tokens[i].lower == "an",
                  let (subject, _) = subject(at: i, paragraph: tokens[i].paragraph),
                  case .role(let otherKey, _, let otherGender, let written) = subject, isDescription(written),
                  let otherHead = otherKey.split(separator: " ").last, !Self.genericHeads.contains(String(otherHead)),
                  otherGender == gender || otherGender == .unknown || gender == .unknown else { continue }
            return subject
        }
        return nil
    }

    /// "'Anything new up in town, Ben?' asked the game-keeper. / '...,' replied the man": a
    /// description answering a turn that called one person by name is that person, when the
    /// turn before is the previous paragraph's and its speaker is someone else.
    func addressee(answeredBy q: Int, gender: Gender, speakers: [Attribution]) -> Int? {
        guard q > 0, quotes[q - 1].lastParagraph == quotes[q].paragraph - 1 else { return nil }
        var called: Set<Int> = []
        var k = q - 1
        while k >= 0, quotes[k].lastParagraph == quotes[q - 1].lastParagraph || quotes[k].paragraph == quotes[q - 1].paragraph {
            called.formUnion(vocatives[k]); k -= 1
        }
        let candidates = called.filter { c in
            entities[c].kind == .named && isPerson(c) && c != speakers[q - 1].entity
                && (gender == .unknown || genders[c] == .unknown || genders[c] == gender)
        }
        return candidates.count == 1 ? candidates.first : nil
    }

    /// The quote's tag says it answers ("replied the man", "the other returned").
    private func answers(_ q: Int) -> Bool {
        var k = quoteTokens[q].upperBound, words = 0
        while k < tokens.count, words < 5, tokens[k].quote < 0, tokens[k].paragraph == quotes[q].lastParagraph {
            if tokens[k].isWord {
                if Self.answerVerbs.contains(tokens[k].lower) { return true }
                words += 1
            }
            k += 1
        }
        return false
    }

    private static let answerVerbs: Set<String> = ["replied", "returned", "answered", "rejoined", "retorted", "responded"]

    /// "They encountered a stout man with a bunch of keys. / '...,' said the man": a bare generic
    /// description in a tag takes up the person the scene brought in with an indefinite of the same
    /// noun and a description of its own, a new referent, not the book's other men. The nearest such
    /// introduction within the last twenty paragraphs counts; a bare one ("a man") leaves the role
    /// as it is, and a predicate ("he was a good man") introduces nobody.
    func sceneIntroduction(of written: String, quote q: Int) -> TagSubject? {
        let words = written.lowercased().split(separator: " ")
        guard words.count == 2, words[0] == "the", Self.genericHeads.contains(String(words[1])) else { return nil }
        let head = String(words[1])
        let firstParagraph = quotes[q].paragraph - 20
        var i = quoteTokens[q].lowerBound - 1
        while i >= 0, tokens[i].paragraph >= firstParagraph {
            defer { i -= 1 }
            // (Nor the second of a repeated one: "he was an old man an old man".)
            guard tokens[i].quote < 0, bringsIn(at: i), i == 0 || tokens[i - 1].lower != head,
                  let (subject, end) = subject(at: i, paragraph: tokens[i].paragraph),
                  case .role(_, _, let gender, let introduction) = subject, isDescription(introduction) else { continue }
            let phrase = introduction.lowercased().split(separator: " ").map(String.init)
            guard phrase.last == head else { continue }
            if let named = nameGiven(after: end, before: quoteTokens[q].lowerBound) { return .entity(named) }
            let modifiers = phrase.dropFirst().dropLast()
            guard !modifiers.isEmpty else { return nil }
            let key = "the " + modifiers.joined(separator: " ") + " " + head
            return .role(key: key, display: key, gender: gender, written: introduction)
        }
        return nil
    }

    /// "a young barefooted Spanish girl ... Her name was Mariequita": the person named in the
    /// narration that follows an introduction (within its next two paragraphs).
    private func nameGiven(after start: Int, before limit: Int) -> Int? {
        guard start < limit else { return nil }
        let lastParagraph = tokens[start].paragraph + 1
        var k = start
        while k + 2 < limit, tokens[k].paragraph <= lastParagraph {
            defer { k += 1 }
            guard tokens[k].quote < 0, tokens[k].lower == "name", ["was", "is"].contains(tokens[k + 1].lower),
                  mentionAt[k + 2] >= 0, case let named = mentionEntity[Int(mentionAt[k + 2])], named >= 0,
                  entities[named].kind == .named else { continue }
            return named
        }
        return nil
    }

    /// An indefinite that brings someone in: "a"/"an", not after a word that says it of someone
    /// already there ("he was an old man", "like those of an old man", "for a gentleman who").
    private func bringsIn(at i: Int) -> Bool {
        (tokens[i].lower == "a" || tokens[i].lower == "an") && (i == 0 || !Self.predicateWords.contains(tokens[i - 1].lower))
    }

    private static let predicateWords: Set<String> = [
        "was", "is", "were", "are", "be", "been", "being", "seemed", "seems", "looked", "looks", "became", "become",
        "like", "as", "such", "what", "quite", "rather", "of", "than", "for",
    ]

    private static let genericHeads: Set<String> = ["woman", "man", "lady", "gentleman", "girl", "boy", "person", "creature"]

    /// A determiner, modifiers and the role noun ("a grey-headed old man"), not a clause that
    /// reaches a role noun ("the upshot was that the grandmother", "the entrance of her father").
    private func isDescription(_ written: String) -> Bool {
        let modifiers = written.split(separator: " ").dropFirst().dropLast()
        return !modifiers.contains { Self.clauseWords.contains(String($0)) }
    }

    private static let clauseWords: Set<String> = [
        "the", "a", "an", "of", "was", "is", "were", "that", "his", "her", "its", "their", "my", "our", "your", "in", "on",
        "at", "to", "and", "or", "but", "with", "by", "from", "for", "as", "who", "which", "had", "has", "been", "he", "she", "it",
    ]

    /// "Theodosia, the nursemaid, approached ... 'Very well,' replied the nursemaid": a role
    /// noun set in apposition to a name shortly before its tag is that named person.
    func appositiveName(of key: String, before position: Int) -> Int? {
        guard let head = key.split(separator: " ").last.map(String.init) else { return nil }
        var e = lowerBound(narrationEvents, position) - 1
        while e >= 0, position - narrationEvents[e].position < 1500 {
            let entity = narrationEvents[e].entity, m = mentionAt[narrationEventTokens[e]]
            e -= 1
            guard entity >= 0, m >= 0, entities[entity].kind == .named else { continue }
            var j = mentions[Int(m)].endToken
            guard j + 2 < tokens.count, tokens[j].lower == ",", ["the", "a", "an", "his", "her"].contains(tokens[j + 1].lower) else { continue }
            j += 2
            let paragraph = tokens[j].paragraph
            for k in j..<min(tokens.count - 1, j + 3) {
                guard tokens[k].isWord, tokens[k].paragraph == paragraph, tokens[k].quote < 0 else { break }
                if !tokens[k + 1].isWord {
                    if tokens[k].lower == head { return entity }
                    break
                }
            }
        }
        return nil
    }

    /// The role a tag describes, keeping "said a man who ...", "said the pink lady" — the
    /// description as written is how the reader knows this person — as an alias of "the man".
    private mutating func resolveRole(key: String, display: String, gender: Gender, written: String, position: Int) -> Int {
        let role = roleEntityIndex(key: key, display: display, gender: gender, position: position)
        if written != key, isDescription(written), entities[role].kind == .role, !entities[role].descriptions.contains(written) {
            entities[role].descriptions.append(written)
        }
        return role
    }

    /// Scores the people a he/she tag may refer to: recent mentions (more if in the same
    /// paragraph or a sentence's subject), people who have spoken already, the person the previous turn
    /// addressed; the previous turn's speaker loses points when this is a new paragraph.
    /// "he" and "she": a lead-in that names someone and then says "she" may be about another.
    private static let subjectPronouns: [Gender: String] = [.male: "he", .female: "she"]

    mutating func resolvePronoun(_ gender: Gender, quote q: Int, position: Int, speakers: [Attribution]) -> Int {
        let paragraph = quotes[q].paragraph
        // No one addresses themselves: whoever the turn's quotes call by name is not its speaker.
        var excluded = Set(vocatives[q])
        var k = q - 1
        while k >= 0, quotes[k].paragraph == paragraph { excluded.formUnion(vocatives[k]); k -= 1 }
        k = q + 1
        while k < quotes.count, quotes[k].paragraph == paragraph { excluded.formUnion(vocatives[k]); k += 1 }
        var score: [Int: Double] = [:]
        func eligible(_ c: Int) -> Bool {
            c >= 0 && genders[c] == gender && isPerson(c) && entities[c].kind != .narrator && !entities[c].isGroup && !excluded.contains(c)
        }
        var e = lowerBound(narrationEvents, position) - 1
        var rank = 0
        var seen: Set<Int> = []
        // "…introduced him as Robert Prentiss. He was from New York. / 'Thanks,' he said": the
        // lead-in goes on about the one named last before its last "He", who is its centre.
        let chained = chainedReferent(gender, quote: q, eligible: eligible)
        if let chained { score[chained, default: 0] += 4.5 }
        var lastSubjectSeen = chained != nil
        while e >= 0, position - narrationEvents[e].position < 2500 {
            let tokenIndex = narrationEventTokens[e]
            let token = tokens[tokenIndex]
            // "Daisy's mother looked at him": the mother is who the sentence is about (Mrs. Miller).
            guard let c = kinAware(narrationEvents[e].entity, mentionAt: tokenIndex) else { e -= 1; continue }
            e -= 1
            guard eligible(c) else { continue }
            var s = 0.0
            if seen.insert(c).inserted { s += max(0, 3.0 - Double(rank)); rank += 1 }
            if token.paragraph == paragraph { s += 1.5 }
            if token.sentenceInitial { s += 0.75 }
            let isSubject = token.sentenceInitial || opensClause(mentionStart: tokenIndex)
            // A narration paragraph right before the quote's own ("Harriet blushed and smiled." /
            // "'Now he has got my letter,' said she") shows who is about to speak: its clause subjects
            // ("Emma had nothing more to say; and, after a pause, Mrs. Elton chose another subject.").
            if isSubject, token.paragraph == paragraph - 1, quoteTokens[q].lowerBound > 0,
               tokens[quoteTokens[q].lowerBound - 1].paragraph == paragraph - 1, tokens[quoteTokens[q].lowerBound - 1].quote < 0 {
                s += 1.5
                // The last of them is the centre of attention when the quote opens.
                if !lastSubjectSeen { s += 1.5; lastSubjectSeen = true }
            }
            // "Syme looked at the Professor. 'You are old,' he said.": the subject of the quote's
            // own lead-in is who goes on to speak, not the one it looks at.
            if isSubject || followsOpeningAdverb(tokenIndex), token.paragraph == paragraph, tokenIndex < quoteTokens[q].lowerBound,
               !(tokenIndex + 1..<quoteTokens[q].lowerBound).contains(where: { Self.subjectPronouns[gender] == tokens[$0].lower }) { s += 3.0 }
            score[c, default: 0] += s
        }
        if q > 0 {
            let previous = speakers[q - 1].entity
            if quotes[q - 1].lastParagraph == paragraph - 1 {
                // Narration before the quote in its paragraph often shows the same person
                // going on ("She paused. 'Besides,' she said"): then no penalty.
                let lead = quoteTokens[q].lowerBound > 0 && tokens[quoteTokens[q].lowerBound - 1].paragraph == paragraph
                    && tokens[quoteTokens[q].lowerBound - 1].quote < 0
                if previous >= 0, score[previous] != nil, !lead { score[previous]! -= 3 }
                for v in vocatives[q - 1] where v != previous && eligible(v) { score[v, default: 0] += 4 }
                // Alternation: the speaker two turns back, when the dialogue runs A B A.
                if q > 1, quotes[q - 2].lastParagraph == quotes[q - 1].paragraph - 1 {
                    let twoBack = speakers[q - 2].entity
                    if twoBack != previous, eligible(twoBack) { score[twoBack, default: 0] += 2.5 }
                }
            } else if quotes[q - 1].lastParagraph == paragraph, previous >= 0, score[previous] != nil {
                score[previous]! += 2
            }
        }
        if score.isEmpty {
            // No one of that gender named lately (a long scene told in the first person, "she said"
            // throughout): the last person of that gender who spoke, else the last one named.
            var k = q - 1
            while k >= 0, q - k <= 60 {
                if speakers[k].evidence > .none, eligible(speakers[k].entity) { lastPronounMargin = 0; return speakers[k].entity }
                k -= 1
            }
            while e >= 0, position - narrationEvents[e].position < 20_000 {
                if eligible(narrationEvents[e].entity) { lastPronounMargin = 0; return narrationEvents[e].entity }
                e -= 1
            }
        }
        if let top = centralEntity[gender], score[top] != nil { score[top]! += 1 }
        for candidate in score.keys where spokenSoFar.contains(candidate) { score[candidate]! += 1 }
        let best = score.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }
        if let best { lastPronounMargin = best.value - (score.filter { $0.key != best.key }.values.max() ?? -.infinity) }
        return best?.key ?? -1
    }

    /// The person a he or she opening the last such sentence of quote `q`'s lead-in (its own
    /// paragraph's narration, or the narration paragraph before it) refers to, when no one of that
    /// gender is named after it: the last subject of the sentence before, else the last one it brings
    /// in (through sentences that open with the same pronoun: "He was from New York. He had …").
    private func chainedReferent(_ gender: Gender, quote q: Int, eligible: (Int) -> Bool) -> Int? {
        guard let pronoun = Self.subjectPronouns[gender] else { return nil }
        let paragraph = quotes[q].paragraph
        func inLeadIn(_ t: Int) -> Bool { t >= 0 && tokens[t].quote < 0 && tokens[t].paragraph >= paragraph - 1 }
        var t = quoteTokens[q].lowerBound - 1
        while inLeadIn(t), !(tokens[t].sentenceInitial && tokens[t].lower == pronoun) { t -= 1 }
        guard inLeadIn(t) else { return nil }
        var e = lowerBound(narrationEvents, quotes[q].start) - 1
        while e >= 0, narrationEvents[e].position > tokens[t].start {
            if eligible(narrationEvents[e].entity) { return nil }  // someone of that gender named after it
            e -= 1
        }
        while true {
            // The sentence before the one opening at `t`.
            var s0 = t - 1
            while inLeadIn(s0), !tokens[s0].sentenceInitial { s0 -= 1 }
            guard inLeadIn(s0) else { return nil }
            var subject: Int?, last: Int?
            var k = e
            while k >= 0, narrationEventTokens[k] >= s0 {
                let c = narrationEvents[k].entity
                if eligible(c) {
                    // Only one the sentence brings in ("introduced him as Robert Prentiss"): a name
                    // in passing ("out of the Queen's Hall") is seldom what a he or she goes on about.
                    if last == nil, c < entities.count, entities[c].firstPosition >= tokens[s0].start { last = c }
                    let token = narrationEventTokens[k]
                    if subject == nil, tokens[token].sentenceInitial || opensClause(mentionStart: token) { subject = c }
                }
                k -= 1
            }
            if let found = subject ?? last { return found }
            guard tokens[s0].lower == pronoun else { return nil }
            t = s0; e = k
        }
    }

    /// The most mentioned person of each gender: a tie-breaker for pronouns.
    private var centralEntity: [Gender: Int] {
        var result: [Gender: Int] = [:]
        for index in narrationCounts.indices where isPerson(index) && genders[index] != .unknown {
            if let current = result[genders[index]], narrationCounts[current] >= narrationCounts[index] { continue }
            result[genders[index]] = index
        }
        return result
    }

    private func lowerBound(_ events: [(position: Int, entity: Int)], _ position: Int) -> Int {
        var lo = 0, hi = events.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if events[mid].position < position { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    // MARK: the passes

    /// Marks which entities are people: titles, known given names, a known gender, roles, or
    /// the subject of a speech tag; but not names mostly used after "at", "in", "to", "from".
    private mutating func computePersonFlags() {
        var flags = entities.indices.map { index -> Bool in
            let entity = entities[index]
            if entity.kind != .named { return true }
            if entity.titles.keys.contains(where: { Lexicon.honorifics[$0] != nil && !NameMentionFinder.roleTitles.contains($0) }) { return true }
            if let given = entity.givenName, FirstNames.female.contains(given) || FirstNames.male.contains(given) || FirstNames.nicknames[given] != nil { return true }
            return genders[index] != .unknown
        }
        var located = Array(repeating: 0, count: entities.count), total = Array(repeating: 0, count: entities.count)
        for (index, mention) in mentions.enumerated() where !mention.inQuote && mentionEntity[index] >= 0 {
            let entity = mentionEntity[index]
            total[entity] += 1
            var before = mention.firstToken - 1
            // "at Green Gables": step over a capitalised word that is part of the place's name.
            if before > 0, tokens[before].isWord, tokens[before].isCapitalized, !tokens[before].sentenceInitial { before -= 1 }
            if before >= 0, ["at", "in", "to", "from", "into", "near", "of", "towards", "toward", "round", "through", "the"].contains(tokens[before].lower) {
                located[entity] += 1
            }
        }
        personFlags = flags
        for q in quotes.indices {
            if let (subject, strong) = tagAfter(q), strong, case .entity(let e) = subject { flags[e] = true }
        }
        for index in entities.indices where entities[index].kind == .named && entities[index].titles.isEmpty {
            if total[index] >= 3, located[index] * 10 >= total[index] * 3 { flags[index] = false }
        }
        personFlags = flags
    }

    mutating func attribute() -> [Attribution] {
        computePersonFlags()
        addRoleMentions()
        var result = Array(repeating: Attribution(), count: quotes.count)
        // Quoted thoughts stay quotes, in the thinker's voice; quoted terms, reported speech and
        // set-off verses inside narration do not (NonSpeechQuotes.swift).
        for q in quotes.indices where isNonSpeech(q) {
            result[q].evidence = .notSpeech
        }
        for q in letterQuotes() { result[q].evidence = .notSpeech }
        var weak: [(TagSubject, Int)?] = Array(repeating: nil, count: quotes.count)
        // 1. Tags beside each quote.
        for q in quotes.indices where result[q].evidence != .notSpeech {
            if let name = quotes[q].scriptSpeaker {
                let key = name.lowercased()
                result[q] = Attribution(entity: roleEntityIndex(key: "script " + key, display: name, gender: .unknown, position: quotes[q].start), evidence: .script)
                continue
            }
            var found: (TagSubject, strong: Bool)?
            var position = quotes[q].start
            if let after = tagAfter(q) {
                found = after
            }
            // `"A," said X, "B."`: the narration between the parts is the first part's tag.
            // Not when a sentence of its own starts between them (`"A?" exclaimed a nephew. Uncle
            // Ernst replied, "B."`): that one is B's lead-in.
            let between = q > 0 ? min(quoteTokens[q - 1].upperBound + 1, quoteTokens[q].lowerBound)..<quoteTokens[q].lowerBound : 0..<0
            let opensSentence = between.contains { tokens[$0].sentenceInitial && tokens[$0].isCapitalized }
            // Read once, and only where it is used: without a strong tag after, or for a sentence between.
            let before = found?.strong != true || opensSentence ? tagBefore(q) : nil
            let ownLeadIn = opensSentence && (before?.strong ?? false)
            let sharesTag = q > 0 && quotes[q - 1].lastParagraph == quotes[q].paragraph && (tagAfter(q - 1)?.strong ?? false) && !ownLeadIn
            if found == nil || found!.strong == false, !sharesTag, let before, before.strong {
                found = before
            }
            if sharesTag, found?.strong != true, result[q - 1].evidence >= .pronounTagClose {
                result[q] = result[q - 1]
                continue
            }
            if let (subject, strong) = found, strong {
                let entity = resolve(subject, position: position, quote: q, speakers: result)
                if entity >= 0 {
                    spokenSoFar.insert(entity)
                    // Two people of the tag's gender scoring close: a weaker pronoun tag.
                    if case .pronoun = subject { result[q] = Attribution(entity: entity, evidence: lastPronounMargin < 1 ? .pronounTagClose : .pronounTag) }
                    else if case .kin = subject, kinGuessed { result[q] = Attribution(entity: entity, evidence: .pronounTagClose) }
                    else { result[q] = Attribution(entity: entity, evidence: .namedTag) }
                }
            } else if let (subject, _) = found ?? before {
                position = quotes[q].start
                weak[q] = (subject, position)
            }
        }
        // 2. Other quotes of the same paragraph share a tagged speaker.
        var byParagraph: [Int: Int] = [:]
        for q in quotes.indices where result[q].evidence >= .pronounTagClose {
            if byParagraph[quotes[q].paragraph] == nil { byParagraph[quotes[q].paragraph] = q }
            if byParagraph[quotes[q].lastParagraph] == nil { byParagraph[quotes[q].lastParagraph] = q }
        }
        for q in quotes.indices where result[q].evidence == .none {
            if let source = byParagraph[quotes[q].paragraph] ?? byParagraph[quotes[q].lastParagraph] {
                result[q] = Attribution(entity: result[source].entity, evidence: .continuation)
            }
        }
        // 3. The character whose action the paragraph describes.
        for q in quotes.indices where result[q].evidence == .none {
            guard let (subject, position) = weak[q] else { continue }
            let entity = resolve(subject, position: position, quote: q, speakers: result)
            if entity >= 0, isPerson(entity), !vocatives[q].contains(entity) {
                result[q] = Attribution(entity: entity, evidence: .action)
            }
        }
        // 4. Turn-taking in runs of dialogue paragraphs.
        turnTaking(&result)
        identifyVoices(&result)
        // 5. A role that gives its name ("What's your name?" / "Anne Shirley," faltered the child)
        // is that person from then on, and was before.
        for (role, person) in introductions(result) {
            for q in result.indices where result[q].entity == role { result[q].entity = person }
        }
        // A role that says who it is ("I am Griffin, of University College") is that person in
        // the scene it says so (a description like "the man" is someone else elsewhere).
        for q in result.indices where result[q].entity >= 0 && entities[result[q].entity].kind == .role {
            let role = result[q].entity
            guard let person = nameSaid(inQuote: q), compatible(role, person) else { continue }
            for k in max(0, q - Self.sceneQuotes)...min(result.count - 1, q + Self.sceneQuotes) where result[k].entity == role { result[k].entity = person }
        }
        // One a tag names who says they are another name ("I am the Invisible Man," said
        // Griffin) is also that name, everywhere: a name, unlike "the man", is one person.
        for q in result.indices where result[q].evidence == .namedTag && result[q].entity >= 0 && entities[result[q].entity].kind == .named {
            let speaker = result[q].entity
            guard let other = nameSaid(inQuote: q, afterArticle: true), other != speaker, compatible(speaker, other),
                  !vocatives[q].contains(other), result.contains(where: { $0.entity == other }) else { continue }
            for (key, _) in entities[other].formCounts where entities[speaker].formCounts[key] == nil {
                entities[speaker].formCounts[key] = 0
                entities[speaker].formDisplay[key] = entities[other].formDisplay[key]
            }
            for k in result.indices where result[k].entity == other { result[k].entity = speaker }
        }
        // 6. "replied her mother" where "her" has no surname (Elinor): the mother the book's
        // other such tags name, when they nearly all name one.
        for (key, targets) in kinResolved {
            guard let role = roleEntity[key], entities[role].kind == .role,
                  let (person, count) = targets.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }),
                  count >= 2, count * 4 >= targets.values.reduce(0, +) * 3 else { continue }
            for q in result.indices where result[q].entity == role { result[q].entity = person }
        }
        return result
    }

    /// Roles that answer a question about their name with a name alone: role → named entity.
    private func introductions(_ result: [Attribution]) -> [Int: Int] {
        var found: [Int: Int] = [:]
        for q in quotes.indices where q > 0 {
            let role = result[q].entity
            guard role >= 0, entities[role].kind == .role, found[role] == nil else { continue }
            let words = quoteTokens[q].filter { tokens[$0].isWord }
            guard (1...3).contains(words.count), words.allSatisfy({ tokens[$0].isCapitalized }),
                  mentionAt[words[0]] >= 0 else { continue }
            guard mentionEntity[Int(mentionAt[words[0]])] >= 0 else { continue }
            let person = mentionEntity[Int(mentionAt[words[0]])]
            guard entities[person].kind == .named, compatible(role, person) else { continue }
            let asked = quoteTokens[q - 1].map { tokens[$0].lower }
            guard asked.contains("name"), asked.contains("?") else { continue }
            found[role] = person
        }
        return found
    }

    /// How many quotes either side of a self-introduction are the scene it names its speaker in.
    private static let sceneQuotes = 30

    private func compatible(_ a: Int, _ b: Int) -> Bool { genders[a].admits(genders[b]) }

    /// The person a quote's speaker says they are: "I am Griffin", "I'm Jones", "my name is
    /// Hall", and with `afterArticle` "I am the Invisible Man" (not "I am Mrs. Hall's servant").
    private func nameSaid(inQuote q: Int, afterArticle: Bool = false) -> Int? {
        let words = quoteTokens[q].filter { tokens[$0].isWord }
        for (k, i) in words.enumerated() {
            let lower = tokens[i].lower
            // "if I'm Mabel, I'll stay down here": a supposition, not who the speaker is.
            if k > 0, ["if", "suppose", "unless", "though"].contains(tokens[words[k - 1]].lower) { continue }
            let rest: Int
            if lower == "i'm" { rest = k + 1 }
            else if lower == "i", k + 1 < words.count, tokens[words[k + 1]].lower == "am" { rest = k + 2 }
            else if lower == "my", k + 2 < words.count, tokens[words[k + 1]].lower == "name", ["is", "was"].contains(tokens[words[k + 2]].lower) { rest = k + 3 }
            else { continue }
            let skip = afterArticle && rest + 1 < words.count && tokens[words[rest]].lower == "the" ? 1 : 0
            guard rest + skip < words.count, case let start = words[rest + skip], tokens[start].isCapitalized, mentionAt[start] >= 0 else { continue }
            let mention = mentions[Int(mentionAt[start])]
            let person = mentionEntity[Int(mentionAt[start])]
            guard person >= 0, person < entities.count, entities[person].kind == .named, !tokens[mention.endToken - 1].isPossessive else { continue }
            return person
        }
        return nil
    }

    /// Roles that speak ("said the old lady") are mentioned in narration too ("the old lady
    /// turned"): those mentions make them candidates for he/she tags and run participants.
    private mutating func addRoleMentions() {
        var tagged: [Int: Int] = [:]
        var tagPhrases: [(entity: Int, token: Int)] = []
        for q in quotes.indices {
            for (tag, after) in [(tagAfter(q), true), (tagBefore(q), false)] {
                if let (subject, strong) = tag, strong, case .role(let key, let display, let gender, _) = subject {
                    let entity = roleEntityIndex(key: key, display: display, gender: gender, position: quotes[q].start)
                    tagged[entity, default: 0] += 1
                    if let token = tagPhrase(of: key, quote: q, after: after) { tagPhrases.append((entity, token)) }
                }
            }
        }
        var events = zip(narrationEvents, narrationEventTokens).map { ($0.position, $0.entity, $1) }
        var counts = narrationCounts + Array(repeating: 0, count: max(0, entities.count - narrationCounts.count))
        // A tag mentions its speaker too ("A man leaned over ... and asked:" / "'I been there,' he said").
        // (The definite ones of roles tagged three times or more are counted below.)
        for (entity, token) in tagPhrases where tagged[entity, default: 0] < 3 || tokens[token].lower != "the" {
            events.append((tokens[token].start, entity, token))
            counts[entity] += 1
        }
        for i in tokens.indices where tokens[i].quote < 0 && tokens[i].lower == "the" {
            guard let (subject, _) = subject(at: i, paragraph: tokens[i].paragraph),
                  case .role(let key, _, _, _) = subject, let entity = roleEntity[key], entities[entity].kind == .role,
                  tagged[entity, default: 0] >= 3 else { continue }
            events.append((tokens[i].start, entity, i))
            counts[entity] += 1
        }
        events.sort { $0.0 < $1.0 }
        narrationEvents = events.map { ($0.0, $0.1) }
        narrationEventTokens = events.map(\.2)
        narrationCounts = counts
    }

    /// The first token of the role phrase of quote `q`'s tag after it (a few words on) or
    /// before it (its paragraph's narration, or the narration paragraph leading into it).
    private func tagPhrase(of key: String, quote q: Int, after: Bool) -> Int? {
        var range: Range<Int>
        if after {
            let start = quoteTokens[q].upperBound
            range = start..<min(tokens.count, start + 8)
        } else {
            let end = quoteTokens[q].lowerBound
            var start = end
            while start > 0, tokens[start - 1].quote < 0, tokens[start - 1].paragraph >= quotes[q].paragraph - 1 { start -= 1 }
            range = start..<end
        }
        for i in range where tokens[i].quote < 0 && ["the", "a", "an"].contains(tokens[i].lower) {
            if case .role(let found, _, _, _)? = subject(at: i, paragraph: tokens[i].paragraph)?.0, key.hasPrefix(found) { return i }
            if case .role(let found, _, _, _)? = invertedRole(at: i, paragraph: tokens[i].paragraph), key.hasPrefix(found) { return i }
        }
        return nil
    }

    /// Groups quotes into turns (one per paragraph) and runs (turns not separated by a
    /// narration-only paragraph), then fills unknown turns: first from the person addressed in
    /// the previous turn, then by alternation from the nearest known turn of the run.
    private mutating func turnTaking(_ result: inout [Attribution]) {
        var turns: [[Int]] = []
        for q in quotes.indices where result[q].evidence != .notSpeech {
            if let last = turns.last?.last, quotes[last].lastParagraph == quotes[q].paragraph { turns[turns.count - 1].append(q) }
            else { turns.append([q]) }
        }
        var runs: [Range<Int>] = []
        var runStart = 0
        for t in turns.indices where t > 0 {
            // A run survives one short narration paragraph ("Anne sighed.", up to ~120 characters).
            let gapStart = quotes[turns[t - 1].last!].lastParagraph + 1, gapEnd = quotes[turns[t][0]].paragraph
            let gapLength = (gapStart..<gapEnd).reduce(0) { $0 + text.paragraphs[$1].count }
            // ... but not one that reports a turn of its own ("I asked her what had happened."):
            // the next line answers it, and counting from the turn before would be off by one.
            let reported = gapEnd - gapStart == 1 && (quoteTokens[turns[t - 1].last!].upperBound..<quoteTokens[turns[t][0]].lowerBound).contains {
                tokens[$0].paragraph == gapStart && tokens[$0].quote < 0 && Self.reportingVerbs.contains(tokens[$0].lower)
            }
            if gapEnd - gapStart > 1 || (gapEnd - gapStart == 1 && gapLength > 120) || reported {
                runs.append(runStart..<t); runStart = t
            }
        }
        if !turns.isEmpty { runs.append(runStart..<turns.count) }

        func speaker(_ turn: [Int]) -> Int {
            turn.map { result[$0] }.max { $0.evidence < $1.evidence }.map { $0.evidence == .none ? -1 : $0.entity } ?? -1
        }
        var spoken: Set<Int> = []
        var spokenUpTo = 0
        for run in runs {
            // Everyone attributed before this run.
            let firstQuote = turns[run.lowerBound][0]
            while spokenUpTo < firstQuote {
                if result[spokenUpTo].evidence > .none, result[spokenUpTo].entity >= 0 { spoken.insert(result[spokenUpTo].entity) }
                spokenUpTo += 1
            }
            var known = run.map { speaker(turns[$0]) }
            let fixed = known
            let addressedInOrder = run.map { turns[$0].flatMap { vocatives[$0] } }
            let addressed = addressedInOrder.map(Set.init)
            // People in the narration just before the run: likely participants when no turn is tagged.
            let runStartPosition = quotes[turns[run.lowerBound][0]].start
            // People who have already spoken come first: a name mentioned in passing rarely talks.
            var lead: [Int] = [], mentionedOnly: [Int] = []
            var e = lowerBound(narrationEvents, runStartPosition) - 1
            while e >= 0, runStartPosition - narrationEvents[e].position < 2000, lead.count < 2 {
                let candidate = narrationEvents[e].entity
                if isPerson(candidate), !lead.contains(candidate), !mentionedOnly.contains(candidate) {
                    if spoken.contains(candidate) { lead.append(candidate) } else { mentionedOnly.append(candidate) }
                }
                e -= 1
            }
            lead += mentionedOnly.prefix(max(0, 2 - lead.count))
            // "An old woman came and opened it. / '…,' I said": the person the narration brought in
            // just before the run is its likeliest other voice.
            if let newcomer = runNewcomer(before: quoteTokens[firstQuote].lowerBound) {
                lead.removeAll { $0 == newcomer }
                lead = Array(([newcomer] + lead).prefix(2))
            }
            // The other party: whoever else is tagged most often in the run (nearest on ties).
            var tagged: [Int: Int] = [:]
            for s in fixed where s >= 0 { tagged[s, default: 0] += 1 }
            let parties = tagged.count
            func other(than speaker: Int, near index: Int) -> Int {
                var bestSpeaker = -1, bestCount = 0, bestDistance = Int.max
                for (k, s) in fixed.enumerated() where s >= 0 && s != speaker {
                    let count = tagged[s] ?? 0, distance = abs(k - index)
                    if count > bestCount || (count == bestCount && distance < bestDistance) {
                        bestSpeaker = s; bestCount = count; bestDistance = distance
                    }
                }
                if bestSpeaker >= 0 { return bestSpeaker }
                for candidate in lead where candidate != speaker { return candidate }
                return -1
            }
            for i in known.indices where known[i] < 0 {
                var chosen = -1
                var evidence = AttributionEvidence.turnTaking
                // The last name a turn calls out is the one who answers it, if the story shows that
                // person anywhere but in what others say, or summons them ("Pat! Where are you?"):
                // "How do you do, Prascovia?" is Polina's full name, used by her grandmother only.
                func present(_ e: Int) -> Bool {
                    e < narrationCounts.count && narrationCounts[e] > 0 || entities[e].kind == .narrator || fixed.contains(e) || summoned.contains(e)
                }
                if i > 0, known[i - 1] >= 0, let target = addressedInOrder[i - 1].last(where: { $0 != known[i - 1] && !addressed[i].contains($0) }), present(target) {
                    chosen = target; evidence = .addressee
                } else if i + 1 < known.count, fixed[i + 1] >= 0,
                          let target = addressed[i + 1].sorted().first(where: { $0 != fixed[i + 1] && !addressed[i].contains($0) }), present(target),
                          !namedBetween(target, turns[run.lowerBound + i].last!, turns[run.lowerBound + i + 1][0]) {
                    // The reply names the person it answers: the speaker of this turn.
                    chosen = target; evidence = .addressee
                } else {
                    var before = i - 1
                    while before >= 0, fixed[before] < 0 { before -= 1 }
                    var after = i + 1
                    while after < known.count, fixed[after] < 0 { after += 1 }
                    let anchor: Int? = before >= 0 && (after >= known.count || i - before <= after - i) ? before : (after < known.count ? after : nil)
                    if let anchor {
                        let distance = abs(i - anchor)
                        // Tagged turns on both sides that two voices alternating would fit (X ? ? Y):
                        // the odd turns go to the other side's voice, not to the run's busiest one.
                        let opposite = anchor == before ? (after < known.count ? after : nil) : (before >= 0 ? before : nil)
                        if distance % 2 == 0 {
                            chosen = fixed[anchor]
                        } else if let opposite, fixed[opposite] != fixed[anchor], (after - before) % 2 == 1 {
                            chosen = fixed[opposite]
                        } else {
                            chosen = other(than: fixed[anchor], near: anchor)
                        }
                        if distance > 2 { evidence = .fallback }
                    } else if !lead.isEmpty {
                        chosen = lead[i % 2 == 0 || lead.count < 2 ? 0 : 1]
                        evidence = .fallback
                    }
                }
                if chosen >= 0, addressed[i].contains(chosen) {
                    chosen = other(than: chosen, near: i)
                    evidence = .fallback
                }
                // "..., madam." is answered by a woman; "..., sir?" asks a man, who answered the turn before.
                let fromPrevious = i > 0 ? addressGender(turns[run.lowerBound + i - 1]) : .unknown
                let fromNext = i + 1 < known.count ? addressGender(turns[run.lowerBound + i + 1]) : .unknown
                let expected = fromPrevious == .unknown ? fromNext : (fromNext == .unknown || fromNext == fromPrevious ? fromPrevious : .unknown)
                if expected != .unknown, chosen >= 0, genders[chosen] != .unknown, genders[chosen] != expected {
                    let previous = i > 0 ? known[i - 1] : -1
                    let byDistance = fixed.indices.filter { fixed[$0] >= 0 }.sorted { (abs($0 - i), $0) < (abs($1 - i), $1) }.map { fixed[$0] }
                    if let match = (byDistance + lead).first(where: { $0 != previous && genders[$0] == expected && !addressed[i].contains($0) }) {
                        chosen = match
                        evidence = .fallback
                    }
                }
                // Alternation among three or more tagged voices is much less sure.
                if parties >= 3, evidence == .turnTaking || evidence == .fallback { evidence = .crowdedTurn }
                if chosen >= 0 {
                    known[i] = chosen
                    for q in turns[run.lowerBound + i] { result[q] = Attribution(entity: chosen, evidence: evidence) }
                }
            }
        }
        // Whatever is still open is a guess: the one who spoke before the latest speaker (turns
        // alternate), else the latest speaker, never someone the turn addresses.
        for t in turns.indices where speaker(turns[t]) < 0 {
            let addressed = Set(turns[t].flatMap { vocatives[$0] })
            var latest = -1
            var k = t - 1
            while k >= 0, t - k <= 10 {
                let s = speaker(turns[k])
                if s >= 0, !addressed.contains(s) {
                    if latest < 0 { latest = s } else if s != latest { latest = s; break }
                }
                k -= 1
            }
            if latest >= 0 { for q in turns[t] { result[q] = Attribution(entity: latest, evidence: .guess) } }
        }
        // A quote left open in a turn whose other part has a speaker (`"No, Emma, ..." And soon
        // afterwards, "Jane Fairfax is ..."`) is that speaker's, one paragraph being one turn.
        for turn in turns {
            let s = speaker(turn)
            guard s >= 0 else { continue }
            for q in turn where result[q].evidence == .none { result[q] = Attribution(entity: s, evidence: .continuation) }
        }
    }

    /// The gender of the person a turn addresses as "sir" or "madam" (unknown when it uses none or both).
    private func addressGender(_ turn: [Int]) -> Gender {
        var male = false, female = false
        for q in turn {
            for t in quoteTokens[q] where tokens[t].isWord {
                let before = t > quoteTokens[q].lowerBound ? tokens[t - 1].lower : ","
                let after = t + 1 < quoteTokens[q].upperBound ? tokens[t + 1].lower : "."
                guard [",", "!", "?", ".", ";", "\u{2014}", "-"].contains(after), [",", "oh", "yes", "no", "my", "dear"].contains(before) || tokens[t].sentenceInitial else { continue }
                switch tokens[t].lower {
                case "sir", "monsieur", "signor", "lord": male = true
                case "madam", "ma'am", "madame", "mademoiselle", "miss", "lady": female = true
                default: break
                }
            }
        }
        return male == female ? .unknown : (male ? .male : .female)
    }

    /// Whether the narration between quotes `a` and `b` names `entity`: "So Pooh went off to find
    /// Owl. / 'Owl,' said Pooh" calls one the narration has just brought, not the last speaker.
    private func namedBetween(_ entity: Int, _ a: Int, _ b: Int) -> Bool {
        var e = lowerBound(narrationEvents, quotes[a].end)
        while e < narrationEvents.count, narrationEvents[e].position < quotes[b].start {
            if narrationEvents[e].entity == entity { return true }
            e += 1
        }
        return false
    }

    /// Verbs by which narration reports a turn of the conversation itself.
    static let reportingVerbs: Set<String> = ["asked", "inquired", "enquired", "told", "answered", "replied", "said", "questioned", "explained", "begged"]

    /// Whether an entity can be a speaker without a tag naming it: people with titles, known
    /// given names, pronoun evidence or a speech tag, and roles; not places.
    func isPerson(_ entity: Int) -> Bool {
        entity >= 0 && entity < personFlags.count ? personFlags[entity] : true
    }
}




