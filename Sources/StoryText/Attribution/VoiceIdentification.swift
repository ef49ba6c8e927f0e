import StoryModel

/// An unseen speaker the narration identifies right after the line: `"No," replied the voice;
/// "God forbid." / This was a vagrant of sixty-five`, `"Go away now," a voice whispered to me.
/// The person who had spoken to me was a certain Jew of Frankfurt`, `the second voice had come
/// from a modestly, plainly dressed lady`, `A high piping voice called, "Grandmamma!" It was little
/// Tom`. The voice's lines of that run are that person's.
extension SpeakerAttributor {
    /// Who the narration says a voice was: someone it names, or a description.
    enum VoiceOwner {
        case named(entity: Int)
        case described(key: String, gender: Gender, written: String)
    }

    mutating func identifyVoices(_ result: inout [Attribution]) {
        for q in quotes.indices where result[q].entity >= 0 && isVoice(result[q].entity) {
            guard let owner = identification(after: q) else { continue }
            let voice = result[q].entity
            let person: Int
            switch owner {
            case .named(let entity):
                person = entity
            case .described(let key, let gender, let written):
                person = roleEntityIndex(key: key, display: key, gender: gender, position: quotes[q].start)
                if entities[person].kind == .role, !entities[person].descriptions.contains(written) { entities[person].descriptions.append(written) }
            }
            // The voice's lines of the same exchange: the run it is in, no narration paragraph between.
            var k = q
            while true {
                if result[k].entity == voice { result[k].entity = person }
                guard k > 0, quotes[k].paragraph - quotes[k - 1].lastParagraph <= 1 else { break }
                k -= 1
            }
            k = q
            while k + 1 < quotes.count, quotes[k + 1].paragraph - quotes[k].lastParagraph <= 1 {
                k += 1
                if result[k].entity == voice { result[k].entity = person }
            }
        }
    }

    private func isVoice(_ entity: Int) -> Bool {
        entities[entity].kind == .role && (entities[entity].firstForm?.hasSuffix("voice") ?? false)
    }

    /// Who the first two sentences of narration after the quote identify its speaker as: "It was
    /// little Tom", "This was a …", "The person who had spoken … was a …", "the voice had come from a …",
    /// "I turned to find Mary Cavendish".
    private func identification(after q: Int) -> VoiceOwner? {
        var i = quoteTokens[q].upperBound
        let lastParagraph = quotes[q].lastParagraph + 1
        var sentences = 0
        var sentenceStart = i
        while i < tokens.count, tokens[i].paragraph <= lastParagraph {
            if tokens[i].quote >= 0 {
                // The rest of the line's own paragraph, then narration only.
                if tokens[i].paragraph > quotes[q].lastParagraph { return nil }
                i += 1; sentenceStart = i; continue
            }
            if tokens[i].sentenceInitial, i > sentenceStart { sentences += 1; sentenceStart = i }
            if sentences >= 2 { return nil }
            let word = tokens[i].lower
            let opener = tokens[sentenceStart].lower
            let identifies = word == "was" && (["this", "that", "it"].contains(opener) && i == sentenceStart + 1
                || (sentenceStart..<i).contains { tokens[$0].lower == "spoken" })
                || word == "from" && i >= 2 && tokens[i - 1].lower == "come" && (sentenceStart..<i).contains { tokens[$0].lower == "voice" }
            if identifies, i + 1 < tokens.count, ["a", "an"].contains(tokens[i + 1].lower), let found = description(at: i + 1) {
                return .described(key: found.key, gender: found.gender, written: found.written)
            }
            if identifies, i == sentenceStart + 1, let named = namedPerson(at: i + 1) { return .named(entity: named) }
            // "asked a voice behind me, and I turned to find Mary Cavendish at my elbow".
            if ["find", "found", "saw", "beheld"].contains(word), (sentenceStart..<i).contains(where: { ["turned", "turning", "looked", "looking"].contains(tokens[$0].lower) }),
               i + 1 < tokens.count, mentionAt[i + 1] >= 0, case let m = Int(mentionAt[i + 1]), mentionEntity[m] >= 0,
               !tokens[mentions[m].endToken - 1].isPossessive, entities[mentionEntity[m]].kind == .named {
                return .named(entity: mentionEntity[m])
            }
            i += 1
        }
        return nil
    }

    /// "It was Tom", "It was little Tom Smith", "It was the old Duke": a person the text names,
    /// after at most two lower-case words, the name ending the clause or followed by "who"
    /// (not "It was Tom's hat", "It was Tom Jones the book").
    private func namedPerson(at start: Int) -> Int? {
        var k = start
        while k < tokens.count, k - start < 2, tokens[k].isWord, !tokens[k].isCapitalized { k += 1 }
        guard k < tokens.count, tokens[k].quote < 0, mentionAt[k] >= 0 else { return nil }
        let m = Int(mentionAt[k])
        let end = mentions[m].endToken
        let ends = end >= tokens.count || !tokens[end].isWord || tokens[end].paragraph != tokens[k].paragraph || ["who", "that"].contains(tokens[end].lower)
        guard mentionEntity[m] >= 0, !tokens[end - 1].isPossessive, ends else { return nil }
        return mentionEntity[m]
    }

    /// "a vagrant of sixty-five", "a certain Jew of Frankfurt", "a modestly, plainly dressed lady":
    /// the words up to a clause, a mark (a comma only after a manner adverb) or an "of" that
    /// does not name a place; its head is the last word before "of".
    private func description(at i: Int) -> (key: String, gender: Gender, written: String)? {
        var words: [String] = []
        var j = i + 1
        var head: String?
        while j < tokens.count, words.count < 6, tokens[j].quote < 0, tokens[j].paragraph == tokens[i].paragraph {
            let t = tokens[j]
            if t.lower == ",", let last = words.last, last.hasSuffix("ly") { j += 1; continue }
            guard t.isWord, !["who", "whom", "which", "that", "a", "an", "and", "with"].contains(t.lower) else { break }
            // "of Frankfurt" names where the person is from; "of sixty-five", "of rather less than
            // thirty" describe them further and end the description.
            if t.lower == "of" {
                head = head ?? words.last
                guard j + 1 < tokens.count, tokens[j + 1].isCapitalized, tokens[j + 1].isWord else { break }
                words += ["of", tokens[j + 1].lower]
                j += 2
                break
            }
            words.append(t.lower)
            j += 1
        }
        guard let noun = head ?? words.last, !noun.hasSuffix("ly"), noun.count > 2, words.count >= 1,
              !Lexicon.notNames.contains(noun) else { return nil }
        let modifiers = words.prefix { $0 != noun }
        let key = roleKey("the", modifiers: modifiers, head: noun)
        let gender = Lexicon.roleNouns[noun] ?? GenderAgeInference.nounGender(noun) ?? .unknown
        return (key, gender, writtenPhrase(i..<j))
    }
}
