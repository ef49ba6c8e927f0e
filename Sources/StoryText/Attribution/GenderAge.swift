import StoryModel

/// Infers each entity's gender and age band from titles, given names, role nouns and the
/// pronouns that follow its mentions in narration.
struct GenderAgeInference {
    let tokens: [Token]
    let mentions: [NameMention]
    let mentionEntity: [Int]
    /// Token index → mention index, -1 where no mention starts.
    let mentionAt: [Int32]
    /// The last token of every mention: "Jane, Ruby and Moody" is no lone subject.
    let mentionEnds: Set<Int>

    init(tokens: [Token], mentions: [NameMention], mentionEntity: [Int], mentionAt: [Int32]) {
        self.tokens = tokens
        self.mentions = mentions
        self.mentionEntity = mentionEntity
        self.mentionAt = mentionAt
        self.mentionEnds = Set(mentions.map { $0.endToken - 1 })
    }

    struct Estimate: Sendable {
        var gender: Gender
        var genderConfidence: Double
        var age: AgeRange
        var ageConfidence: Double
    }

    /// Gender votes for each entity from the text around its mentions (`female`, `male`).
    ///
    /// Subject evidence comes first: when a mention is the subject of its clause (it opens the
    /// sentence or follows punctuation or a conjunction, and is not one of several names joined
    /// by "and"), a later he/she, a possessive his/her or a reflexive in the same sentence that
    /// continues that clause refers to it ("Potapitch spat upon his hands"; "Moody Spurgeon says he
    /// feels"); such a pronoun counts two votes, so one is enough. Object pronouns (him, an object her) in the subject's own clause never do (binding:
    /// "Potapitch remained in attendance upon her"), and a clause opened by that/who/which has a
    /// subject of its own, so the scan stops there. A role noun in apposition ("Theodosia, the
    /// nursemaid,") gives its gender with the weight of two such pronouns. Only an entity with no
    /// subject or apposition evidence falls back on the first pronoun after its narration
    /// mentions, which is often someone else's ("with Potapitch behind her").
    func pronounEvidence(entityCount: Int) -> [(female: Int, male: Int)] {
        var strong = Array(repeating: (female: 0, male: 0), count: entityCount)
        var weak = Array(repeating: (female: 0, male: 0), count: entityCount)
        for (index, mention) in mentions.enumerated() {
            let entity = mentionEntity[index]
            guard entity >= 0 else { continue }
            let paragraph = tokens[mention.firstToken].paragraph
            let quote = tokens[mention.firstToken].quote
            if let gender = appositionGender(after: mention.endToken, paragraph: paragraph, quote: quote) {
                if gender == .female { strong[entity].female += 4 } else { strong[entity].male += 4 }
            }
            if isClauseSubject(mention), let gender = subjectPronoun(after: mention) {
                if gender == .female { strong[entity].female += 2 } else { strong[entity].male += 2 }
            }
            guard !mention.inQuote else { continue }
            var j = mention.endToken
            let limit = min(tokens.count, j + 14)
            while j < limit {
                let t = tokens[j]
                if t.paragraph != paragraph || t.quote >= 0 || mentionAt[j] >= 0 { break }
                if Lexicon.neuterPronouns.contains(t.lower) { break }
                if Lexicon.femalePronouns.contains(t.lower) { weak[entity].female += 1; break }
                if Lexicon.malePronouns.contains(t.lower) { weak[entity].male += 1; break }
                j += 1
            }
        }
        return strong.indices.map { strong[$0].female + strong[$0].male > 0 ? strong[$0] : weak[$0] }
    }

    /// The first he/she/his/her/reflexive that continues the clause a subject opens, before
    /// another name or a clause with a subject of its own.
    func subjectPronoun(after mention: NameMention) -> Gender? {
        let paragraph = tokens[mention.firstToken].paragraph, quote = tokens[mention.firstToken].quote
        var j = mention.endToken
        let limit = min(tokens.count, j + 30)
        // "As the Caterpillar seemed …, she turned away": the subject of a fronted adverbial
        // clause; the main clause after its comma has a subject of its own.
        let start = phraseStart(mention)
        let subordinate = start > 0 && Self.subordinators.contains(tokens[start - 1].lower)
        while j < limit {
            let t = tokens[j]
            if t.paragraph != paragraph || t.quote != quote || mentionAt[j] >= 0 { return nil }
            if !t.isWord {
                if [".", "!", "?", ";", ":"].contains(t.lower) || subordinate && t.lower == "," { return nil }
                j += 1; continue
            }
            // "the Caterpillar took the hookah out of its mouth, and addressed her": an "it".
            if Self.clauseOpeners.contains(t.lower) || Lexicon.neuterPronouns.contains(t.lower) { return nil }
            if let gender = subjectCoreferentGender(at: j) { return gender }
            // An object him/her in the subject's own clause is someone else (binding), and the
            // he or she after it is most likely that person again ("the Rabbit came near her, she began").
            if t.lower == "him" || t.lower == "her" || t.lower == "them" { return nil }
            j += 1
        }
        return nil
    }

