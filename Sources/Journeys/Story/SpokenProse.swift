import Foundation

/// A model's story text made fit to be spoken, and checked. Models asked for plain narration
/// still add headings ("Part 3: The Bridge"), Markdown emphasis, or answer in JSON; the listener
/// must hear none of it.
public enum SpokenProse {
    /// One streamed sentence as it should be spoken: Markdown marks removed, a heading or a
    /// label ("Part 2", "**Chapter One**", "Title: …") dropped (nil). The words are the
    /// model's own; nothing is reworded.
    public static func speakable(_ sentence: String) -> String? {
        // A heading on a line of its own arrives joined to the sentence after it.
        let lines = sentence.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let kept = lines.enumerated().filter { index, line in !(isHeading(line) && (index < lines.count - 1 || isLabel(line))) }
        var text = kept.map(\.element).joined(separator: " ")
        if text.hasPrefix("#") || isLabel(text) { return nil }
        for mark in ["**", "__", "*", "`", "~~"] { text = text.replacingOccurrences(of: mark, with: "") }
        if text.hasPrefix("- ") || text.hasPrefix("• ") { text.removeFirst(2) }
        text = text.replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression).trimmingCharacters(in: .whitespaces)
        guard text.unicodeScalars.contains(where: { $0.properties.isAlphabetic }) else { return nil }
        return text
    }

    /// A line that names rather than tells: a Markdown heading, a label, or a few words with no
    /// sentence ending ("The Pond").
    static func isHeading(_ line: String) -> Bool {
        line.hasPrefix("#") || isLabel(line) || (!isComplete(line) && wordCount(line) <= 8)
    }

    /// "Part 2", "Part 2: The Bridge", "Chapter One", "Title: The Lantern", "The End": lines that
    /// name the text instead of telling it.
    static func isLabel(_ text: String) -> Bool {
        let bare = text.replacingOccurrences(of: #"[*_#`]"#, with: "", options: .regularExpression).trimmingCharacters(in: .whitespaces)
        let lower = bare.lowercased()
        if lower == "the end" || lower == "the end." { return true }
        if lower.range(of: #"^(part|chapter|segment|beat|act)\s+([0-9]+|[a-z]+)\b[^.!?]{0,60}$"#, options: .regularExpression) != nil { return true }
        if lower.range(of: #"^(title|story|part \d+|narrator|outline)\s*:"#, options: .regularExpression) != nil, bare.count < 80 { return true }
        return false
    }

    /// A sentence without the prompt's own part label at its start ("Part 6 ended: …", "Part 4
    /// (rising action: complications build …): …"), imitated by a small model; nil when the label
    /// is all of it.
    public static func withoutLeadingLabel(_ sentence: String) -> String? {
        let pattern = #"^\W*part\s+\d+\s*(\([^)]*\))?(\s+\w+){0,3}\s*:\s*"#
        guard let label = sentence.range(of: pattern, options: [.regularExpression, .caseInsensitive]) else { return sentence }
        let rest = sentence[label.upperBound...].trimmingCharacters(in: .whitespaces)
        return rest.contains(where: \.isLetter) ? rest : nil
    }

    /// Whether an answer that is about to be streamed is not prose at all (JSON, a code block).
    public static func looksLikeData(_ start: String) -> Bool {
        let trimmed = start.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.hasPrefix("{") || trimmed.hasPrefix("[") || trimmed.hasPrefix("```") || trimmed.hasPrefix("<")
    }

    /// Whether a first sentence is the model speaking to the user instead of telling the story:
    /// an apology and a refusal ("I'm sorry, but I can't assist with that request.").
    public static func isRefusal(_ sentence: String) -> Bool {
        let lower = sentence.lowercased().replacingOccurrences(of: "’", with: "'")
        let cannot = #"\bi (can't|cannot|can not|won't|am unable to|'m unable to) "#
        // "I can't assist/comply" is always the model; "I can't help thinking" may be a narrator,
        // unless it comes with an apology.
        let refusing = lower.range(of: cannot + "(assist|comply|fulfil)", options: .regularExpression) != nil
            || (lower.contains("sorry") && lower.range(of: cannot, options: .regularExpression) != nil)
        return refusing || lower.hasPrefix("as an ai") || lower.contains("as a language model")
    }

    /// Whether a sentence is the request read back instead of the story: most of its runs of
    /// four words are in the instructions of `prompt` (a small model starts a part with "Part 2:
    /// The climax: … About 198 words, continuing straight on from where part 1 ended" — its
    /// task). The story's own sentences share a few words with the instructions, not runs of
    /// them. What the prompt quotes of the story (“…”, the last part's ending) is left out: a
    /// story may take up its own words again.
    public static func echoes(_ sentence: String, prompt: String) -> Bool {
        let words = comparableWords(sentence)
        guard words.count >= 4 else { return false }
        let instructions = prompt.replacingOccurrences(of: #"“[^”]*”"#, with: " ", options: .regularExpression)
        let prompted = Set(runs(comparableWords(instructions), length: 4))
        let runs = runs(words, length: 4)
        return Double(runs.count { prompted.contains($0) }) >= 0.6 * Double(runs.count)
    }

    /// Whether a line of the story's plan is the model's own summary: a small model asked for
    /// one short sentence per part often copies the story it was shown instead, or writes on
    /// with the story's next sentences until the grammar's length limit cuts it. So a line is
    /// refused when it starts in lower case (it goes on from another line), when it ran to
    /// `limit` characters (it was cut), or when it repeats six words running of `source` (the
    /// story so far, an earlier beat, the instructions): a summary says things in other words.
    public static func isPlanLine(_ line: String, source: String, limit: Int) -> Bool {
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let first = trimmed.first(where: { $0.isLetter || $0.isNumber }), !first.isLowercase, trimmed.count < limit - 1 else { return false }
        return !sharesRun(trimmed, with: source, length: 6)
    }

    /// Whether a story's title is a title: a small model asked for one sometimes wrote the
    /// story's first sentence instead, cut by the grammar's length limit ("…had a difficult
    /// morning. He"). Refused: a title that ran to `limit` characters, holds a sentence end with
    /// words after it, starts in lower case, runs past twelve words, or repeats five words running
    /// of `source` (the story so far).
    public static func isTitle(_ title: String, source: String, limit: Int) -> Bool {
        let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let first = trimmed.first(where: { $0.isLetter || $0.isNumber }), !first.isLowercase,
              trimmed.count < limit - 1, wordCount(trimmed) <= 12 else { return false }
        // "morning. He": a sentence's end inside it ("Mr. Fox" is an abbreviation's).
        if trimmed.range(of: #"(\p{Ll}{3,}[.…]|[!?])["”’')\]]*\s+\S"#, options: .regularExpression) != nil { return false }
        return !sharesRun(trimmed, with: source, length: 5)
    }

    /// Whether `text` has a run of `length` words that `source` has too.
    public static func sharesRun(_ text: String, with source: String, length: Int) -> Bool {
        let sourceRuns = Set(runs(comparableWords(source), length: length))
        return runs(comparableWords(text), length: length).contains { sourceRuns.contains($0) }
    }

    /// The runs of `length` consecutive words of `text`, as compared for repeats.
    public static func wordRuns(_ text: String, length: Int) -> [String] {
        runs(comparableWords(text), length: length)
    }

    private static func comparableWords(_ text: String) -> [String] {
        text.lowercased().split { !($0.isLetter || $0.isNumber || $0 == "'" || $0 == "’") }.map(String.init)
    }

    private static func runs(_ words: [String], length: Int) -> [String] {
        words.count < length ? [] : (0...(words.count - length)).map { words[$0..<($0 + length)].joined(separator: " ") }
    }

    /// A sentence as compared for repeats: its letters and digits, lower case.
    public static func fingerprint(_ sentence: String) -> String {
        String(sentence.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
    }

    public static func wordCount(_ text: String) -> Int {
        text.split(whereSeparator: { $0.isWhitespace }).count { $0.contains { $0.isLetter || $0.isNumber } }
    }

    /// What is wrong with a part's whole text, or nil when it will do: a part must fill at least
    /// half its minute and at most about one and a half (the token limit cuts longer ones).
    public static func problem(with text: String, targetWords: Int) -> String? {
        let words = wordCount(text)
        if words == 0 { return "the part is empty" }
        if looksLikeData(text) || text.contains("```") || text.contains("\": ") { return "the part is data, not prose" }
        if words < targetWords / 2 { return "the part has \(words) words, under half of the \(targetWords) asked for" }
        return nil
    }

    /// Whether a sentence ends as a sentence should (a cut-off answer's last piece does not).
    public static func isComplete(_ sentence: String) -> Bool {
        let trimmed = sentence.trimmingCharacters(in: .whitespacesAndNewlines)
        guard var last = trimmed.last else { return false }
        var rest = trimmed.dropLast()
        while "\"'”’)]»".contains(last), let previous = rest.last {
            last = previous
            rest = rest.dropLast()
        }
        return ".!?…".contains(last)
    }
}
