import StoryModel

/// One person (or role) the story refers to, with every form used to name them.
struct Entity: Sendable {
    enum Kind: Sendable { case named, role, narrator }
    var kind: Kind
    /// Form key → number of mentions; and the form as first written.
    var formCounts: [String: Int] = [:]
    var formDisplay: [String: String] = [:]
    var givenName: String?
    var surname: String?
    /// Title → number of mentions with it.
    var titles: [String: Int] = [:]
    /// Titled Sir or Lord: never the "Mr." of the family (Sir Walter Elliot's heir is Mr. Elliot).
    var isKnighted: Bool { titles["sir"] != nil || titles["lord"] != nil }
    var roleGender: Gender = .unknown
    var firstPosition: Int
    var mentions: Int = 0
    /// A role's descriptions as its tags write them ("a man", "the pink lady"), and those of a
    /// noun written as a name ("a Canary", "the Knave of Hearts"): aliases only.
    var descriptions: [String] = []
    /// A role the narration brought in with an indefinite ("a stout man"): someone new, never
    /// joined to a person named before (`RoleMerging.joinDefiniteDescriptions`).
    var introduced = false
    /// A role of many people ("the crowd", "the men"): no he or she is one of them, and nothing
    /// but its noun gives it a gender (`Lexicon.isGroup`).
    var isGroup = false
    /// The first form key in order: a role's description key ("the old gentleman").
    var firstForm: String? { formCounts.keys.min() }

    init(kind: Kind, firstPosition: Int) {
        self.kind = kind
        self.firstPosition = firstPosition
    }

    mutating func add(formKey: String, display: String, title: String?, count: Int, position: Int) {
        formCounts[formKey, default: 0] += count
        if formDisplay[formKey] == nil { formDisplay[formKey] = display }
        if let title { titles[title, default: 0] += count }
        mentions += count
        firstPosition = min(firstPosition, position)
    }

    /// The fullest form: most words, then most frequent, then alphabetical.
    var fullestName: String {
        // Most name words first ("Framton Nuttel" over "Mr. Nuttel"), then most words.
        func nameWords(_ key: String) -> Int {
            key.split(separator: " ").count { word in
                let w = String(word)
                return Lexicon.honorifics[w] == nil && !Lexicon.abbreviations.contains(w) && !Lexicon.givenNameTitles.contains(w)
                    && !Lexicon.defaultMaleTitles.contains(w) && !NameMentionFinder.roleTitles.contains(w)
            }
        }
        let keys = formCounts.keys.sorted { a, b in
            // A role keeps its own form over those merged into it ("the grandmother").
            if kind == .role, formCounts[a]! != formCounts[b]! { return formCounts[a]! > formCounts[b]! }
            let na = nameWords(a), nb = nameWords(b)
            if na != nb { return na > nb }
            let wa = a.split(separator: " ").count, wb = b.split(separator: " ").count
            if wa != wb { return wa > wb }
            if formCounts[a]! != formCounts[b]! { return formCounts[a]! > formCounts[b]! }
            return a < b
        }
        guard let key = keys.first, let display = formDisplay[key] else { return "Unknown" }
        // A cast names a man "Robert Ferrars", not "Mr. Robert Ferrars": "Mr." before a full
        // name tells nothing. A rank ("Sir John Middleton") or a woman's "Miss"/"Mrs." does:
        // it tells her from her sister or her mother-in-law ("Miss Helen Schlegel").
        guard key.hasPrefix("mr ") else { return display }
        return Self.untitled(key: key, display: display) ?? display
    }

    /// "Robert Ferrars" for "Mr. Robert Ferrars" (a form key starts with its canonical title:
    /// "mr robert ferrars"); nil for a form without a title and a given name of its gender
    /// after it, so never "Robert Ferrars" for "Mrs. Robert Ferrars", a wife named by her
    /// husband's name.
    static func untitled(key: String, display: String) -> String? {
        let words = key.split(separator: " ")
        guard words.count >= 3, let titleGender = Lexicon.honorifics[String(words[0])] ?? nil,
              FirstNames.gender(of: String(words[1])) == titleGender else { return nil }
        return display.split(separator: " ").dropFirst().joined(separator: " ")
    }

    /// Every other form, most frequent first.
    var aliasNames: [String] {
        let full = fullestName
        var seen: Set<String> = [full]
        var result: [String] = []
        for key in formCounts.keys.sorted(by: { formCounts[$0]! != formCounts[$1]! ? formCounts[$0]! > formCounts[$1]! : $0 < $1 }) {
            guard let display = formDisplay[key], seen.insert(display).inserted else { continue }
            result.append(display)
        }
        for description in descriptions where seen.insert(description).inserted { result.append(description) }
        // "Mr. Robert Ferrars" is also plain "Robert Ferrars".
        for (key, display) in formDisplay.sorted(by: { $0.key < $1.key }) {
            if let untitled = Self.untitled(key: key, display: display), seen.insert(untitled).inserted { result.append(untitled) }
        }
        return result
    }
}

