import Audio
import Foundation

/// Whether synthesized audio is plausible for its text, judged by how long the speech in it
/// lasts against how many syllables the text has. Very short lines ("Yes.", "Oh!") are where
/// engines fail: flite returns near-silence for some interjections, HTS voices clip a lone
/// syllable, and an engine that mis-parses a line may ramble on.
public struct ShortLinePolicy: Sendable, Hashable {
    /// Lines of at most this many letters are checked (longer ones rarely fail this way, and
    /// their length varies too much with punctuation to judge by syllables).
    public var maximumLetters: Int
    /// Least speech per syllable at rate 1. Measured here the fastest engine speaks a
    /// monosyllable in ≈ 0.15 s; half that means the syllable was cut.
    public var minimumSecondsPerSyllable: Double
    /// Most speech per syllable at rate 1, plus `slackSeconds`: beyond it the line is garbled.
    public var maximumSecondsPerSyllable: Double
    public var slackSeconds: Double
    /// A sample louder than this (of 32767) counts as speech.
    public var speechThreshold: Int16
    /// Silence appended after an accepted short line, so the decay of its last sound is not
    /// clipped when segments are butted together.
    public var tailPaddingSeconds: Double

    public init(
        maximumLetters: Int = 24, minimumSecondsPerSyllable: Double = 0.08, maximumSecondsPerSyllable: Double = 0.8,
        slackSeconds: Double = 1.0, speechThreshold: Int16 = 600, tailPaddingSeconds: Double = 0.08
    ) {
        self.maximumLetters = maximumLetters
        self.minimumSecondsPerSyllable = minimumSecondsPerSyllable
        self.maximumSecondsPerSyllable = maximumSecondsPerSyllable
        self.slackSeconds = slackSeconds
        self.speechThreshold = speechThreshold
        self.tailPaddingSeconds = tailPaddingSeconds
    }

    /// What the check found.
    public enum Verdict: Sendable, Hashable {
        case plausible
        /// No sample above the speech threshold.
        case silent
        /// Speech lasts `seconds`, under the `minimum` the text needs.
        case tooShort(seconds: Double, minimum: Double)
        /// Speech lasts `seconds`, over the `maximum` the text could need.
        case tooLong(seconds: Double, maximum: Double)
    }

    /// Whether `text` is short enough for this policy to check.
    public func applies(to text: String) -> Bool {
        let letters = text.unicodeScalars.filter { CharacterSet.letters.contains($0) }.count
        return letters > 0 && letters <= maximumLetters
    }

    /// Judges `audio` against `text` spoken at `rate` (1 = normal).
    public func verdict(for audio: PCMAudio, text: String, rate: Double = 1) -> Verdict {
        guard let seconds = Self.speechSeconds(audio, threshold: speechThreshold) else { return .silent }
        let syllables = Double(Self.syllables(in: text))
        let rate = max(rate, 0.1)
        let minimum = syllables * minimumSecondsPerSyllable / rate
        let maximum = syllables * maximumSecondsPerSyllable / rate + slackSeconds
        if seconds < minimum { return .tooShort(seconds: seconds, minimum: minimum) }
        if seconds > maximum { return .tooLong(seconds: seconds, maximum: maximum) }
        return .plausible
    }

    /// The texts to try, in order: the line as written, then with its ending normalized
    /// (exclamations and questions on a lone word trip some engines' intonation into
    /// near-silence; a full stop is the most reliable ending), then with a lead-in pause that
    /// gives HTS voices a frame to settle before the first phoneme.
    public func attempts(for text: String) -> [String] {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let core = trimmed.trimmingCharacters(in: CharacterSet(charactersIn: "!?.…,;:—–-\"'“”‘’ "))
        var result = [text]
        for candidate in ["\(core).", "... \(core)."] where !core.isEmpty && !result.contains(candidate) {
            result.append(candidate)
        }
        return result
    }

    /// `audio` with `tailPaddingSeconds` of silence appended.
    public func padded(_ audio: PCMAudio) -> PCMAudio {
        var padded = audio
        padded.samples += [Int16](repeating: 0, count: Int(Double(audio.sampleRate) * tailPaddingSeconds))
        return padded
    }

    /// Seconds from the first to the last sample above `threshold`, or nil if there is none.
    public static func speechSeconds(_ audio: PCMAudio, threshold: Int16) -> Double? {
        let loud = { (sample: Int16) in sample > threshold || sample < -threshold }
        guard audio.sampleRate > 0, let first = audio.samples.firstIndex(where: loud),
              let last = audio.samples.lastIndex(where: loud) else { return nil }
        return Double(last - first + 1) / Double(audio.sampleRate)
    }

    /// A rough English syllable count: vowel groups per word (a final silent "e" dropped), at
    /// least one per word; digits count one per digit. A lexicon's `[[phonemes]]` block counts
    /// its vowel sounds (espeak-ng mnemonics or IPA), so "[[fr'amt@n]]" is two, like "Framton".
    public static func syllables(in text: String) -> Int {
        var total = 0
        var rest = Substring(text)
        while let open = rest.range(of: "[["), let close = rest[open.upperBound...].range(of: "]]") {
            total += writtenSyllables(in: rest[..<open.lowerBound])
            total += phonemeSyllables(in: rest[open.upperBound..<close.lowerBound])
            rest = rest[close.upperBound...]
        }
        return max(total + writtenSyllables(in: rest), 1)
    }

    /// Vowel symbols of espeak-ng's mnemonics (`@` schwa, `3` ɜ, `V` ʌ, `0` ɒ, `&` æ, capitals
    /// for lax vowels) and of IPA. Runs of them (with length marks) are one syllable: diphthongs.
    static let phonemeVowels: Set<Character> = Set("aeiouyAEIOUV@30&æɑɒɔəɛɜɪʊʌɐᵻɚɝɘɵøœɶɤɯɨʉ")
    static let phonemeLengthMarks: Set<Character> = [":", "ː", "ˑ"]

    static func phonemeSyllables(in phonemes: Substring) -> Int {
        var total = 0
        for word in phonemes.split(whereSeparator: \.isWhitespace) {
            var groups = 0
            var previousWasVowel = false
            for symbol in word where !phonemeLengthMarks.contains(symbol) {
                let vowel = phonemeVowels.contains(symbol)
                if vowel && !previousWasVowel { groups += 1 }
                previousWasVowel = vowel
            }
            total += max(groups, 1)
        }
        return total
    }

    static func writtenSyllables(in text: Substring) -> Int {
        var total = 0
        for word in text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }) {
            let digits = word.filter(\.isNumber).count
            let letters = Array(word.filter(\.isLetter))
            var groups = 0
            var previousWasVowel = false
            for (index, letter) in letters.enumerated() {
                let vowel = "aeiouy".contains(letter)
                if vowel && !previousWasVowel && !(letter == "e" && index == letters.count - 1 && groups > 0) { groups += 1 }
                previousWasVowel = vowel
            }
            total += max(letters.isEmpty ? 0 : 1, groups) + digits
        }
        return total
    }
}
