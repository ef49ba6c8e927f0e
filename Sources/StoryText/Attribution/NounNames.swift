/// Names that are common nouns written with a capital ("the Knave", "a Canary", "the Hatter"):
/// the article shows the name is a description, so the ways the narration describes the
/// character with it are how the reader knows them, and are kept as aliases.
enum NounNames {
    /// Adds to each such character "the Knave of Hearts" (a name followed by "of" and a
    /// capitalised word, written twice or more: what picks the Knave out of the pack) and
    /// "a Canary" (the indefinite the narration brings the character in with).
    static func describe(entities: inout [Entity], mentions: [NameMention], mentionEntity: [Int], tokens: [Token]) {
        var withArticle: [Int: Int] = [:], without: [Int: Int] = [:]
        var ofPhrases: [Int: [String: Int]] = [:]
        var indefinites: [Int: [String]] = [:]
        var epithets: [Int: [String: Int]] = [:]
        for (index, mention) in mentions.enumerated() where !mention.inQuote && mention.title == nil && mention.words.count == 1 {
            let e = mentionEntity[index]
            guard e >= 0, mention.firstToken > 0 else { continue }
            // "the Invisible Man": a capitalised word no name of its own (else the mention would
            // hold it), between the article and the name, is part of it; a place's noun is not.
            let k = mention.firstToken - 1
            if k >= 1, tokens[k].isWord, tokens[k].isCapitalized, !tokens[k].sentenceInitial, !tokens[k].isPossessive,
               tokens[k].paragraph == tokens[mention.firstToken].paragraph, tokens[k - 1].lower == "the",
               !Lexicon.placeNouns.contains(tokens[k].lower), !Lexicon.establishmentNouns.contains(tokens[k].lower),
               !NameMentionFinder.streetNouns.contains(tokens[k].lower) {
                let adjective = tokens[k].lower.prefix(1).uppercased() + tokens[k].lower.dropFirst()
                epithets[e, default: [:]][adjective + " " + mention.surface, default: 0] += 1
                withArticle[e, default: 0] += 1
                continue
            }
            let article = tokens[mention.firstToken - 1].lower
            guard ["the", "a", "an"].contains(article) else { without[e, default: 0] += 1; continue }
            withArticle[e, default: 0] += 1
            if article != "the" {
                indefinites[e, default: []].append(article + " " + mention.surface)
            } else if let phrase = ofPhrase(after: mention, tokens: tokens) {
                ofPhrases[e, default: [:]]["the " + mention.surface + " " + phrase, default: 0] += 1
            }
        }
        // Written so twice or more, the whole is the character's name ("the Invisible Man", not "Man").
        for (e, phrases) in epithets where entities[e].kind == .named && entities[e].formCounts.count == 1 {
            guard let (phrase, times) = phrases.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }), times >= 2 else { continue }
            let key = phrase.lowercased()
            entities[e].formCounts[key] = times
            entities[e].formDisplay[key] = "the " + phrase
        }
        for (e, count) in withArticle where count > without[e, default: 0] && entities[e].kind == .named {
            var found = indefinites[e, default: []]
            if let (phrase, times) = ofPhrases[e]?.max(by: { $0.value < $1.value }), times >= 2 { found.append(phrase) }
            for description in found where !entities[e].descriptions.contains(description) {
                entities[e].descriptions.append(description)
            }
        }
    }

    /// "of Hearts" after "the Knave": "of" and one capitalised word, in the same paragraph.
    private static func ofPhrase(after mention: NameMention, tokens: [Token]) -> String? {
        let k = mention.endToken
        guard k + 1 < tokens.count, tokens[k].lower == "of", tokens[k + 1].isWord, tokens[k + 1].isCapitalized,
              tokens[k + 1].paragraph == tokens[k].paragraph, !tokens[mention.endToken - 1].isPossessive else { return nil }
        let word = tokens[k + 1].lower
        return "of " + (word.prefix(1).uppercased() + word.dropFirst())
    }
}