/// Groups name mentions into entities: full names, title + surname, title + given name,
/// bare given names and nicknames, bare surnames. "Mr. Bennet", "Mrs. Bennet" and "Miss
/// Bennet" stay apart unless a full name ties one of them to a person.
struct CharacterClusterer {
    let mentions: [NameMention]
    let tokens: [Token]

    struct Result {
        var entities: [Entity]
        /// Entity index per mention (parallel to `mentions`), -1 when none.
        var mentionEntity: [Int]
        /// Forms joined to the likeliest of two or more people they could name ("Mr. Bertram"
        /// beside Tom and Edmund Bertram): the line a tag names so may be the other's.
        var ambiguousForms: Set<String> = []
    }

    static func formKey(_ mention: NameMention) -> String {
        if mention.isRoleTitle { return mention.surface.lowercased() }
        return ((mention.title.map { $0 + " " }) ?? "") + mention.words.joined(separator: " ")
    }

    func cluster() -> Result {
        // Paragraphs where each form is written in narration: two forms that share paragraphs
        // often are two people ("Elizabeth Bennet ... Mrs. Bennet followed her").
        var formParagraphs: [String: Set<Int>] = [:]
        var quoteParagraphs: [String: Set<Int>] = [:]
        for mention in mentions {
            let paragraph = tokens[mention.firstToken].paragraph
            if mention.inQuote { quoteParagraphs[CharacterClusterer.formKey(mention), default: []].insert(paragraph) }
            else { formParagraphs[CharacterClusterer.formKey(mention), default: []].insert(paragraph) }
        }
        // Count forms.
        var formCount: [String: Int] = [:]
        var formFirst: [String: Int] = [:]
        var formSample: [String: Int] = [:]
        for (index, mention) in mentions.enumerated() {
            let key = CharacterClusterer.formKey(mention)
            formCount[key, default: 0] += 1
            if formFirst[key] == nil { formFirst[key] = tokens[mention.firstToken].start; formSample[key] = index }
        }
        let orderedForms = formCount.keys.sorted { formFirst[$0]! < formFirst[$1]! }
        var entities: [Entity] = []
        var formEntity: [String: Int] = [:]
        var ambiguousForms: Set<String> = []

        // "having sent her compliments to Madge, Margaret walked back": a name and a nickname of
        // it in one sentence are two people.
        var sentence = Array(repeating: 0, count: tokens.count)
        for index in tokens.indices.dropFirst() {
            sentence[index] = sentence[index - 1] + (tokens[index].sentenceInitial || tokens[index].paragraph != tokens[index - 1].paragraph ? 1 : 0)
        }
        var wordSentences: [String: Set<Int>] = [:]
        for mention in mentions where !mention.isRoleTitle {
            for word in mention.words { wordSentences[word, default: []].insert(sentence[mention.firstToken]) }
        }
        func namedTogether(_ a: String, _ b: String) -> Bool {
            !(wordSentences[a] ?? []).isDisjoint(with: wordSentences[b] ?? [])
        }

        func sample(_ key: String) -> NameMention { mentions[formSample[key]!] }
        func addForm(_ key: String, to entity: Int) {
            let m = sample(key)
            entities[entity].add(formKey: key, display: m.surface, title: m.title, count: formCount[key]!, position: formFirst[key]!)
            formEntity[key] = entity
        }

        // 1. Full names (two or more name words), keyed by given name + surname.
        var fullByPair: [String: Int] = [:]
        // "Mrs. Charles Wilcox": a wife under her husband's name (given name + surname).
        var wifeOf: [Int: String] = [:]
        // Every given name a full name is written with ("tom" and "thomas" for Tom Gradgrind).
        var givenNames: [Int: Set<String>] = [:]
        // Wives whose full name's first word is their husband's or their family's ("Mrs. Manson Mingott").
        var notHerName: Set<Int> = []
        // "Sir Thomas Bertram": a man the text titles Sir or Lord with his full name is not called
        // by a nickname and his surname; "Tom Bertram" is his son.
        let knighted = Set(orderedForms.compactMap { key -> String? in
            let m = sample(key)
            guard let title = m.title, ["sir", "lord"].contains(title), m.words.count >= 2 else { return nil }
            return m.words.first! + " " + m.words.last!
        })
        // Words the story writes as surnames: a full name's last, or after "Mr." ("Mr. Manson"; not
        // "Mrs. Warrington", which may be the woman herself, short).
        let surnameWords = Set(orderedForms.compactMap { key -> String? in
            let m = sample(key)
            guard !m.isRoleTitle, let last = m.words.last else { return nil }
            return m.words.count >= 2 || m.title == "mr" ? last : nil
        })
        // Full names written other than as a wife's ("Newland Archer", "Mr. Newland Archer").
        let unmarriedPairs = Set(orderedForms.compactMap { key -> String? in
            let m = sample(key)
            guard !m.isRoleTitle, m.words.count >= 2, !Self.wifeTitles.contains(m.title ?? "") else { return nil }
            return FirstNames.formal(m.words.first!) + " " + m.words.last!
        })
        for key in orderedForms {
            let m = sample(key)
            guard !m.isRoleTitle, m.words.count >= 2 else { continue }
            // "Tom Gradgrind" is the "Thomas Gradgrind" of the same family: a nickname is keyed by
            // the name it shortens.
            let formal = FirstNames.formal(m.words.first!)
            let namesake = formal != m.words.first! && knighted.contains(formal + " " + m.words.last!)
            var pair = (namesake ? m.words.first! : formal) + " " + m.words.last!
            // "Mrs. John Knightley" is John Knightley's wife, not John; so is "Mrs. Newland
            // Archer" beside a "Newland Archer", though no list knows the name's gender (but not
            // "Mrs. Thea Elvsted" beside "Thea Elvsted": a name so ending is likelier hers).
            let first = m.words.first!, nameGender = FirstNames.gender(of: first)
            if let title = m.title, let titleGender = Lexicon.honorifics[title] ?? nil {
                if nameGender != .unknown ? nameGender != titleGender
                    : Self.wifeTitles.contains(title) && unmarriedPairs.contains(pair) && !FirstNames.soundsFeminine(first) {
                    pair = title + " " + pair
                }
            }
            let entity: Int
            if let existing = fullByPair[pair] { entity = existing } else {
                entities.append(Entity(kind: .named, firstPosition: formFirst[key]!))
                entity = entities.count - 1
                if pair.hasPrefix((m.title ?? "") + " "), m.title != nil { wifeOf[entity] = FirstNames.formal(m.words.first!) + " " + m.words.last! }
                entities[entity].givenName = m.words.first
                entities[entity].surname = m.words.last
                fullByPair[pair] = entity
            }
            // "Mrs. Manson Mingott": after Mrs., a man's name, or one the story also writes as a
            // surname ("Medora Manson"), is her husband's or her family's, not one she is called by alone.
            let husbandsOrFamily = nameGender == .male || nameGender == .unknown && surnameWords.contains(first)
            if m.title.map(Self.wifeTitles.contains) == true && husbandsOrFamily {
                notHerName.insert(entity)
            } else {
                givenNames[entity, default: []].insert(first)
            }
            addForm(key, to: entity)
        }
        // "His sister Joan", "Ralph Denham's sister Joan": a given name the story writes with no
        // surname is of the family of the one whose relative it is ("Miss Denham" may be she).
        let fullGiven = Set(givenNames.values.flatMap { $0 })
        // Such a relative is at most the family's Miss: "his sister Harriet" is not Mrs. Herriton,
        // his mother, and "her brother James" not Mr. Morland, their father.
        var bornInFamily: Set<Int> = []
        for (given, surname) in familyAppositions() where !fullGiven.contains(given) && fullByPair[given + " " + surname] == nil {
            guard let key = orderedForms.first(where: { $0 == given }) else { continue }
            entities.append(Entity(kind: .named, firstPosition: formFirst[key]!))
            entities[entities.count - 1].givenName = given
            entities[entities.count - 1].surname = surname
            fullByPair[given + " " + surname] = entities.count - 1
            givenNames[entities.count - 1] = [given]
            bornInFamily.insert(entities.count - 1)
        }
        var fullByGiven: [String: [Int]] = [:]
        var fullBySurname: [String: [Int]] = [:]
        for (index, entity) in entities.enumerated() {
            // "Charles" is never Mrs. Charles Wilcox.
            if wifeOf[index] == nil {
                for g in givenNames[index] ?? [] { fullByGiven[g, default: []].append(index) }
            }
            if let s = entity.surname { fullBySurname[s, default: []].append(index) }
        }
        let husbands = Set(wifeOf.values.compactMap { fullByPair[$0] })
        let junior = namesakeJuniors(entities: &entities, fullByGiven: fullByGiven, formCount: formCount)
        // Weight of a full-name entity including its bare given name.
        func weight(_ entity: Int) -> Int {
            entities[entity].mentions + (entities[entity].givenName.flatMap { formCount[$0] } ?? 0)
        }
        func genderOf(_ entity: Int) -> Gender {
            var female = 0, male = 0
            for (title, count) in entities[entity].titles {
                switch Lexicon.honorifics[title] ?? nil {
                case .female: female += count
                case .male: male += count
                default: break
                }
            }
            if female != male { return female > male ? .female : .male }
            let given = entities[entity].givenName.map(FirstNames.gender(of:)) ?? .unknown
            // "Newland Archer", whose wife is "Mrs. Newland Archer", is a man.
            return given == .unknown && husbands.contains(entity) ? .male : given
        }
        func best(_ candidates: [Int]) -> Int? {
            candidates.max { a, b in weight(a) != weight(b) ? weight(a) < weight(b) : a > b }
        }

        // 2. Title + one word.
        // Women the text titles by a given name ("Miss Margaret"), read once for `specifiedSister`.
        let missGivenNames = formCount.keys.compactMap { form -> String? in
            let words = form.split(separator: " ")
            guard words.count == 2, words[0] == "miss", FirstNames.gender(of: String(words[1])) == .female else { return nil }
            return String(words[1])
        }
        // Titles two or more names bear ("Baron Rothschild", "Baron Burmergelm").
        let sharedTitles = Set(Dictionary(grouping: orderedForms.filter { !sample($0).words.isEmpty && sample($0).title != nil }) { sample($0).title! }
            .filter { $0.value.count >= 2 }.keys)
        var titled: [String: Int] = [:] // "title word" entity
        for key in orderedForms {
            let m = sample(key)
            guard let title = m.title, m.words.count == 1 || m.isRoleTitle else { continue }
            if m.isRoleTitle {
                // "the General" is General Tilney when the story has named him by now; a title
                // two names bear waits until every name is placed (2b).
                guard !sharedTitles.contains(title) else { continue }
                let bearers = entities.indices.filter { entities[$0].kind == .named && entities[$0].titles[title] != nil }
                if let target = Self.mostTitled(bearers, title: title, entities: entities) {
                    addForm(key, to: target)
                    continue
                }
                entities.append(Entity(kind: .role, firstPosition: formFirst[key]!))
                entities[entities.count - 1].roleGender = (Lexicon.honorifics[title] ?? nil) ?? (Lexicon.defaultMaleTitles.contains(title) ? .male : .unknown)
                addForm(key, to: entities.count - 1)
                continue
            }
            let word = m.words[0]
            let titleGender = Lexicon.honorifics[title] ?? nil
            var target: Int?
            if let son = junior[word], title == "mr" || title == "master" {
                target = son // "Mr. Tom", as the servants call the son
            } else if let candidates = fullByGiven[word], Lexicon.givenNameTitles.contains(title)
                        || fullBySurname[word] == nil && ((Lexicon.honorifics[title] ?? nil) != nil || FirstNames.isGivenName(word)) {
                // "Mr. Tibby", "Miss Helen", as the servants call them; but a rank takes a surname:
                // "Colonel Fitzwilliam" is not Mr. Fitzwilliam Darcy (unless a known given name
                // follows it).
                let compatible = candidates.filter { titleGender == nil || genderOf($0) == titleGender || genderOf($0) == .unknown }
                // "Sir John" is the John the text titles Sir (John Middleton), not John Dashwood.
                let sameTitle = compatible.filter { entities[$0].titles[title] != nil }
                target = best(sameTitle.isEmpty ? compatible : sameTitle)
                if (sameTitle.isEmpty ? compatible : sameTitle).count >= 2 { ambiguousForms.insert(key) }
            } else if let candidates = fullBySurname[word] {
                // Mrs. X is the wife and Miss X a daughter: they join a full name only when it
                // carries the same title, or when the other of the two forms never occurs.
                // "Madame de Cominges" is the mother of "Mlle. de Cominges", as Mrs. X of Miss X, and
                // "Lady Lucas" (a title with a surname: a baronet's wife) of "Miss Lucas".
                let (wife, maiden) = ["madame", "mademoiselle"].contains(title) ? ("madame", "mademoiselle") : (title == "lady" ? "lady" : "mrs", "miss")
                let hasMiss = formCount[maiden + " " + word] != nil, hasMrs = formCount[wife + " " + word] != nil
                let compatible = candidates.filter { candidate in
                    // When her husband is a character, "Mrs. Charles Wilcox" is named so to tell
                    // her from the Mrs. Wilcox of the older generation.
                    if let husband = wifeOf[candidate], fullByPair[husband] != nil { return false }
                    if bornInFamily.contains(candidate), title != maiden { return false }
                    let g = genderOf(candidate)
                    let titles = entities[candidate].titles
                    guard let titleGender else { return titles[title] != nil }
                    // A man the text titles Sir or Lord (Sir Walter Elliot) is never Mr. Elliot: that
                    // is another of the family, his heir.
                    if title == "mr", entities[candidate].isKnighted { return false }
                    if title == wife, titles[wife] == nil, hasMiss || titles[maiden] != nil { return false }
                    if title == maiden, titles[wife] != nil, titles[maiden] == nil, hasMrs { return false }
                    return g == titleGender || g == .unknown
                }
                // A short form refers to the full name when the full name came first (the
                // usual way a character is introduced) or is used more.
                func sharesParagraphs(_ candidate: Int) -> Bool {
                    let own = formParagraphs[key] ?? []
                    let theirs = entities[candidate].formCounts.keys.reduce(into: Set<Int>()) { $0.formUnion(formParagraphs[$1] ?? []) }
                    let shared = own.intersection(theirs).count
                    return shared >= 1 && shared * 5 >= theirs.count
                }
                // "'You are late, Lizzy,' said Mrs. Bennet": one form written in the narration of
                // paragraphs where the other is spoken to or of, often enough, is someone else.
                func talksWith(_ candidate: Int) -> Bool {
                    let own = formParagraphs[key] ?? []
                    let given = notHerName.contains(candidate) ? [] : entities[candidate].givenName.map { FirstNames.variants(of: $0) } ?? []
                    let forms = Set(entities[candidate].formCounts.keys).union(given)
                    let spoken = forms.reduce(into: Set<Int>()) { $0.formUnion(quoteParagraphs[$1] ?? []) }
                    let crossed = own.intersection(spoken).count
                    return crossed >= 1 && crossed * 5 >= own.count
                }
                // With two or more women of the family named in full (Carrie, Sophia Sloane),
                // "Mrs. Sloane" is their mother, whom the story does not name in full.
                let familyWomen = compatible.count >= 2 && compatible.allSatisfy { entities[$0].titles["mrs"] == nil }
                // "Miss Helen Schlegel" is named so to tell her from the elder Miss Schlegel: a
                // sister the text mostly calls by her given name, and titles with it, is not the
                // plain "Miss Schlegel" when another sister is named in full. "Miss Marianne"
                // beside "Miss Margaret" says as much: two sisters titled by given name, so Miss
                // Dashwood is a third, the eldest.
                func specifiedSister(_ candidate: Int) -> Bool {
                    guard title == "miss", let given = entities[candidate].givenName,
                          formCount[given, default: 0] > formCount[key]! else { return false }
                    if formCount["miss " + given, default: 0] >= 2, youngerSisterTitled(besides: given) { return true }
                    guard entities[candidate].formCounts["miss " + given + " " + word] != nil else { return false }
                    return compatible.contains { $0 != candidate && entities[$0].givenName != nil && entities[$0].titles["mrs"] == nil }
                }
                // Another woman titled by her given name ("Miss Margaret") whom no full name puts
                // in another family.
                func youngerSisterTitled(besides given: String) -> Bool {
                    missGivenNames.contains { other in
                        other != given && fullByGiven[other].map { $0.contains { fullBySurname[word]?.contains($0) == true } } ?? true
                    }
                }
                // "Mrs. Charles Wilcox" beside a plain "Mrs. Wilcox": Charles is the younger
                // generation, so the plain "Mr. Wilcox" is his father.
                func marriedSon(_ candidate: Int) -> Bool {
                    guard title == "mr", let given = entities[candidate].givenName, formCount["mrs " + word] != nil else { return false }
                    return wifeOf.values.contains(given + " " + word)
                }
                let unspecified = compatible.filter { !specifiedSister($0) && !marriedSon($0) }
                // "Miss Barry" is the Barry the text also calls "Miss Josephine Barry", not Diana Barry.
                let sameTitle = unspecified.filter { entities[$0].titles[title] != nil }
                let pool = sameTitle.isEmpty ? unspecified : sameTitle
                let apart = pool.filter { !sharesParagraphs($0) && !(title == wife && talksWith($0)) }
                if !(title == "mrs" && familyWomen), let choice = best(apart),
                   weight(choice) >= formCount[key]! || entities[choice].firstPosition < formFirst[key]! {
                    target = choice
                    if apart.count >= 2 { ambiguousForms.insert(key) }
                }
            }
            // "Uncle Pumblechook" is the narration's Mr. Pumblechook: a relative's title takes a
            // surname as well as a given name.
            if target == nil { target = kinNamesake(title: title, word: word, titled: titled, entities: entities, genderOf: genderOf) }
            if let target {
                addForm(key, to: target)
            } else {
                entities.append(Entity(kind: .named, firstPosition: formFirst[key]!))
                let index = entities.count - 1
                // "Lady Lucas" of the Lucas family bears its surname; "Lady Catherine" her given name.
                // So is "Lady Peterhouse" beside "Lord Peterhouse".
                let familyTitle = title == "lady" && (fullBySurname[word] != nil || formCount["lord " + word] != nil)
                if Lexicon.givenNameTitles.contains(title), !familyTitle { entities[index].givenName = word } else { entities[index].surname = word }
                addForm(key, to: index)
                titled[key] = index
            }
        }
        var titledBySurname: [String: [Int]] = [:]
        var titledByGiven: [String: [Int]] = [:]
        for key in titled.keys.sorted() {
            let index = titled[key]!
            if let s = entities[index].surname { titledBySurname[s, default: []].append(index) }
            if let g = entities[index].givenName { titledByGiven[g, default: []].append(index) }
        }

        // 2b. A title two names bear, used as a role ("the Baron"), is one of them or a role of
        // its own (every form with a name is placed by now, wherever in the book it first
        // appears); a title alone ("Mademoiselle") is the character most often named with it.
        for key in orderedForms where formEntity[key] == nil {
            let m = sample(key)
            guard let title = m.title, m.words.isEmpty else { continue }
            let bearers = entities.indices.filter { entities[$0].kind == .named && entities[$0].titles[title] != nil }
            let bearer = m.isRoleTitle ? roleTitleBearer(bearers, of: title, toForm: key, entities: entities, formEntity: formEntity)
                : Self.mostTitled(bearers, title: title, entities: entities)
            if let target = bearer {
                addForm(key, to: target)
            } else {
                entities.append(Entity(kind: .role, firstPosition: formFirst[key]!))
                entities[entities.count - 1].roleGender = (Lexicon.honorifics[title] ?? nil) ?? (Lexicon.defaultMaleTitles.contains(title) ? .male : .unknown)
                addForm(key, to: entities.count - 1)
            }
        }

        // 3. Bare single words: given names (or nicknames of them), then surnames. A name of
        // hyphened words ("Winnie-the-Pooh") goes first: its first and last words alone are it.
        let compounds = Self.particleCompounds(orderedForms.filter { formEntity[$0] == nil && sample($0).title == nil })
        var compoundEntity: [String: Int] = [:]
        for key in compounds.forms + orderedForms where formEntity[key] == nil {
            let m = sample(key)
            guard m.title == nil, m.words.count == 1 else { continue }
            let word = m.words[0]
            var target: Int?
            var familyMan = false
            if let compound = compounds.byPart[word], let entity = compoundEntity[compound] {
                target = entity
            } else if let son = junior[word] {
                target = son
            } else if let candidates = fullByGiven[word] {
                // Someone the text calls "Sir John" is seldom plain "John": with two Johns, the
                // bare name is the one not usually titled.
                let untitled = candidates.filter { candidate in
                    let titled = entities[candidate].titles.filter { Lexicon.givenNameTitles.contains($0.key) }.values.reduce(0, +)
                    return titled * 2 < entities[candidate].mentions
                }
                target = best(untitled.isEmpty ? candidates : untitled)
            }
            else if let candidates = titledByGiven[word] { target = best(candidates) }
            else if let formal = FirstNames.nicknames[word], formCount[formal] != nil || fullByGiven[formal] != nil,
                    !namedTogether(word, formal) {
                // A pet name is not for a woman the text calls by rank: "Kitty" Bennet is no
                // "Lady Catherine" de Bourgh.
                let familiar = { (candidates: [Int]) -> [Int] in
                    candidates.filter { candidate in
                        let ranked = entities[candidate].titles.filter { Self.ranks.contains($0.key) }.values.reduce(0, +)
                        return ranked * 2 < entities[candidate].mentions
                    }
                }
                target = fullByGiven[formal].map(familiar).flatMap(best) ?? titledByGiven[formal].map(familiar).flatMap(best)
                if target == nil, let formalEntity = formEntity[formal], familiar([formalEntity]) == [formalEntity] { target = formalEntity }
            }
            if target == nil {
                // A bare surname names a man by the period's convention ("said Thorpe").
                // A man's given name is not his wife's title and it: "Mrs. Joe" is married to Joe.
                let wordGender = FirstNames.isGivenName(word) ? FirstNames.gender(of: word) : .unknown
                let candidates = ((titledBySurname[word] ?? []) + (fullBySurname[word] ?? [])).filter { candidate in
                    wordGender == .unknown || [wordGender, .unknown].contains(genderOf(candidate))
                }
                let males = candidates.filter { genderOf($0) == .male }
                // Never a Mrs. or Miss of the family: with no man of it named, the bare surname
                // is a man of it of his own ("Braddocks" beside Mrs. Braddocks).
                // ("Miss Nancy" is a given name with a title, and bare "Nancy" is she.)
                let surname = !FirstNames.isGivenName(word)
                target = best(males) ?? best(candidates.filter { !surname || genderOf($0) != .female })
                familyMan = target == nil && !candidates.isEmpty
            }
            if let target {
                addForm(key, to: target)
            } else {
                entities.append(Entity(kind: .named, firstPosition: formFirst[key]!))
                if familyMan { entities[entities.count - 1].surname = word } else { entities[entities.count - 1].givenName = word }
                addForm(key, to: entities.count - 1)
            }
            if compounds.forms.contains(key) { compoundEntity[key] = formEntity[key] }
        }
        // Nicknames seen before their formal name was assigned get a second chance.
        for key in orderedForms where formEntity[key] == nil {
            entities.append(Entity(kind: .named, firstPosition: formFirst[key]!))
            addForm(key, to: entities.count - 1)
        }
        var mentionEntity = mentions.map { formEntity[CharacterClusterer.formKey($0)] ?? -1 }
        for (given, people) in fullByGiven where people.count >= 2 && formEntity[given] != nil && junior[given] == nil {
            namesakes(given: given, people: Set(people), mentionEntity: &mentionEntity, entities: &entities)
        }
        return Result(entities: entities, mentionEntity: mentionEntity, ambiguousForms: ambiguousForms)
    }