    /// Gender votes for descriptions the tags made into characters ("the conductor"): the
    /// same subject evidence as a name's, wherever the narration writes the description as a
    /// clause's subject ("The conductor put the ten francs in his pocket").
    func descriptionEvidence(keys: [String]) -> [(female: Int, male: Int)] {
        let phrases = keys.map { $0.split(separator: " ").map(String.init) }
        var wanted: [String: [Int]] = [:]
        for (index, words) in phrases.enumerated() where words.count >= 2 && words[0] == "the" { wanted[words[1], default: []].append(index) }
        var votes = Array(repeating: (female: 0, male: 0), count: keys.count)
        guard !wanted.isEmpty else { return votes }
        for i in 0..<max(0, tokens.count - 1) where tokens[i].lower == "the" && tokens[i].quote < 0 {
            guard let candidates = wanted[tokens[i + 1].lower] else { continue }
            for index in candidates {
                let words = phrases[index]
                let end = i + words.count
                guard end <= tokens.count, (1..<words.count).allSatisfy({ tokens[i + $0].lower == words[$0] && tokens[i + $0].isWord }) else { continue }
                let mention = NameMention(firstToken: i, endToken: end, title: nil, words: Array(words.dropFirst()), surface: "",
                                          inQuote: false, isRoleTitle: false)
                guard isClauseSubject(mention), let gender = subjectPronoun(after: mention) else { continue }
                if gender == .female { votes[index].female += 2 } else { votes[index].male += 2 }
            }
        }
        return votes
    }

    /// Words that open a clause with a subject of its own: a pronoun after them is not bound
    /// to the main clause's subject ("Potapitch told me that ... she really began to win").
    static let clauseOpeners: Set<String> = ["that", "who", "whom", "which", "whose", "what", "while", "whilst", "if", "though", "although", "because", "whereas"]
    /// Words that open an adverbial clause a name may be the subject of.
    static let subordinators: Set<String> = ["when", "while", "whilst", "as", "because", "though", "although", "if", "till", "until", "before", "after", "since", "where", "once"]
    /// Words after which a name opens a clause as its subject: a subordinator or a conjunction.
    static let subjectLeaders: Set<String> = subordinators.union(["and", "but", "so", "then", "yet", "that", "now"])

    /// Where a mention's noun phrase starts: "the Rabbit", "the White Rabbit" keep their article.
    func phraseStart(_ mention: NameMention) -> Int {
        let first = mention.firstToken
        return first > 0 && tokens[first - 1].lower == "the" && tokens[first - 1].paragraph == tokens[first].paragraph ? first - 1 : first
    }

    /// The mention opens a clause as its subject, alone (not "Potapitch and Martha rushed").
    func isClauseSubject(_ mention: NameMention) -> Bool {
        let first = phraseStart(mention)
        guard !tokens[mention.firstToken].isPossessive, !tokens[mention.endToken - 1].isPossessive else { return false }
        if mention.endToken < tokens.count {
            let next = tokens[mention.endToken]
            if next.lower == "and" || next.lower == "or" || next.lower == "&" { return false }
            // A vocative inside a quote ("Potapitch, get things ready").
            if mention.inQuote, !next.isWord, next.lower != "'" { return false }
        }
        if tokens[first].sentenceInitial || first == 0 { return true }
        let previous = tokens[first - 1]
        if previous.paragraph != tokens[first].paragraph { return true }
        if previous.isWord {
            guard Self.subjectLeaders.contains(previous.lower) else { return false }
            // "Jane, Ruby and Moody": the last of several names is no lone subject.
            return !(first >= 2 && mentionEnds.contains(first - 2) && (previous.lower == "and" || previous.lower == "or"))
        }
        guard [",", ";", ":", "(", "\u{2014}", "-", "--"].contains(previous.lower) else { return false }
        return !(first >= 2 && mentionEnds.contains(first - 2))
    }

