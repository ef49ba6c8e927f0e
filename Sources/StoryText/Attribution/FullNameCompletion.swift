import StoryModel

/// Gives a speaker known by title and surname ("Mr. Bounderby") the full name the story writes
/// for that family member ("Josiah Bounderby"), when the full name hardly speaks under its own
/// name (its lines move too): a character is introduced or described in full, then called by title. Full names and
/// titled speakers of one surname are paired only where the pairing is forced (Loo Bounderby
/// can only be Mrs. Bounderby, so Josiah is Mr. Bounderby). The full name becomes the display name.
enum FullNameCompletion {
    static func complete(entities: inout [Entity], genders: [Gender], attributions: inout [Attribution]) {
        var lines = Array(repeating: 0, count: entities.count)
        for a in attributions where a.entity >= 0 && a.entity < lines.count { lines[a.entity] += 1 }
        func gender(_ e: Int) -> Gender {
            if e < genders.count, genders[e] != .unknown { return genders[e] }
            return entities[e].givenName.map(FirstNames.gender(of:)) ?? .unknown
        }
        func compatible(_ a: Int, _ b: Int) -> Bool { gender(a) == .unknown || gender(b) == .unknown || gender(a) == gender(b) }
        let named = entities.indices.filter { entities[$0].kind == .named }
        var families: [String: (full: [Int], titled: [Int])] = [:]
        for e in named {
            guard let surname = entities[e].surname else { continue }
            if let given = entities[e].givenName, entities[e].formCounts.keys.contains(where: { $0.split(separator: " ").count >= 2 }),
               !isWifeByHusbandsName(entities[e], given: given) {
                families[surname, default: ([], [])].full.append(e)
            } else if lines[e] > 0, entities[e].givenName == nil, !entities[e].titles.isEmpty {
                families[surname, default: ([], [])].titled.append(e)
            }
        }
        // "Mrs. Robert Ferrars" names a wife by her husband's name: not the Mrs. Ferrars of the story.
        func isWifeByHusbandsName(_ entity: Entity, given: String) -> Bool {
            let nameGender = FirstNames.gender(of: given)
            return nameGender != .unknown && entity.titles.keys.contains { (Lexicon.honorifics[$0] ?? nil).map { $0 != nameGender } == true }
        }
        for (surname, family) in families.sorted(by: { $0.key < $1.key }) {
            // A speaker of the family with a given name of their own may be the full name too.
            let namedSpeakers = named.filter { lines[$0] > 0 && entities[$0].surname == surname && entities[$0].givenName != nil }
            var full = family.full, titled = family.titled
            var changed = true
            while changed {
                changed = false
                for f in full {
                    // A full name never titled that a pronoun tag or two gave lines to is still the
                    // titled speaker ("Josiah Bounderby", 3 lines, beside Mr. Bounderby's 400).
                    let targets = titled.filter { compatible($0, f) && (lines[f] == 0 || entities[f].titles.isEmpty && lines[f] * 10 <= lines[$0])
                        && !(entities[f].isKnighted && entities[$0].titles["mr"] != nil) }
                    guard targets.count == 1, let target = targets.first, !namedSpeakers.contains(where: { $0 != f && compatible($0, f) }) else { continue }
                    for (key, count) in entities[f].formCounts where entities[target].formCounts[key] == nil {
                        entities[target].formCounts[key] = count
                        entities[target].formDisplay[key] = entities[f].formDisplay[key]
                    }
                    entities[target].givenName = entities[f].givenName
                    for q in attributions.indices where attributions[q].entity == f { attributions[q].entity = target }
                    full.removeAll { $0 == f }
                    titled.removeAll { $0 == target }
                    changed = true
                    break
                }
            }
        }
    }

    /// "Charlotte, don't you feel …?" said Lucy, between two of Miss Bartlett's lines: a titled
    /// speaker with no given name of her own ("Miss Bartlett", "the Duchess of Monmouth") is called
    /// by one by the people she talks with. A lone given name called at least twice in a turn beside
    /// the titled one's, twice as often as beside anyone else of its gender (but itself), and never
    /// answering her, is hers.
    static func completeFromCalls(entities: inout [Entity], genders: [Gender], attributions: inout [Attribution], vocatives: [[Int]]) {
        var lines = Array(repeating: 0, count: entities.count)
        for a in attributions where a.entity >= 0 && a.entity < lines.count { lines[a.entity] += 1 }
        func isTitled(_ e: Int) -> Bool {
            entities[e].kind == .named && entities[e].givenName == nil && !entities[e].titles.isEmpty && lines[e] > 0
        }
        func isLoneGiven(_ e: Int) -> Bool {
            entities[e].kind == .named && entities[e].givenName != nil && entities[e].surname == nil && entities[e].titles.isEmpty
                && entities[e].formCounts.keys.allSatisfy { !$0.contains(" ") }
        }
        func gender(_ e: Int) -> Gender { e < genders.count ? genders[e] : .unknown }
        var calls: [Int: [Int: Int]] = [:]
        var answers: Set<[Int]> = []
        for q in attributions.indices where attributions[q].entity >= 0 && attributions[q].entity < entities.count {
            let neighbours = Set([-1, 1].compactMap { attributions.neighbour(of: q, step: $0) })
            for n in neighbours { answers.insert([attributions[q].entity, n]) }
            guard q < vocatives.count else { continue }
            for v in Set(vocatives[q]) where v >= 0 && v < entities.count && isLoneGiven(v) {
                for n in neighbours where n >= 0 && n < entities.count && n != attributions[q].entity && gender(v).admits(gender(n)) {
                    calls[v, default: [:]][n, default: 0] += 1
                }
            }
        }
        for (given, beside) in calls.sorted(by: { $0.key < $1.key }) {
            guard let (titled, count) = beside.filter({ isTitled($0.key) }).max(by: { ($0.value, $1.key) < ($1.value, $0.key) }), count >= 2,
                  2 * beside.filter({ $0.key != titled && $0.key != given }).values.reduce(0, +) <= count,
                  gender(given).admits(gender(titled)), !answers.contains([given, titled]),
                  entities[titled].givenName == nil else { continue }  // (one given name each)
            for (key, formCount) in entities[given].formCounts where entities[titled].formCounts[key] == nil {
                entities[titled].formCounts[key] = formCount
                entities[titled].formDisplay[key] = entities[given].formDisplay[key]
            }
            entities[titled].givenName = entities[given].givenName
            for q in attributions.indices where attributions[q].entity == given { attributions[q].entity = titled }
        }
    }
}