    /// Two people of one given name ("Jane Bennet", "Jane Fairfax"): a bare "Jane" a few
    /// paragraphs after one of them is named in full is that one, not the likelier of the book.
    private func namesakes(given: String, people: Set<Int>, mentionEntity: inout [Int], entities: inout [Entity]) {
        var last: (entity: Int, position: Int)?
        for index in mentions.indices {
            let m = mentions[index], e = mentionEntity[index], position = tokens[m.firstToken].start
            if people.contains(e), m.words.count >= 2, m.words.first == given { last = (e, position); continue }
            guard m.title == nil, m.words == [given], people.contains(e), let last, last.entity != e,
                  position - last.position < 2000 else { continue }
            mentionEntity[index] = last.entity
            entities[e].formCounts[given, default: 1] -= 1
            entities[last.entity].add(formKey: given, display: m.surface, title: nil, count: 1, position: position)
        }
    }

    /// Single-word forms of hyphened words with a particle ("winnie-the-pooh"), and each one's
    /// first and last words ("winnie", "pooh") → the form, when only one form has that word.
    private static func particleCompounds(_ forms: [String]) -> (forms: [String], byPart: [String: String]) {
        let compounds = forms.filter { form in
            let parts = form.split(separator: "-")
            return !form.contains(" ") && parts.count == 3 && parts[1].allSatisfy(\.isLowercase)
        }
        var byPart: [String: [String]] = [:]
        for form in compounds {
            let parts = form.split(separator: "-")
            for part in [parts.first!, parts.last!] { byPart[String(part), default: []].append(form) }
        }
        return (compounds, byPart.compactMapValues { $0.count == 1 ? $0[0] : nil })
    }

