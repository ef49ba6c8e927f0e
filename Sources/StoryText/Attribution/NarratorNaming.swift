import StoryModel

/// Gives a first-person narrator the name other characters call them by: the name most often
/// used as a vocative in the turns around the narrator's own, and (being the narrator's own
/// name) seldom written in the narration itself.
enum NarratorNaming {
    /// What the narration knows of its names: its tokens, the name mentions and their entities.
    struct Names {
        var tokens: [Token]
        var mentions: [NameMention]
        var mentionEntity: [Int]
    }

    static func name(narrator: Int, entities: inout [Entity], estimates: inout [GenderAgeInference.Estimate],
                     attributions: inout [Attribution], quotes: [QuoteSpan], vocatives: [[Int]], narrationMentions: [Int],
                     names: Names) {
        if let own = selfNamed(narrator: narrator, names: names, attributions: attributions, entities: entities) {
            take(own, into: narrator, entities: &entities, estimates: &estimates, attributions: &attributions)
            return
        }
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
        take(best, into: narrator, entities: &entities, estimates: &estimates, attributions: &attributions)
    }

    /// "My name is Ishmael", "Call me Ishmael" in the narration, or the narrator's own "My name is
    /// Ishmael." in a line: the one named is the narrator.
    private static func selfNamed(narrator: Int, names: Names, attributions: [Attribution], entities: [Entity]) -> Int? {
        let tokens = names.tokens
        for (index, mention) in names.mentions.enumerated() where names.mentionEntity[index] >= 0 && mention.title == nil {
            let entity = names.mentionEntity[index], start = mention.firstToken
            guard entity != narrator, entities[entity].kind == .named, start >= 2 else { continue }
            let quote = tokens[start].quote
            guard quote < 0 || quote < attributions.count && attributions[quote].entity == narrator else { continue }
            let before = (max(0, start - 3)..<start).map { tokens[$0].quote == quote ? tokens[$0].lower : "" }
            let introduces = before.suffix(2) == ["call", "me"] && quote < 0
                || before.count == 3 && before[0] == "my" && before[1] == "name" && ["is", "was"].contains(before[2])
            // "My name is Ishmael Coffin's ..." names someone else's thing.
            if introduces, !tokens[mention.endToken - 1].isPossessive { return entity }
        }
        return nil
    }

    private static func take(_ best: Int, into narrator: Int, entities: inout [Entity], estimates: inout [GenderAgeInference.Estimate],
                             attributions: inout [Attribution]) {
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