    /// he/she, a possessive his/her (before a word) or a reflexive: forms that can refer back to
    /// the subject of their own clause. `him` and an object `her` cannot.
    func subjectCoreferentGender(at index: Int) -> Gender? {
        switch tokens[index].lower {
        case "he", "his", "himself": return .male
        case "she", "herself": return .female
        case "her":
            guard index + 1 < tokens.count else { return nil }
            let next = tokens[index + 1]
            return next.isWord && !Self.notNounAfterHer.contains(next.lower) ? .female : nil
        default: return nil
        }
    }
    static let notNounAfterHer: Set<String> = ["to", "in", "on", "at", "by", "for", "with", "from", "of", "and", "or", "but", "that", "as", "the", "a", "an", "up", "down", "out", "off", "away", "back", "again", "so", "very", "too", "when", "if", "then", "was", "is", "had", "be", "not",
        "all", "both", "now", "here", "there", "this", "these", "those", "some", "any", "no", "every", "each", "how", "what",
        "why", "where", "whether", "into", "upon", "about", "over", "through", "round", "after", "before", "till", "until",
        "once", "twice", "still", "yet", "only", "just", "well", "alone", "herself", "himself", "it", "him", "me", "you", "us", "them"]

    /// ", the old nursemaid," after a name: the gender of an appositive role noun.
    func appositionGender(after end: Int, paragraph: Int, quote: Int) -> Gender? {
        guard end + 2 < tokens.count, tokens[end].lower == "," else { return nil }
        var j = end + 1
        guard ["the", "a", "an", "his", "her", "their", "my", "our", "your"].contains(tokens[j].lower) else { return nil }
        j += 1
        let limit = min(tokens.count, j + 3)
        while j < limit {
            let t = tokens[j]
            guard t.isWord, t.paragraph == paragraph, t.quote == quote else { return nil }
            let after = j + 1 < tokens.count ? tokens[j + 1] : nil
            let isHead = after == nil || !after!.isWord || after!.lower == "of" || after!.lower == "who"
            if isHead { return Self.nounGender(t.lower) }
            j += 1
        }
        return nil
    }

    /// A role noun's gender: the role table, then English word formation (-maid, -woman, -man, -ess).
    static func nounGender(_ word: String) -> Gender? {
        if let gender = Lexicon.roleNouns[word.replacingOccurrences(of: "-", with: "")], gender != .unknown { return gender }
        if word.hasSuffix("maid") || word.hasSuffix("woman") || word.hasSuffix("wife") { return .female }
        if word.hasSuffix("ess"), !word.hasSuffix("ness"), word.count > 5 { return .female }
        if word.hasSuffix("man"), word.count > 4, !["human", "woman"].contains(word) { return .male }
        return nil
    }

    /// The gender a character is cast with when nothing in the text tells: English marks a
    /// woman's role ("-ess", "-woman", "-maid", "Mrs.") and leaves a man's unmarked, and the
    /// fiction it reads calls the unmarked "he" ("the drummer", "the Dodo"). A guess, held
    /// weakly, for the cast only: who a "he said" can be is decided on evidence alone.
    /// A group ("the crowd") is no one person and keeps no gender; an "I" no one names is anyone,
    /// but a narrator the others call by a name ("Watson") is guessed as a named character is.
    static func unmarked(_ estimate: Estimate, of entity: Entity) -> Estimate {
        let named = entity.kind != .narrator || entity.formCounts.contains { $0.key != "i" && $0.value > 0 }
        guard estimate.gender == .unknown, named, !entity.isGroup else { return estimate }
        var guessed = estimate
        // A role the dialogue names ("her cousin", called "Anne" and "Nancy") is as its names are;
        // a name the lists lack as books at large use it ("Evie", "Gino"), but not a noun written
        // as a name ("the Dodo"), which is no one's name in those books; else its ending.
        let called = entity.kind == .role
            ? entity.formCounts.keys.filter { !$0.contains(" ") }.sorted().map(FirstNames.gender(of:)).first { $0 != .unknown }
            : entity.givenName.flatMap { entity.descriptions.isEmpty ? NameGenders.gender(of: $0) : nil }
        if let called, called != .unknown {
            guessed.gender = called
            guessed.genderConfidence = 0.5
            return guessed
        }
        guessed.gender = entity.givenName.map(FirstNames.soundsFeminine) == true ? .female : .male
        guessed.genderConfidence = 0.35
        return guessed
    }

