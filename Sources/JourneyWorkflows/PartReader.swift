import Journeys
import VoiceChat

/// Reads a model's answer for a part as it streams into the sentences to speak, and says when
/// the part has its words. It reads ahead of the voice: the model is stopped as soon as the text
/// has enough, not once the voice has caught up (it went on writing 100 tokens past a part's end
/// while the voice spoke the part's last sentences, time the next request could have had).
struct PartReader: Sendable {
    enum Output: Sendable, Hashable {
        case sentence(String)
        /// A sentence past the part's end, read on into the next part's opening (`carry`).
        case carried(String)
        /// The answer starts as data (`{`, `[`, a code fence), or refuses: nothing more is read.
        case data, refusal
        /// Stop asking: the part has its words, or the model loops.
        case stop(StopReason)
    }

    enum StopReason: Sendable, Hashable, CustomStringConvertible {
        /// The part has its words (and those carried into the next).
        case enough
        /// Three sentences in a row read back the prompt or how the part before ended.
        case readBack
        /// A sentence said a second time over, or three dropped in a row.
        case looping

        var description: String {
            switch self {
            case .enough: "it had its words"
            case .readBack: "the model read back its prompt or the last part's ending three times in a row"
            case .looping: "the model said a sentence over again"
            }
        }
    }

    private let prompt: String
    private let enough: Int
    /// Words to read on past `enough` into the next part (0: stop at the part's end).
    private let carry: Int
    private var carriedWords = 0
    /// The sentences the story told just before this part: said again, they are left out.
    private let earlier: Set<String>
    /// The five-word runs of how the part before ended, and of what this part has said.
    private let earlierRuns: Set<String>
    private var heardRuns: Set<String>
    private var words: Int
    private var heard: Set<String>
    private var hasSentences: Bool
    private var splitter = SentenceSplitter()
    private var start = ""
    private var repeats = 0
    private var droppedInARow = 0
    private var firstOfAnswer = true

    /// `sentences`: what the part already holds (a part gone on with); `enough`: its words;
    /// `earlier`: how the part before it ended; `carry`: words to read on into the next part.
    init(prompt: String, sentences: [String], enough: Int, earlier: String = "", carry: Int = 0) {
        self.prompt = prompt
        self.enough = enough
        self.carry = carry
        self.earlier = Set(SentenceSplitter.sentences(of: earlier).map(SpokenProse.fingerprint))
        self.earlierRuns = Set(SpokenProse.wordRuns(earlier, length: Self.runLength))
        self.heardRuns = Set(sentences.flatMap { SpokenProse.wordRuns($0, length: Self.runLength) })
        self.words = SpokenProse.wordCount(sentences.joined(separator: " "))
        self.heard = Set(sentences.map(SpokenProse.fingerprint))
        self.hasSentences = !sentences.isEmpty
    }

    mutating func add(_ piece: String) -> [Output] {
        if !hasSentences, start.count < 8 {
            start += piece
            if SpokenProse.looksLikeData(start) { return [.data] }
        }
        var outputs: [Output] = []
        for written in splitter.add(piece) {
            if firstOfAnswer, SpokenProse.isRefusal(written) { return outputs + [.refusal] }
            firstOfAnswer = false
            // "Part 6 ended: …": the prompt's own label imitated is not told.
            guard let sentence = SpokenProse.withoutLeadingLabel(written) else { continue }
            // The task or the last part's ending read back is not the story. A model that reads
            // back sentence after sentence is looping (one wrote 602 tokens of its beats twice
            // over, for 90 words told): three in a row end the part.
            if isEarlier(sentence) { continue }
            let runs = SpokenProse.wordRuns(sentence, length: Self.runLength)
            if SpokenProse.echoes(sentence, prompt: prompt) || Self.isMostly(runs, in: earlierRuns) {
                droppedInARow += 1
                if droppedInARow >= 3 { return outputs + [.stop(.readBack)] }
                continue
            }
            // A model that loops says the same sentence again, or most of one again with a
            // clause changed, or goes round within one ("she knew she had to find the city, and
            // she knew she had to find the city, and …"): it is not said, and the second time
            // the part ends there.
            guard heard.insert(SpokenProse.fingerprint(sentence)).inserted, !Self.isMostly(runs, in: heardRuns) else {
                repeats += 1
                droppedInARow += 1
                if repeats >= 2 || droppedInARow >= 3 { return outputs + [.stop(.looping)] }
                continue
            }
            droppedInARow = 0
            heardRuns.formUnion(runs)
            hasSentences = true
            let spoken = SpokenProse.speakable(sentence).map(SpokenProse.wordCount) ?? 0
            if words >= enough {
                outputs.append(.carried(sentence))
                carriedWords += spoken
                if carriedWords >= carry { return outputs + [.stop(.enough)] }
                continue
            }
            outputs.append(.sentence(sentence))
            words += spoken
            if words >= enough, carry == 0 { return outputs + [.stop(.enough)] }
        }
        return outputs
    }

    /// The answer's last piece, when it is a sentence to speak: one without an ending was cut
    /// off by the token limit and is not spoken, unless it is all the part has.
    mutating func finish() -> Output? {
        guard let written = splitter.finish(), let rest = SpokenProse.withoutLeadingLabel(written), SpokenProse.isComplete(rest) || !hasSentences,
              !SpokenProse.echoes(rest, prompt: prompt), !isEarlier(rest) else { return nil }
        return words >= enough ? (carriedWords < carry ? .carried(rest) : nil) : .sentence(rest)
    }

    static let runLength = 5

    /// Whether half or more of a sentence's five-word runs are in `said` or come twice in the
    /// sentence itself. A story takes up a phrase again now and then, not half a sentence.
    static func isMostly(_ sentence: String, in said: Set<String>) -> Bool {
        isMostly(SpokenProse.wordRuns(sentence, length: runLength), in: said)
    }

    private static func isMostly(_ runs: [String], in said: Set<String>) -> Bool {
        guard runs.count >= 3 else { return false }
        var seen: Set<String> = []
        let again = runs.count { !seen.insert($0).inserted || said.contains($0) }
        return 2 * again >= runs.count
    }

    /// Whether every sentence of `text` was in the last part's ending (the splitter joins short
    /// sentences, so they are compared one by one).
    private func isEarlier(_ text: String) -> Bool {
        guard !earlier.isEmpty else { return false }
        let sentences = SentenceSplitter.sentences(of: text)
        return !sentences.isEmpty && sentences.allSatisfy { earlier.contains(SpokenProse.fingerprint($0)) }
    }
}
