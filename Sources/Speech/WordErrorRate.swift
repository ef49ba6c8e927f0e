import Foundation
import Audio

/// Word error rate of a transcript against the text that was meant to be spoken: the
/// word-level edit distance (substitutions + deletions + insertions) divided by the number of
/// reference words. Both sides are normalized first (`WordErrorRate.words(in:)`), so case,
/// punctuation and "12" vs "twelve" do not count as errors.
public enum WordErrorRate {
    /// The WER of `hypothesis` against `reference`; 0 when both are empty, 1 per inserted word
    /// when only the reference is empty.
    public static func of(hypothesis: String, reference: String) -> Double {
        let (ref, hyp) = (words(in: reference), words(in: hypothesis))
        guard !ref.isEmpty else { return Double(hyp.count) }
        return Double(editDistance(ref, hyp)) / Double(ref.count)
    }

    /// Levenshtein distance over words.
    public static func editDistance(_ a: [String], _ b: [String]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// Lower-cased words with punctuation dropped: apostrophes inside words are kept
    /// ("don't"), curly ones made straight; hyphens and dashes split words; "&" is "and";
    /// whole numbers up to 999,999 are spelled out ("42" → "forty two", "1,200" too),
    /// ordinals and years read as whisper prints them are not guessed at.
    public static func words(in text: String) -> [String] {
        var cleaned = ""
        let scalars = Array(text.lowercased().replacingOccurrences(of: "\u{2019}", with: "'").unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            let previous: Unicode.Scalar? = index > 0 ? scalars[index - 1] : nil
            let next: Unicode.Scalar? = index + 1 < scalars.count ? scalars[index + 1] : nil
            if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                cleaned.unicodeScalars.append(scalar)
            } else if scalar == "'", let previous, let next, previous.properties.isAlphabetic, next.properties.isAlphabetic {
                cleaned.unicodeScalars.append(scalar)
            } else if scalar == ",", let previous, let next, ("0"..."9").contains(previous), ("0"..."9").contains(next) {
                continue  // thousands separator
            } else if scalar == "&" {
                cleaned += " and "
            } else {
                cleaned += " "
            }
        }
        return cleaned.split(separator: " ").flatMap { word -> [String] in
            if let number = Int(word), number >= 0, number < 1_000_000 { return spelled(number) }
            return [String(word)]
        }
    }

    private static let ones = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                               "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
    private static let tens = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]

    /// 0 ..< 1,000,000 as words, without "and": 105 → "one hundred five".
    static func spelled(_ number: Int) -> [String] {
        if number < 20 { return [ones[number]] }
        if number < 100 { return [tens[number / 10]] + (number % 10 == 0 ? [] : [ones[number % 10]]) }
        if number < 1000 { return [ones[number / 100], "hundred"] + (number % 100 == 0 ? [] : spelled(number % 100)) }
        return spelled(number / 1000) + ["thousand"] + (number % 1000 == 0 ? [] : spelled(number % 1000))
    }
}

/// Summary of many WER measurements.
public struct WERDistribution: Sendable, Hashable, Codable {
    public var count: Int
    public var mean: Double
    public var median: Double
    public var p90: Double
    public var max: Double
    /// Share of measurements above `threshold`.
    public var shareAbove: Double
    public var threshold: Double

    public init(_ values: [Double], threshold: Double) {
        let sorted = values.sorted()
        count = sorted.count
        self.threshold = threshold
        guard !sorted.isEmpty else {
            (mean, median, p90, max, shareAbove) = (0, 0, 0, 0, 0)
            return
        }
        mean = sorted.reduce(0, +) / Double(sorted.count)
        median = Self.percentile(sorted, 0.5)
        p90 = Self.percentile(sorted, 0.9)
        max = sorted.last!
        shareAbove = Double(sorted.filter { $0 > threshold }.count) / Double(sorted.count)
    }

    /// Linear interpolation between closest ranks.
    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        let position = p * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down)), upper = Int(position.rounded(.up))
        return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - Double(lower))
    }
}

/// Turns speech back into text, to check what an engine actually said.
public protocol SpeechTranscriber: Sendable {
    /// The words heard in `audio` (any sample rate; mono 16-bit).
    func transcribe(_ audio: PCMAudio) async throws -> String
}