    func estimate(_ entity: Entity, pronouns: (female: Int, male: Int)) -> Estimate {
        var gender = Gender.unknown
        var confidence = 0.0
        var female = 0, male = 0, neutralTitles: Set<String> = []
        for (title, count) in entity.titles {
            switch Lexicon.honorifics[title] ?? nil {
            case .female: female += count
            case .male: male += count
            default: neutralTitles.insert(title)
            }
        }
        let nameGender = entity.givenName.map { FirstNames.gender(of: FirstNames.nicknames[$0] ?? $0) == .unknown ? FirstNames.gender(of: $0) : FirstNames.gender(of: FirstNames.nicknames[$0] ?? $0) } ?? .unknown
        // Slavic patronymics and surnames mark gender in their endings (Ivanovitch, Alexandrovna).
        let nameWords = entity.formCounts.keys.flatMap { $0.split(separator: " ") }
        let patronymicGender: Gender = nameWords.contains { $0.hasSuffix("vitch") || $0.hasSuffix("vich") } ? .male
            : nameWords.contains { $0.hasSuffix("ovna") || $0.hasSuffix("evna") || $0.hasSuffix("ichna") } ? .female : .unknown
        let pronounTotal = pronouns.female + pronouns.male
        let pronounGender: Gender = pronounTotal >= 2 && max(pronouns.female, pronouns.male) >= 2 * min(pronouns.female, pronouns.male) + 1
            ? (pronouns.female > pronouns.male ? .female : .male) : .unknown
        if entity.kind == .role, entity.roleGender != .unknown {
            gender = entity.roleGender; confidence = 0.85
        } else if entity.isGroup {
            // A crowd's "he" is one of its members ("the crowd parted; he stepped out").
        } else if female != male, max(female, male) >= 2 * min(female, male) {
            gender = female > male ? .female : .male
            confidence = 0.95
            // A title written once or twice in jest ("All right, Auntie Tibby," called Helen)
            // does not outweigh the he and his the narration gives the person.
            if female + male <= 2, pronounGender != .unknown, pronounGender != gender, pronounTotal >= 6 {
                gender = pronounGender; confidence = 0.6
            }
        } else if patronymicGender != .unknown {
            gender = patronymicGender; confidence = 0.85
        } else if nameGender != .unknown {
            gender = nameGender
            confidence = pronounGender == nameGender ? 0.95 : 0.85
            if pronounGender != .unknown, pronounGender != nameGender, pronounTotal >= 6 {
                gender = pronounGender; confidence = 0.6
            }
        } else if pronounGender != .unknown {
            gender = pronounGender
            confidence = min(0.9, 0.5 + 0.05 * Double(pronounTotal))
        } else if entity.kind == .narrator {
            gender = .unknown; confidence = 0.2
        } else if !neutralTitles.isDisjoint(with: Lexicon.defaultMaleTitles) {
            gender = .male; confidence = 0.6
        }

        // Age: words in the names themselves, then titles.
        var age = AgeRange.unknown
        var ageConfidence = 0.3
        let words = Set(entity.formCounts.keys.flatMap { $0.split(separator: " ").map(String.init) })
        if !words.isDisjoint(with: ["little", "baby", "young"]) || entity.titles["master"] != nil {
            age = .child; ageConfidence = 0.7
        } else if !words.isDisjoint(with: Lexicon.elderlyCues) || !Set(entity.titles.keys).isDisjoint(with: ["grandma", "granny", "grandpa", "granddad"]) {
            age = .elderly; ageConfidence = 0.7
        } else if words.contains("boy") || words.contains("girl") || words.contains("child") {
            age = .child; ageConfidence = 0.6
        } else if entity.titles.keys.contains(where: { ["mr", "mrs", "madame", "sir", "lord", "lady", "general", "colonel", "captain", "major", "dr", "professor", "judge", "reverend", "aunt", "uncle"].contains($0) }) {
            age = .adult; ageConfidence = 0.7
        } else if entity.kind == .named {
            age = .adult; ageConfidence = 0.4
        }
        return Estimate(gender: gender, genderConfidence: confidence, age: age, ageConfidence: ageConfidence)
    }
}

extension Gender {
    /// Whether two people of these genders may be one: equal, or either unknown.
    func admits(_ other: Gender) -> Bool { self == .unknown || other == .unknown || self == other }
}
