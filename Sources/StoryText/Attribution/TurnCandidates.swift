import Foundation
import StoryModel

/// A second look at the lines no tag names (issue 48, item 2): who else of the people talking
/// nearby could have said it, weighed by a model learned across the development novels instead
/// of by the hand-ordered turn rules alone. The rules' choice is one of the candidates and one of
/// the features, so the model moves a line only where what it learned outweighs the rule.
///
/// Every feature is read from the rules' attributions, never from the model's own choices, so
/// one pass decides every line, and `bench/attribution-learn.py` fits and judges the weights
/// (`LearnedSpeakerWeights`) on exactly what the Swift code computes.
struct TurnCandidates {
    /// The kinds of evidence a turn rule gives. A line a tag attributes is never reconsidered,
    /// nor one whose paragraph's subject acts (`action`) or whose pronoun tag fixes the gender
    /// (`pronounTagClose`): judged leave one novel out, the model moved those as often to the
    /// wrong person as to the right one, and broke what their rules know ("he" is never a crowd).
    static let kinds: [AttributionEvidence] = [.addressee, .continuation, .crowdedTurn, .fallback, .guess, .turnTaking]
    static let tagged: Set<AttributionEvidence> = [.namedTag, .pronounTag, .script]
    /// Lines either side whose speakers are candidates.
    static let window = 6
    /// How far back or on "since it spoke" looks.
    static let horizon = 30

    static let names: [String] = ["rule"] + kinds.map { "rule.\($0.name)" } + [
        "spoke.previousTagged", "spoke.previousUntagged", "spoke.twoBackTagged", "spoke.twoBackUntagged",
        "spoke.nextTagged", "spoke.nextUntagged", "spoke.twoOnTagged", "spoke.twoOnUntagged", "spoke.threeBack", "spoke.threeOn",
        "log2LinesSinceSpoke", "log2LinesSinceTagged", "log2LinesUntilSpeaks",
        "named.inLine", "named.inPreviousLine", "named.inNextLine", "named.inNarrationBefore", "named.inNarrationAfter",
        "log10Share", "female", "rule.candidates",
        "alternatesBack", "alternatesOn", "previousWithoutNarration", "named.inShortNarrationBefore", "recentShare",
        "pronoun.after", "pronoun.before",
        "address.previousLine", "address.nextLine",
    ]

    /// Words that address a woman or a man when no name follows them ("..., madam", "Yes,
    /// sir."): the line that answers one is likely the addressed person's, and the line before
    /// one too.
    static let addressGender: [String: Gender] = [
        "madam": .female, "maam": .female, "ma": .female, "miss": .female, "mamma": .female, "mama": .female,
        "sir": .male, "mister": .male, "papa": .male,
    ]

    /// One dialogue line as the rules left it.
    struct Line {
        var start: Int
        var end: Int
        var entity: Int
        var evidence: AttributionEvidence
        /// The first line of its quote; the quote's other lines follow its choice.
        var opensQuote: Bool
    }

    /// A line's candidates (entity indices, the rules' choice among them) and their features.
    struct Choice {
        var line: Int
        var candidates: [Int]
        var features: [[Double]]

        /// The rules' choice, or a candidate the pronoun of the tag after the line does not
        /// contradict: "she cried" is never a man's, however the turns run.
        func allowed(_ index: Int) -> Bool {
            features[index][0] == 1 || features[index][TurnCandidates.pronounAfter] != -1
        }
    }

    static let pronounAfter = names.firstIndex(of: "pronoun.after")!

    let lines: [Line]
    let text: AnalysisText
    let tokens: [Token]
    let entities: [Entity]
    let genders: [Gender]
    private let nameWords: [Set<String>]
    private let spoken: [Int]

    init(lines: [Line], text: AnalysisText, tokens: [Token], entities: [Entity], genders: [Gender]) {
        self.lines = lines
        self.text = text
        self.tokens = tokens
        self.entities = entities
        self.genders = genders
        nameWords = entities.map(Self.nameWords)
        var spoken = Array(repeating: 0, count: entities.count)
        for line in lines where line.entity >= 0 { spoken[line.entity] += 1 }
        self.spoken = spoken
    }