    /// Titles a wife bears before her husband's name ("Mrs. Newland Archer"). Not "Lady": "Lady
    /// Brett Ashley" is hers, as a peer's daughter's is.
    private static let wifeTitles: Set<String> = ["mrs"]

    /// Given names written as a relative of someone with a surname, in narration: "his sister
    /// Joan" (his: the last man named before, in this paragraph or the one before), "Ralph
    /// Denham's sister Joan". Only relatives who share the surname by birth.
    func familyAppositions() -> [(given: String, surname: String)] {
        var found: [(given: String, surname: String)] = []
        for (index, m) in mentions.enumerated() where !m.inQuote && m.title == nil && m.words.count == 1 && m.firstToken >= 3 {
            let given = m.words[0]
            // "His eldest daughter, Elizabeth": a comma and an adjective of birth order may come between.
            var k = m.firstToken - 1
            if tokens[k].lower == "," { k -= 1 }
            let nounToken = tokens[k]
            k -= 1
            while k > 0, Self.birthOrder.contains(tokens[k].lower) { k -= 1 }
            let owner = tokens[k]
            guard FirstNames.isGivenName(given), let kin = Self.bloodKin[nounToken.lower], owner.quote < 0,
                  FirstNames.gender(of: given) == .unknown || FirstNames.gender(of: given) == kin else { continue }
            let possessor: NameMention?
            switch owner.lower {
            case "his", "her":
                let gender: Gender = owner.lower == "his" ? .male : .female
                possessor = mentions[..<index].last { p in
                    !p.inQuote && !p.isRoleTitle && tokens[p.firstToken].paragraph >= nounToken.paragraph - 1 && Self.gender(of: p) == gender
                }
            default:
                possessor = mentions[..<index].last.flatMap { $0.endToken == k + 1 && owner.isPossessive && !$0.inQuote ? $0 : nil }
            }
            guard let possessor, !possessor.isRoleTitle, possessor.words.count >= 2 || possessor.title != nil && possessor.words.count == 1,
                  let surname = possessor.words.last, !FirstNames.isGivenName(surname) || possessor.words.count >= 2 else { continue }
            if possessor.words.count == 1, let title = possessor.title, Lexicon.givenNameTitles.contains(title) { continue }
            found.append((given, surname))
        }
        return found
    }

