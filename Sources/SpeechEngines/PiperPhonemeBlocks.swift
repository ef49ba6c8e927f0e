/// Piper's `[[raw IPA]]` input, made to read like the words it stands for.
///
/// piper-tts 1.8 splits its text at `[[...]]` blocks, phonemizes the text between them with
/// espeak-ng, and joins the pieces; the separating space is kept only when the text beside a
/// block begins or ends with one. Punctuation right after a block is lost on the way (espeak-ng
/// drops a piece's leading punctuation), so "[[tʃˈʌmli]], smiling" loses its pause and glues
/// the words into one. Piper's phoneme table holds `, . ; : ! ?`, so those move inside the
/// block (where they are read as the pause they are), and a block gets a space on any side
/// that touches other text. Text without blocks is unchanged.
enum PiperPhonemeBlocks {
    static let punctuation: Set<Character> = [",", ".", ";", ":", "!", "?"]

    static func prepared(_ text: String) -> String {
        guard text.contains("[[") else { return text }
        var result = ""
        var rest = Substring(text)
        while let open = rest.range(of: "[["), let close = rest[open.upperBound...].range(of: "]]") {
            let before = rest[..<open.lowerBound]
            result += before
            if let last = result.last, !last.isWhitespace { result += " " }
            var after = rest[close.upperBound...]
            let moved = after.prefix { punctuation.contains($0) }
            after = after.dropFirst(moved.count)
            result += "[[" + rest[open.upperBound..<close.lowerBound] + moved + "]]"
            if let next = after.first, !next.isWhitespace { result += " " }
            rest = after
        }
        result += rest
        return result
    }
}
