import StoryModel

/// Joins role characters that fiction uses for one person: a story with one speaking
/// grandmother calls her "the old lady" too, and one with one speaking niece calls her "the
/// child" or "the young lady". Only when exactly one kinship role of the right age and a compatible gender speaks.
enum RoleMerging {
    private static let elderlyKin: [String: Gender] = ["grandmother": .female, "grandfather": .male]
    private static let youngKin: [String: Gender] = ["niece": .female, "nephew": .male]
    private static let generic: Set<String> = ["lady", "woman", "gentleman", "man", "girl", "boy", "child"]

    /// Rewrites attributions from each merged role to the relative it names; the merged
    /// entity keeps no lines (so it is not listed) and its forms become the relative's aliases.
    static func merge(entities: inout [Entity], genders: [Gender], attributions: inout [Attribution]) {
        var lines = Array(repeating: 0, count: entities.count)
        for a in attributions where a.entity >= 0 && a.entity < lines.count { lines[a.entity] += 1 }
        func words(_ e: Int) -> [Substring] { entities[e].formCounts.keys.sorted().first.map { $0.split(separator: " ") } ?? [] }
        func kin(_ table: [String: Gender]) -> [Int] {
            entities.indices.filter { e in
                entities[e].kind == .role && lines[e] > 0 && words(e).last.map { table[String($0)] != nil } == true
            }
        }
        func compatible(_ a: Gender, _ b: Gender) -> Bool { a == .unknown || b == .unknown || a == b }
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
            candidates = candidates.filter { $0 != e && compatible(genders[$0], genders[e]) }
            if candidates.count == 1 { target[e] = candidates[0] }
        }
        for e in entities.indices where target[e] >= 0 {
            let t = target[e]
            for (key, _) in entities[e].formCounts where entities[t].formCounts[key] == nil {
                entities[t].formCounts[key] = 0
                entities[t].formDisplay[key] = entities[e].formDisplay[key]
            }
            entities[t].firstPosition = min(entities[t].firstPosition, entities[e].firstPosition)
        }
        for index in attributions.indices where attributions[index].entity >= 0 && attributions[index].entity < target.count {
            if target[attributions[index].entity] >= 0 { attributions[index].entity = target[attributions[index].entity] }
        }
    }

    private static let kinship: Set<String> = ["niece", "nephew", "sister", "brother", "cousin", "daughter", "son",
                                               "mother", "father", "aunt", "uncle", "grandmother", "grandfather"]

    /// A relative the narration only calls by role ("said the niece") is often named by the
    /// others in dialogue ("I hope Vera has been amusing you?"): when, among the quotes around
    /// the role's lines, other speakers name exactly one person of a compatible gender who never
    /// appears in narration and never speaks under that name, the role takes that name as an alias.
    static func nameFromDialogue(entities: inout [Entity], genders: [Gender], attributions: [Attribution],
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
        func compatible(_ a: Gender, _ b: Gender) -> Bool { a == .unknown || b == .unknown || a == b }
        for role in entities.indices where entities[role].kind == .role && lines[role] > 0 {
            guard let head = entities[role].formCounts.max(by: { ($0.value, $1.key) < ($1.value, $0.key) })?.key.split(separator: " ").last,
                  kinship.contains(String(head)) else { continue }
            let window = max(0, firstLine[role] - 3)...(lastLine[role] + 3)
            var named: Set<Int> = []
            for (index, mention) in mentions.enumerated() where mention.inQuote {
                let e = mentionEntity[index], q = tokens[mention.firstToken].quote
                guard e >= 0, e < entities.count, q >= 0, q < attributions.count, window.contains(q),
                      attributions[q].entity != role, entities[e].kind == .named, lines[e] == 0, !inNarration[e],
                      compatible(genders[e], genders[role]) else { continue }
                named.insert(e)
            }
            guard named.count == 1, let name = named.first else { continue }
            for (key, _) in entities[name].formCounts where entities[role].formCounts[key] == nil {
                entities[role].formCounts[key] = 0
                entities[role].formDisplay[key] = entities[name].formDisplay[key]
            }
        }
    }
}