    private static let birthOrder: Set<String> = ["eldest", "elder", "younger", "youngest", "second", "third", "only", "little"]

    /// Relatives who share a surname by birth, and their gender.
    private static let bloodKin: [String: Gender] = ["sister": .female, "brother": .male, "son": .male, "daughter": .female]

    /// A mention's gender by its title or given name.
    private static func gender(of mention: NameMention) -> Gender {
        if let title = mention.title, let g = Lexicon.honorifics[title] ?? nil { return g }
        return mention.words.first.map(FirstNames.gender(of:)) ?? .unknown
    }

    /// A woman's titles of rank, which a pet name does not go with (a man's friends call Lord
    /// Henry "Harry").
    private static let ranks: Set<String> = ["lady", "dame", "queen", "princess"]

    /// Titles of a relative that the family uses before a surname as often as before a given name.
    private static let kinTitles: Set<String> = ["uncle", "aunt", "auntie", "cousin", "grandpa", "grandma", "granny"]

    /// The one person already titled with `word` who is `title` + `word` too: a relative's title
    /// ("Uncle Pumblechook") and a man's or woman's ("Mr. Pumblechook") of one gender, either first.
    private func kinNamesake(title: String, word: String, titled: [String: Int], entities: [Entity], genderOf: (Int) -> Gender) -> Int? {
        let titleGender = Lexicon.honorifics[title] ?? nil
        let isKin = Self.kinTitles.contains(title)
        guard isKin || ["mr", "mrs", "miss"].contains(title) else { return nil }
        let partners = Set(titled.compactMap { key, index -> Int? in
            guard let other = key.split(separator: " ").first.map(String.init), key == other + " " + word else { return nil }
            // A relative's title meets a man's or woman's, never another relative's.
            guard isKin ? ["mr", "mrs", "miss"].contains(other) : Self.kinTitles.contains(other) else { return nil }
            let g = genderOf(index)
            return titleGender == nil || g == .unknown || g == titleGender ? index : nil
        })
        return partners.count == 1 ? partners.first : nil
    }

