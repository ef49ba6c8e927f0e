/// What a person said, as a recogniser heard it, without the recogniser's loops. Whisper's greedy
/// decoding can fall into one on a short question in a padded window: it writes the same
/// sentence again until the token limit ("What is the capital of France? What is the capital of
/// France? What is…"); the browser test's question came back with it nine times on a busy
/// machine. Nobody asks a question of three words or more twice in one breath, so a sentence
/// repeated back to back is kept once, and a last fragment that only begins it again is dropped.
/// Shorter sentences ("No. No.") are kept as said unless they come three times or more. Used
/// where a person is heard (voice chat, calls); a rendered line's check compares the whole
/// transcript with its text and keeps it as heard.
public enum TranscriptLoops {
    public static func collapsed(_ text: String) -> String {
        let sentences = split(text)
        guard sentences.count > 1 else { return text }
        var kept: [String] = []
        var start = 0
        while start < sentences.count {
            var end = start + 1
            while end < sentences.count, !key(sentences[start]).isEmpty, key(sentences[end]) == key(sentences[start]) { end += 1 }
            let run = end - start
            kept += Array(repeating: sentences[start], count: words(sentences[start]) >= 3 || run >= 3 ? 1 : run)
            start = end
        }
        // "… of France? What is the" at the token limit: the loop's next turn, cut off.
        if kept.count > 1, let last = kept.last, !endsSentence(last),
           let before = kept.dropLast().last, key(before).hasPrefix(key(last)), !key(last).isEmpty {
            kept.removeLast()
        }
        return kept.joined(separator: " ")
    }

    /// Sentences with their end marks, split after ".", "?" or "!" followed by a space.
    private static func split(_ text: String) -> [String] {
        var sentences: [String] = []
        var current = ""
        var previous: Character?
        for character in text {
            if character == " ", let mark = previous, ".?!".contains(mark) {
                sentences.append(current)
                current = ""
            } else if !(current.isEmpty && character == " ") {
                current.append(character)
            }
            previous = character
        }
        if !current.isEmpty { sentences.append(current) }
        return sentences
    }

    private static func key(_ sentence: String) -> String {
        String(sentence.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == " " }
            .map(Character.init)).split(separator: " ").joined(separator: " ")
    }

    private static func words(_ sentence: String) -> Int {
        key(sentence).split(separator: " ").count
    }

    private static func endsSentence(_ sentence: String) -> Bool {
        sentence.last.map { ".?!".contains($0) } ?? false
    }
}
