import StoryModel

/// Joins role characters that fiction uses for one person: a story with one speaking
/// grandmother calls her "the old lady" too, and one with one speaking niece calls her "the
/// child" or "the young lady". Only when exactly one kinship role of the right age and a compatible gender speaks.
enum RoleMerging {
    private static let elderlyKin: [String: Gender] = ["grandmother": .female, "grandfather": .male]
    private static let youngKin: [String: Gender] = ["niece": .female, "nephew": .male]
    private static let generic: Set<String> = ["lady", "woman", "gentleman", "man", "girl", "boy", "child"]
    private static let definiteKin: Set<String> = ["father", "mother", "husband", "wife", "son", "daughter", "brother", "sister"]

    /// Rewrites attributions from each merged role to the relative it names; the merged
    /// entity keeps no lines (so it is not listed) and its forms become the relative's aliases.
    static func merge(entities: inout [Entity], genders: [Gender], attributions: inout [Attribution]) {
        var lines = Array(repeating: 0, count: entities.count)
        for a in attributions where a.entity >= 0 && a.entity < lines.count { lines[a.entity] += 1 }
        func words(_ e: Int) -> [Substring] { entities[e].firstForm.map { $0.split(separator: " ") } ?? [] }
        func kin(_ table: [String: Gender]) -> [Int] {
            entities.indices.filter { e in
                entities[e].kind == .role && lines[e] > 0 && words(e).last.map { table[String($0)] != nil } == true
            }
        }
        let elderly = kin(elderlyKin), young = kin(youngKin)
        var target = Array(repeating: -1, count: entities.count)
        for e in entities.indices where lines[e] > 0 {
            let w = words(e)
            guard let head = w.last.map(String.init) else { continue }
            var candidates: [Int] = []
            if entities[e].kind == .role, generic.contains(head) {
                let modifiers = Set(w.dropLast().map(String.init))
                if !modifiers.isDisjoint(with: ["old", "elderly", "aged"]) { candidates = elderly }
                else if !modifiers.isDisjoint(with: ["young", "little"]) || ["girl", "boy", "child"].contains(head) { candidates = young }
            }
            candidates = candidates.filter { $0 != e && genders[$0].admits(genders[e]) }
            if candidates.count == 1 { target[e] = candidates[0] }
        }
        apply(target: target, entities: &entities, attributions: &attributions)
    }

    /// Moves each entity's lines to `target[entity]` where that is set, and its forms too when
    /// the target is a role (a description is no alias of a named person: "the young man").
    private static func apply(target: [Int], entities: inout [Entity], attributions: inout [Attribution]) {
        for e in entities.indices where target[e] >= 0 && entities[target[e]].kind == .role {
            let t = target[e]
            for (key, _) in entities[e].formCounts where entities[t].formCounts[key] == nil {
                entities[t].formCounts[key] = 0
                entities[t].formDisplay[key] = entities[e].formDisplay[key]
            }
            entities[t].descriptions += entities[e].descriptions.filter { !entities[t].descriptions.contains($0) }
            entities[t].firstPosition = min(entities[t].firstPosition, entities[e].firstPosition)
        }
        for index in attributions.indices where attributions[index].entity >= 0 && attributions[index].entity < target.count {
            if target[attributions[index].entity] >= 0 { attributions[index].entity = target[attributions[index].entity] }
        }
    }