    /// Of `candidates` (each bearing `title`), the one most often so titled; the earlier on a tie.
    static func mostTitled(_ candidates: [Int], title: String, entities: [Entity]) -> Int? {
        candidates.max { (entities[$0].titles[title]!, $1) < (entities[$1].titles[title]!, $0) }
    }

    /// The character a title used as a role means. The bearer named near a third or more of the
    /// title's uses (within a few pages), and nearer than any other: of two barons ("Baron Rothschild" in talk, "the Baron Burmergelm" at the
    /// spa), the one at the spa; failing that, as before every name was placed, the most titled of
    /// those named before the title's first use ("the General" from page one is no General
    /// Perovski whose memoirs someone reads later).
    private func roleTitleBearer(_ bearers: [Int], of title: String, toForm key: String, entities: [Entity], formEntity: [String: Int]) -> Int? {
        func mostTitled(_ candidates: [Int]) -> Int? { Self.mostTitled(candidates, title: title, entities: entities) }
        guard !bearers.isEmpty else { return nil }
        let wanted = Set(bearers), window = 10_000
        var named: [(position: Int, entity: Int)] = []
        var uses: [Int] = []
        for mention in mentions {
            let form = Self.formKey(mention)
            if form == key { uses.append(tokens[mention.firstToken].start) }
            if let entity = formEntity[form], wanted.contains(entity) { named.append((tokens[mention.firstToken].start, entity)) }
        }
        var votes: [Int: Int] = [:]
        for use in uses {
            guard let nearest = named.min(by: { abs($0.position - use) < abs($1.position - use) }),
                  abs(nearest.position - use) <= window else { continue }
            votes[nearest.entity, default: 0] += 1
        }
        if let top = votes.values.max(), top * 3 >= uses.count {
            return mostTitled(votes.filter { $0.value == top }.map(\.key))
        }
        let firstUse = uses.min() ?? .max
        return mostTitled(bearers.filter { entities[$0].firstPosition < firstUse })
    }