    /// The words of a person's names that are no title ("darcy", "fitzwilliam"); none for a role.
    static func nameWords(_ entity: Entity) -> Set<String> {
        guard entity.kind == .named else { return [] }
        func isName(_ w: String) -> Bool {
            guard w.count > 2, Lexicon.honorifics[w] == nil, !Lexicon.abbreviations.contains(w) else { return false }
            return !Lexicon.givenNameTitles.contains(w) && !Lexicon.defaultMaleTitles.contains(w) && !NameMentionFinder.roleTitles.contains(w)
        }
        let words: [String] = entity.formCounts.keys.flatMap { key in key.split(separator: " ").map(String.init) }
        return Set(words.filter(isName))
    }

    /// The choices for every line a turn rule attributed.
    func choices() -> [Choice] {
        lines.indices.compactMap { index in
            let line = lines[index]
            guard line.entity >= 0, line.opensQuote, Self.kinds.contains(line.evidence) else { return nil }
            var candidates: [Int] = []
            for j in max(0, index - Self.window)..<min(lines.count, index + Self.window + 1) {
                let entity = lines[j].entity
                if entity >= 0, !candidates.contains(entity) { candidates.append(entity) }
            }
            let around = Surroundings(of: index, in: self)
            return Choice(line: index, candidates: candidates,
                          features: candidates.map { features(of: $0, at: index, among: candidates.count, around: around) })
        }
    }

    /// What the text says around line `k`, read once for all its candidates.
    private struct Surroundings {
        /// The name words of the line before, the line, the line after, the narration before and after.
        var previousLine, line, nextLine, before, after: Set<String>
        var beforeIsEmpty: Bool
        var beforeIsShort: Bool
        /// The first he/she at the start of the narration after, and at the end of the one before.
        var pronounAfter, pronounBefore: Gender?
        /// Whom the line before and the line after address ("madam", "sir").
        var addressBefore, addressAfter: Gender?

        init(of k: Int, in turns: TurnCandidates) {
            func words(_ range: Range<Int>) -> Set<String> { Set(turns.wordTokens(range).map { turns.tokens[$0].lower }) }
            func lineWords(_ j: Int) -> Set<String> { turns.lines.indices.contains(j) ? words(turns.lines[j].start..<turns.lines[j].end) : [] }
            let beforeRange = turns.narration(before: k), afterRange = turns.narration(before: k + 1)
            previousLine = lineWords(k - 1)
            line = lineWords(k)
            nextLine = lineWords(k + 1)
            before = words(beforeRange)
            after = words(afterRange)
            beforeIsEmpty = before.isEmpty
            beforeIsShort = beforeRange.count < 200
            pronounAfter = turns.pronoun(afterRange.lowerBound..<min(afterRange.upperBound, afterRange.lowerBound + 60))
            pronounBefore = turns.pronoun(max(beforeRange.lowerBound, beforeRange.upperBound - 80)..<beforeRange.upperBound)
            addressBefore = turns.addressed(k - 1)
            addressAfter = turns.addressed(k + 1)
        }
    }

    /// The chance the model gives each candidate (a softmax of its weighted features), or nil
    /// while no weights are shipped.
    static func probabilities(_ choice: Choice) -> [Double]? {
        guard LearnedSpeakerWeights.names == names, LearnedSpeakerWeights.weights.count == names.count else { return nil }
        let scores = choice.features.map { zip($0, LearnedSpeakerWeights.weights).reduce(0) { $0 + $1.0 * $1.1 } }
        let top = scores.max() ?? 0
        let exps = scores.map { exp($0 - top) }
        let sum = exps.reduce(0, +)
        return exps.map { $0 / sum }
    }

