import StoryModel

/// Gives a first-person narrator the name other characters call them by: the name most often
/// used as a vocative in the turns around the narrator's own, and (being the narrator's own
/// name) seldom written in the narration itself.
enum NarratorNaming {
    static func name(narrator: Int, entities: inout [Entity], estimates: inout [GenderAgeInference.Estimate],
                     attributions: inout [Attribution], quotes: [QuoteSpan], vocatives: [[Int]], narrationMentions: [Int]) {
        var votes: [Int: Int] = [:]
        var counted: Set<Int> = []
        for q in quotes.indices where attributions[q].entity == narrator {
            for neighbour in (q - 2)...(q + 2) where neighbour >= 0 && neighbour < quotes.count && neighbour != q {
                guard attributions[neighbour].entity != narrator, counted.insert(neighbour).inserted else { continue }
                guard abs(quotes[neighbour].paragraph - quotes[q].paragraph) <= 3 else { continue }
                for entity in Set(vocatives[neighbour]) where entity != narrator && entities[entity].kind == .named {
                    votes[entity, default: 0] += 1
                }
            }
        }
        let ranked = votes.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        let narratorLines = attributions.filter { $0.entity == narrator }.count
        // The name must be used for the narrator more than it speaks itself.
        let chosen = ranked.first { candidate in
            let ownLines = attributions.filter { $0.entity == candidate.key }.count
            let inNarration = candidate.key < narrationMentions.count ? narrationMentions[candidate.key] : 0
            return candidate.value >= 2 && inNarration * 2 <= candidate.value && (ownLines <= candidate.value * 2 || ownLines * 5 < narratorLines)
        }
        guard let best = chosen?.key else { return }
        for (key, value) in entities[best].formCounts {
            entities[narrator].add(formKey: key, display: entities[best].formDisplay[key] ?? key, title: nil, count: value * 2, position: entities[best].firstPosition)
        }
        entities[narrator].formCounts["i"] = 0
        entities[narrator].givenName = entities[best].givenName
        entities[narrator].titles = entities[best].titles
        if estimates[best].gender != .unknown, estimates[best].genderConfidence > estimates[narrator].genderConfidence { estimates[narrator].gender = estimates[best].gender; estimates[narrator].genderConfidence = estimates[best].genderConfidence * 0.9 }
        for q in attributions.indices where attributions[q].entity == best { attributions[q].entity = narrator }
    }
}
