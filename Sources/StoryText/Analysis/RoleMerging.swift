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
}