    private func features(of c: Int, at k: Int, among count: Int, around: Surroundings) -> [Double] {
        let line = lines[k]
        let rule = line.entity == c ? 1.0 : 0
        func spoke(_ j: Int, tagged: Bool? = nil) -> Double {
            guard lines.indices.contains(j), lines[j].entity == c else { return 0 }
            guard let tagged else { return 1 }
            return Self.tagged.contains(lines[j].evidence) == tagged ? 1 : 0
        }
        func distance(_ step: Int, tagged: Bool = false) -> Double {
            var d = 1
            while d < Self.horizon, lines.indices.contains(k + step * d) {
                let other = lines[k + step * d]
                if other.entity == c && (!tagged || Self.tagged.contains(other.evidence)) { break }
                d += 1
            }
            return log2(Double(1 + (lines.indices.contains(k + step * d) ? d : Self.horizon)))
        }
        func named(_ words: Set<String>) -> Double { nameWords[c].isDisjoint(with: words) ? 0 : 1 }
        func cue(_ gender: Gender?) -> Double {
            guard let gender, genders[c] == .male || genders[c] == .female else { return 0 }
            return gender == genders[c] ? 1 : -1
        }
        let share = Double(spoken[c]) / Double(max(lines.count, 1))
        let recent = (max(0, k - Self.window)..<k).filter { lines[$0].entity == c }.count
        return [rule] + Self.kinds.map { rule * ($0 == line.evidence ? 1 : 0) } + [
            spoke(k - 1, tagged: true), spoke(k - 1, tagged: false), spoke(k - 2, tagged: true), spoke(k - 2, tagged: false),
            spoke(k + 1, tagged: true), spoke(k + 1, tagged: false), spoke(k + 2, tagged: true), spoke(k + 2, tagged: false),
            spoke(k - 3), spoke(k + 3),
            distance(-1), distance(-1, tagged: true), distance(1),
            named(around.line), named(around.previousLine), named(around.nextLine), named(around.before), named(around.after),
            log10(max(share, 1e-4)), genders[c] == .female ? 1 : 0, Double(count) * rule,
            k >= 2 && lines[k - 2].entity == c && lines[k - 1].entity != c ? 1 : 0,
            k + 2 < lines.count && lines[k + 2].entity == c && lines[k + 1].entity != c ? 1 : 0,
            k >= 1 && lines[k - 1].entity == c && around.beforeIsEmpty ? 1 : 0,
            around.beforeIsShort ? named(around.before) : 0,
            Double(recent) / Double(Self.window),
            cue(around.pronounAfter), cue(around.pronounBefore),
            cue(around.addressBefore), cue(around.addressAfter),
        ]
    }

    /// The text between line `k - 1` and line `k` (before the first line: from the start).
    private func narration(before k: Int) -> Range<Int> {
        let start = k > 0 && k - 1 < lines.count ? lines[k - 1].end : 0
        let end = k < lines.count ? lines[k].start : text.count
        return start..<max(start, end)
    }

    /// The word tokens that start inside `range`.
    private func wordTokens(_ range: Range<Int>) -> [Int] {
        var low = 0, high = tokens.count
        while low < high {
            let mid = (low + high) / 2
            if tokens[mid].start < range.lowerBound { low = mid + 1 } else { high = mid }
        }
        var result: [Int] = []
        var index = low
        while index < tokens.count, tokens[index].start < range.upperBound {
            if tokens[index].isWord { result.append(index) }
            index += 1
        }
        return result
    }

    /// Whom line `j` addresses: the first address word in it with no word after it ("madam!",
    /// not "Miss Morland").
    private func addressed(_ j: Int) -> Gender? {
        guard lines.indices.contains(j) else { return nil }
        return wordTokens(lines[j].start..<lines[j].end).lazy.compactMap { index -> Gender? in
            guard let gender = Self.addressGender[tokens[index].lower] else { return nil }
            return index + 1 < tokens.count && tokens[index + 1].isWord ? nil : gender
        }.first
    }

    /// The gender of the first he/she/his/her/him in `range`.
    private func pronoun(_ range: Range<Int>) -> Gender? {
        guard let word = wordTokens(range).lazy.map({ tokens[$0].lower }).first(where: { ["she", "he", "her", "his", "him"].contains($0) })
        else { return nil }
        return word == "she" || word == "her" ? .female : .male
    }
}
