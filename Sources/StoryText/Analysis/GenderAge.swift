import StoryModel

/// Infers each entity's gender and age band from titles, given names, role nouns and the
/// pronouns that follow its mentions in narration.
struct GenderAgeInference {
    let tokens: [Token]
    let mentions: [NameMention]
    let mentionEntity: [Int]
    /// Token index → mention index, -1 where no mention starts.
    let mentionAt: [Int32]

    struct Estimate: Sendable {
        var gender: Gender
        var genderConfidence: Double
        var age: AgeRange
        var ageConfidence: Double
    }

    /// Female minus male pronoun counts following each entity's narration mentions.
    func pronounEvidence(entityCount: Int) -> [(female: Int, male: Int)] {
        var evidence = Array(repeating: (female: 0, male: 0), count: entityCount)
        for (index, mention) in mentions.enumerated() where !mention.inQuote {
            let entity = mentionEntity[index]
            guard entity >= 0 else { continue }
            var j = mention.endToken
            let limit = min(tokens.count, j + 14)
            let paragraph = tokens[mention.firstToken].paragraph
            while j < limit {
                let t = tokens[j]
                if t.paragraph != paragraph || t.quote >= 0 || mentionAt[j] >= 0 { break }
                if Lexicon.femalePronouns.contains(t.lower) { evidence[entity].female += 1; break }
                if Lexicon.malePronouns.contains(t.lower) { evidence[entity].male += 1; break }
                j += 1
            }
        }
        return evidence
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
        } else if female != male, max(female, male) >= 2 * min(female, male) {
            gender = female > male ? .female : .male
            confidence = 0.95
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