    /// A definite description ("the young man", "the old gentleman", "the girl") is anaphoric:
    /// it names someone the narration has already introduced, not a new person (who would come
    /// in as "a young man"). When no "a young man" comes in the three paragraphs before its lines and,
    /// before at least half of the role's lines (three or more), the last speaking named person of a
    /// compatible gender the narration mentions (skipping whoever speaks the turn before or after,
    /// the role's interlocutor) is the same one, and no other person is as often, the role is
    /// that person. (A strict majority was a knife edge: one more line of Frank Churchill's, 13
    /// votes of 26 against Mr. Weston's 11, split "the young man" from him.) A description of one
    /// or two lines is the person only when the lead-in names them (the quote's paragraph or the
    /// one before), who may be one never speaking by name, and who is not the nearest other speaker.
    static func joinDefiniteDescriptions(entities: inout [Entity], genders: [Gender], ages: [AgeRange], attributions: inout [Attribution],
                                         mentions: [NameMention], mentionEntity: [Int], tokens: [Token]) {
        var lines = Array(repeating: 0, count: entities.count)
        for a in attributions where a.entity >= 0 && a.entity < entities.count { lines[a.entity] += 1 }
        var roles: [Int] = []
        for e in entities.indices where entities[e].kind == .role && !entities[e].introduced && lines[e] >= 1 && genders[e] != .unknown {
            guard let form = entities[e].firstForm else { continue }
            let w = form.split(separator: " ").map(String.init)
            // "the child" says nothing of who: the last person named before its lines is as often
            // the adult it talks to (the sample story's niece went to her aunt).
            // "asked the astonished father": a relative is described so as anyone is.
            // A relative of one or two lines ("said the mother") is someone's, not the one just named.
            guard w.count >= 2, w[0] == "the", let head = w.last, generic.contains(head) || definiteKin.contains(head) && lines[e] >= 3,
                  head != "child" else { continue }
            // "the hump-backed man" is picked out by a trait, as the one the narration brought in so.
            guard w.dropFirst().dropLast().allSatisfy(Lexicon.isAgeCue) else { continue }
            roles.append(e)
        }
        guard !roles.isEmpty else { return }
        // An indefinite use ("a young man") in the few paragraphs before a line introduces a new person.
        var indefiniteParagraphs: [Int: [Int]] = [:]
        for i in 0..<max(0, tokens.count - 2) where tokens[i].lower == "a" || tokens[i].lower == "an" {
            for e in roles {
                let w = entities[e].firstForm!.split(separator: " ").dropFirst().map(String.init)
                if tokens[i + 1].lower == w[0], w.count == 1 || tokens[i + 2].lower == w[w.count - 1] {
                    indefiniteParagraphs[e, default: []].append(tokens[i].paragraph)
                }
            }
        }
        var quoteParagraph: [Int: Int] = [:]
        // The named men and women the narration mentions last before each quote, newest first,
        // with the paragraph of that mention: three who speak (for any description) and three who
        // never speak by name (for a short one: "Gregory's sister Rosamond laughed").
        var recent: [Gender: [(entity: Int, paragraph: Int)]] = [:]
        var before: [Int: [Gender: [(entity: Int, paragraph: Int)]]] = [:]
        var mentionAtToken: [Int: Int] = [:]
        for (index, mention) in mentions.enumerated() where !mention.inQuote { mentionAtToken[mention.firstToken] = index }
        var currentQuote = -1
        for (i, t) in tokens.enumerated() {
            if t.quote >= 0, t.quote != currentQuote { before[t.quote] = recent; quoteParagraph[t.quote] = t.paragraph }
            currentQuote = t.quote
            guard let index = mentionAtToken[i] else { continue }
            let e = mentionEntity[index]
            guard e >= 0, e < entities.count, entities[e].kind == .named, genders[e] != .unknown else { continue }
            let speaks = lines[e] > 0
            // One who never speaks counts by a known given name or a title, not a people's name ("Poles").
            guard speaks || entities[e].givenName.map(FirstNames.isGivenName) == true || !entities[e].titles.isEmpty else { continue }
            var list = recent[genders[e], default: []]
            list.removeAll { $0.entity == e }
            list.insert((e, t.paragraph), at: 0)
            if let fourth = list.indices.filter({ (lines[list[$0].entity] > 0) == speaks }).dropFirst(3).first { list.remove(at: fourth) }
            recent[genders[e]] = list
        }
        var target = Array(repeating: -1, count: entities.count)
        for e in roles {
            var votes: [Int: Int] = [:]
            let introduced = attributions.indices.contains { q in
                attributions[q].entity == e && (indefiniteParagraphs[e] ?? []).contains { p in
                    let line = quoteParagraph[q] ?? -1
                    return p <= line && p >= line - 3
                }
            }
            func nearIntroduction(_ q: Int) -> Bool {
                let line = quoteParagraph[q] ?? -1
                return (indefiniteParagraphs[e] ?? []).contains { $0 <= line && $0 >= line - 3 }
            }
            // "The old gentleman" is no child, and "the young lady" no old woman.
            let cues = Set(entities[e].firstForm!.split(separator: " ").map(String.init))
            func ageFits(_ named: Int) -> Bool {
                let age = named < ages.count ? ages[named] : .unknown
                if !cues.isDisjoint(with: ["old", "elderly", "aged"]) { return age != .child && age != .teen }
                if !cues.isDisjoint(with: ["young", "little", "boy", "girl", "lad", "lass"]) { return age != .elderly }
                return true
            }
            // A role of one or two lines is the person only when named in the lead-in ("Lady
            // Narborough sat at the head of the table. '…,' said the old lady"), who may be one
            // never speaking by name; not when brought in as "a plainly dressed lady" (someone
            // new), nor a bare "the man", what a tag calls anyone it knows no more of.
            let short = lines[e] < 3
            let mayBeSilent = short && !entities[e].formCounts.keys.contains { $0.hasPrefix("a ") || $0.hasPrefix("an ") }
                && !["the man", "the woman"].contains(entities[e].firstForm ?? "")
            var lineCandidate: [Int: Int] = [:]
            for (q, a) in attributions.enumerated() where a.entity == e {
                // Someone who speaks the turn before or after is the role's interlocutor, not the role.
                // For a short role, the nearest other speakers (a line in two parts is one turn):
                // "Matthew went up to the platform. '…,' said the old man. '…' / '…,' said Matthew"
                // is the man he went up to.
                let neighbours = !short ? [q - 1, q + 1].filter { attributions.indices.contains($0) }.map { attributions[$0].entity }
                    : [attributions.neighbour(of: q, step: -1), attributions.neighbour(of: q, step: 1)].compactMap { $0 }
                let lineParagraph = quoteParagraph[q] ?? 0
                let named = before[q]?[genders[e]]?.first { candidate in
                    guard ageFits(candidate.entity) else { return false }
                    return lines[candidate.entity] > 0 ? !neighbours.contains(candidate.entity) : mayBeSilent && lineParagraph - candidate.paragraph <= 1
                }
                if let named, !short || lineParagraph - named.paragraph <= 1 {
                    votes[named.entity, default: 0] += 1
                    if !nearIntroduction(q) { lineCandidate[q] = named.entity }
                }
            }
            // At least half the role's lines, and clearly ahead of the runner-up.
            guard !introduced, let best = votes.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }), 2 * best.value >= lines[e],
                  !votes.contains(where: { $0.key != best.key && $0.value >= best.value }) else {
                // A description used for several people ("the old gentleman" is Mr. Brownlow in
                // one chapter, Fagin in another): like a pronoun, each line is the person of its
                // gender the narration named last, who is not its interlocutor.
                for (q, named) in lineCandidate { attributions[q].entity = named }
                continue
            }
            target[e] = best.key
        }
        apply(target: target, entities: &entities, attributions: &attributions)
    }

    /// "Mr. Gibson was the doctor of Hollingford", "Mr. Gibson, the doctor, came in", "the doctor,
    /// Mr. Gibson,": the narration says who a role is. A role the tags call by a noun that is no
    /// mere man or woman ("said the doctor", "asked the Secretary") is the one named person of a
    /// compatible gender the narration so equates with that noun; two or more, and it stays a role.
    static func joinStatedIdentity(entities: inout [Entity], genders: [Gender], attributions: inout [Attribution],
                                   mentions: [NameMention], mentionEntity: [Int], tokens: [Token]) {
        var lines = Array(repeating: 0, count: entities.count)
        for a in attributions where a.entity >= 0 && a.entity < entities.count { lines[a.entity] += 1 }
        let roleHead = statedRoleHeads(entities: entities, lines: lines, mentions: mentions, mentionEntity: mentionEntity, tokens: tokens)
        guard !roleHead.isEmpty else { return }
        let stated = statements(of: Set(roleHead.values), excluding: Set(roleHead.keys), entities: entities,
                                mentions: mentions, mentionEntity: mentionEntity, tokens: tokens)
        var firstLine = Array(repeating: Int.max, count: entities.count)
        var quoteStart: [Int: Int] = [:]
        for (index, token) in tokens.enumerated() where token.quote >= 0 && quoteStart[token.quote] == nil { quoteStart[token.quote] = index }
        for (q, a) in attributions.enumerated() where a.entity >= 0 && a.entity < entities.count {
            firstLine[a.entity] = min(firstLine[a.entity], quoteStart[q] ?? Int.max)
        }
        var target = Array(repeating: -1, count: entities.count)
        for (role, head) in roleHead {
            // Said before the role first speaks: "the Jew was the new comer" in chapter 15 does
            // not make him the new comer of chapter 11.
            let people = (stated[head] ?? [:]).filter { genders[$0.key].admits(genders[role]) }
            if people.count == 1, let person = people.first, person.value < firstLine[role] { target[role] = person.key }
        }
        apply(target: target, entities: &entities, attributions: &attributions)
    }

    /// The speaking roles a statement can name, by their head noun: "the doctor" (not a mere man,
    /// a group or someone brought in as "a doctor"), and a capitalised noun the text only ever
    /// writes after "the" ("the Secretary").
    private static func statedRoleHeads(entities: [Entity], lines: [Int], mentions: [NameMention], mentionEntity: [Int],
                                        tokens: [Token]) -> [Int: String] {
        var roleHead: [Int: String] = [:]
        for e in entities.indices where entities[e].kind == .role && lines[e] > 0 && !entities[e].isGroup && !entities[e].introduced {
            guard let w = entities[e].firstForm?.split(separator: " ").map(String.init), w.count >= 2, w[0] == "the",
                  let head = w.last, !generic.contains(head), !unstated.contains(head) else { continue }
            roleHead[e] = head
        }
        var theBefore = Array(repeating: true, count: entities.count), mentioned = Array(repeating: false, count: entities.count)
        for (index, mention) in mentions.enumerated() where mentionEntity[index] >= 0 && mentionEntity[index] < entities.count {
            let e = mentionEntity[index]
            mentioned[e] = true
            if mention.title != nil || mention.words.count != 1 || mention.firstToken == 0 || tokens[mention.firstToken - 1].lower != "the" {
                theBefore[e] = false
            }
        }
        for e in entities.indices where entities[e].kind == .named && lines[e] > 0 && mentioned[e] && theBefore[e] && entities[e].formCounts.count == 1 {
            if let head = entities[e].formCounts.keys.first, !generic.contains(head), !unstated.contains(head) { roleHead[e] = head }
        }
        return roleHead
    }

    /// Head noun → each named person the narration states to be it, with the token where it first
    /// says so. `excluding`: the capitalised roles themselves, no people to be stated.
    private static func statements(of heads: Set<String>, excluding: Set<Int>, entities: [Entity], mentions: [NameMention],
                                   mentionEntity: [Int], tokens: [Token]) -> [String: [Int: Int]] {
        var stated: [String: [Int: Int]] = [:]
        for (index, mention) in mentions.enumerated() where !mention.inQuote {
            let e = mentionEntity[index]
            guard e >= 0, e < entities.count, entities[e].kind == .named, !excluding.contains(e), !tokens[mention.endToken - 1].isPossessive else { continue }
            for head in statedRoles(of: mention, heads: heads, tokens: tokens) where heads.contains(head) && stated[head]?[e] == nil {
                stated[head, default: [:]][e] = mention.firstToken
            }
        }
        return stated
    }

    /// Heads too common to say who: anyone may be "the stranger" or "the other".
    private static let unstated: Set<String> = ["person", "fellow", "stranger", "other", "one", "visitor", "speaker", "voice", "servant"]
    /// "to the magistrate": a noun phrase after these is their object, not someone's apposition.
    private static let prepositions: Set<String> = ["to", "from", "at", "in", "into", "with", "by", "for", "of", "on", "upon", "towards",
                                                    "toward", "near", "about", "after", "before", "behind", "beside", "like", "than"]
    /// Words that may follow the role's noun in such a statement ("the doctor of Hollingford").
    private static let afterStatedRole: Set<String> = [",", ".", ";", ":", "!", "?", "of", "in", "at", "who", "and", "to", "from", "there", "here", "himself", "herself"]

    /// The role nouns the narration equates with a name mention: "NAME was (is) the [two words] NOUN",
    /// "NAME, the [two words] NOUN," and "the [two words] NOUN, NAME".
    private static func statedRoles(of mention: NameMention, heads: Set<String>, tokens: [Token]) -> [String] {
        let paragraph = tokens[mention.firstToken].paragraph
        func narration(_ k: Int) -> Bool { k >= 0 && k < tokens.count && tokens[k].quote < 0 && tokens[k].paragraph == paragraph }
        // The noun of "the [a b] noun" from `the` on: its index, when the words are lower case.
        func roleNoun(from the: Int) -> Int? {
            guard narration(the), tokens[the].lower == "the" else { return nil }
            for k in (the + 1)...(the + 3) where narration(k) && tokens[k].isWord && (!tokens[k].isCapitalized || heads.contains(tokens[k].lower)) {
                let next = k + 1
                if tokens[k].isPossessive { return nil }
                if !narration(next) || afterStatedRole.contains(tokens[next].lower) { return k }
            }
            return nil
        }
        var nouns: [String] = []
        let end = mention.endToken
        if narration(end + 1), ["was", "is"].contains(tokens[end].lower), let k = roleNoun(from: end + 1) { nouns.append(tokens[k].lower) }
        if narration(end + 1), tokens[end].lower == ",", let k = roleNoun(from: end + 1), narration(k + 1), tokens[k + 1].lower == "," {
            nouns.append(tokens[k].lower)
        }
        // "The doctor, Mr. Gibson, came in", "and the Secretary, Mr. Rokesmith, came in": the role's
        // phrase ends in a comma just before the name and opens the sentence or is set off by a
        // comma after it ("On their way to the magistrate, Mr. Bumble said" is no such phrase).
        let comma = mention.firstToken - 1
        if narration(comma), tokens[comma].lower == ",", narration(end), [",", "."].contains(tokens[end].lower) {
            for the in stride(from: comma - 2, through: max(0, comma - 4), by: -1)
            where tokens[the].sentenceInitial || tokens[end].lower == "," && the > 0 && !prepositions.contains(tokens[the - 1].lower) {
                if let k = roleNoun(from: the), k == comma - 1 { nouns.append(tokens[k].lower); break }
            }
        }
        return nouns
    }

    private static let kinship: Set<String> = ["niece", "nephew", "sister", "brother", "cousin", "daughter", "son",
                                               "mother", "father", "aunt", "uncle", "grandmother", "grandfather"]

    /// People known by whom they are with ("said his host"): named only when called by the name
    /// ("Hamidullah, Hamidullah! am I late?"), not when the name is only spoken of (a place may be).
    private static let companions: Set<String> = ["host", "hostess", "guest", "companion", "friend"]

    /// A relative the narration only calls by role ("said the niece") is often named by the
    /// others in dialogue ("I hope Vera has been amusing you?"): when, among the quotes around
    /// the role's lines, other speakers name exactly one person of a compatible gender who never
    /// appears in narration and never speaks under that name, the role takes that name as an alias.
    static func nameFromDialogue(entities: inout [Entity], genders: [Gender], attributions: [Attribution], vocatives: [[Int]],
                                 mentions: [NameMention], mentionEntity: [Int], tokens: [Token]) {
        var lines = Array(repeating: 0, count: entities.count)
        var firstLine = Array(repeating: Int.max, count: entities.count), lastLine = Array(repeating: -1, count: entities.count)
        for (q, a) in attributions.enumerated() where a.entity >= 0 && a.entity < entities.count {
            lines[a.entity] += 1
            firstLine[a.entity] = min(firstLine[a.entity], q); lastLine[a.entity] = max(lastLine[a.entity], q)
        }
        var inNarration = Array(repeating: false, count: entities.count)
        for (index, mention) in mentions.enumerated() where !mention.inQuote && mentionEntity[index] >= 0 {
            inNarration[mentionEntity[index]] = true
        }
        for role in entities.indices where entities[role].kind == .role && lines[role] > 0 {
            guard let head = entities[role].formCounts.max(by: { ($0.value, $1.key) < ($1.value, $0.key) })?.key.split(separator: " ").last,
                  kinship.contains(String(head)) || companions.contains(String(head)) else { continue }
            let calledOnly = companions.contains(String(head))
            let window = max(0, firstLine[role] - 3)...(lastLine[role] + 3)
            var named: Set<Int> = []
            for (index, mention) in mentions.enumerated() where mention.inQuote {
                let e = mentionEntity[index], q = tokens[mention.firstToken].quote
                guard e >= 0, e < entities.count, q >= 0, q < attributions.count, window.contains(q),
                      attributions[q].entity != role, entities[e].kind == .named, lines[e] == 0, !inNarration[e],
                      genders[e].admits(genders[role]), !calledOnly || q < vocatives.count && vocatives[q].contains(e) else { continue }
                named.insert(e)
            }
            guard named.count == 1, let name = named.first else { continue }
            for (key, _) in entities[name].formCounts where entities[role].formCounts[key] == nil {
                entities[role].formCounts[key] = 0
                entities[role].formDisplay[key] = entities[name].formDisplay[key]
            }
        }
    }

    /// The grandmother "seventy-five years of age Antonida Vassilievna" is called by that name
    /// ("Pardon me, Antonida Vassilievna," I replied) and never so named in a tag: the answer to
    /// such a call went to the name (`addressee`) while her tagged lines went to the role. When
    /// a relative known by role is called by one name in the turns beside at least two of its
    /// lines, by no other name as often, and that name speaks only where called and the narration
    /// names it at most once, the two are one person: the role takes the name and its lines.
    static func nameCalledBeside(entities: inout [Entity], genders: [Gender], attributions: inout [Attribution],
                                 vocatives: [[Int]], mentions: [NameMention], mentionEntity: [Int]) {
        var lines = Array(repeating: 0, count: entities.count), linesAsCalled = lines, inNarration = lines
        for a in attributions where a.entity >= 0 && a.entity < entities.count {
            lines[a.entity] += 1
            if a.evidence == .addressee { linesAsCalled[a.entity] += 1 }
        }
        for (index, mention) in mentions.enumerated() where !mention.inQuote && mentionEntity[index] >= 0 && mentionEntity[index] < entities.count {
            inNarration[mentionEntity[index]] += 1
        }
        for role in entities.indices where entities[role].kind == .role && lines[role] > 0 {
            guard let head = entities[role].formCounts.max(by: { ($0.value, $1.key) < ($1.value, $0.key) })?.key.split(separator: " ").last,
                  kinship.contains(String(head)) else { continue }
            var calls: [Int: Int] = [:]
            for q in attributions.indices where attributions[q].entity == role {
                var called: Set<Int> = []
                for neighbour in [q - 1, q + 1] where neighbour >= 0 && neighbour < attributions.count && neighbour < vocatives.count
                    && attributions[neighbour].entity != role {
                    called.formUnion(vocatives[neighbour])
                }
                for e in called { calls[e, default: 0] += 1 }
            }
            guard let top = calls.values.max(), top >= 2, calls.values.filter({ $0 == top }).count == 1,
                  let name = calls.first(where: { $0.value == top })?.key, name >= 0, name < entities.count,
                  entities[name].kind == .named, lines[name] == linesAsCalled[name], inNarration[name] <= 1,
                  genders[name].admits(genders[role]) else { continue }
            for q in attributions.indices where attributions[q].entity == name { attributions[q].entity = role }
            for (key, _) in entities[name].formCounts where entities[role].formCounts[key] == nil {
                entities[role].formCounts[key] = 0
                entities[role].formDisplay[key] = entities[name].formDisplay[key]
            }
        }
    }
}