    /// A namesake son: "young Tom" beside a father the narration calls "Mr. Gradgrind" (and his
    /// friends "Tom Gradgrind"). "Young" before a given name tells a younger bearer from an elder
    /// one, and a man called by title and surname is not also called by his bare given name, so
    /// the bare name, its nicknames and "Mr." or "Master" with them are the son. Oliver Twist,
    /// "young Oliver" but never "Mr. Twist", is one person. Returns given name → the son's entity.
    private func namesakeJuniors(entities: inout [Entity], fullByGiven: [String: [Int]], formCount: [String: Int]) -> [String: Int] {
        var youngCount: [String: Int] = [:]
        var youngSurface: [String: String] = [:]
        for mention in mentions where mention.title == nil && mention.words.count == 1 && mention.firstToken > 0
            && tokens[mention.firstToken - 1].lower == "young" {
            let formal = FirstNames.formal(mention.words[0])
            youngCount[formal, default: 0] += 1
            if youngSurface[formal] == nil { youngSurface[formal] = "young " + mention.surface }
        }
        var junior: [String: Int] = [:]
        for (formal, count) in youngCount.sorted(by: { $0.key < $1.key }) where count >= 2 && FirstNames.gender(of: formal) != .female {
            let variants = FirstNames.variants(of: formal)
            let elders = Set(variants.flatMap { fullByGiven[$0] ?? [] }).filter { elder in
                entities[elder].surname.map { formCount["mr " + $0, default: 0] >= 3 } ?? false
            }
            guard elders.count == 1, let elder = elders.first else { continue }
            var son = Entity(kind: .named, firstPosition: entities[elder].firstPosition)
            son.givenName = formal
            // The display form; no mention is keyed by it.
            son.formCounts["young " + formal] = 0
            son.formDisplay["young " + formal] = youngSurface[formal]
            entities.append(son)
            for variant in variants where formCount[variant] != nil { junior[variant] = entities.count - 1 }
        }
        return junior
    }
}
