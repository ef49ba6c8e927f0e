import Journeys
import VoiceChat

/// Reads a model's answer for a part as it streams into the sentences to speak, and says when
/// the part has its words. It reads ahead of the voice: the model is stopped as soon as the text
/// has enough, not once the voice has caught up (it went on writing 100 tokens past a part's end
/// while the voice spoke the part's last sentences, time the next request could have had).
struct PartReader: Sendable {
    enum Output: Sendable, Hashable {
        case sentence(String)
        /// The answer starts as data (`{`, `[`, a code fence), or refuses: nothing more is read.
        case data, refusal
        /// The part has its words, or the model says a sentence a second time over: stop asking.
        case stop
    }

    private let prompt: String
    private let enough: Int
    private var words: Int
    private var heard: Set<String>
    private var hasSentences: Bool
    private var splitter = SentenceSplitter()
    private var start = ""
    private var repeats = 0
    private var firstOfAnswer = true

    /// `sentences`: what the part already holds (a part gone on with); `enough`: its words.
    init(prompt: String, sentences: [String], enough: Int) {
        self.prompt = prompt
        self.enough = enough
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
        for sentence in splitter.add(piece) {
            if firstOfAnswer, SpokenProse.isRefusal(sentence) { return outputs + [.refusal] }
            firstOfAnswer = false
            // The task or the last part's ending read back is not the story.
            if SpokenProse.echoes(sentence, prompt: prompt) { continue }
            // A model that loops says the same sentence again: it is not said twice, and the
            // second time the part ends there.
            guard heard.insert(SpokenProse.fingerprint(sentence)).inserted else {
                repeats += 1
                if repeats >= 2 { return outputs + [.stop] }
                continue
            }
            outputs.append(.sentence(sentence))
            hasSentences = true
            words += SpokenProse.speakable(sentence).map(SpokenProse.wordCount) ?? 0
            if words >= enough { return outputs + [.stop] }
        }
        return outputs
    }

    /// The answer's last piece, when it is a sentence to speak: one without an ending was cut
    /// off by the token limit and is not spoken, unless it is all the part has.
    mutating func finish() -> String? {
        guard let rest = splitter.finish(), SpokenProse.isComplete(rest) || !hasSentences,
              !SpokenProse.echoes(rest, prompt: prompt) else { return nil }
        return rest
    }
}
