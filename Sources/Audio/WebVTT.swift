import StoryModel

/// WebVTT captions (`book.vtt`) from the timing map, for players and the web app.
public enum WebVTT {
    /// One cue per entry, its text the entry's span of `text` (whitespace collapsed, long cues
    /// split at sentence boundaries keeping times proportional), "<v Speaker Name>" voice tags
    /// for dialogue.
    ///
    /// Cues are numbered from 1 in start order. Entries whose span holds only whitespace (pauses)
    /// get no cue. A part is split off only while each part keeps at least `minimumPartMs`.
    public static func render(_ entries: [TimedSegment], text: String, speakerNames: [String: String],
                              maxCueCharacters: Int = 120, minimumPartMs: Int = 700) -> String {
        let scalars = ScalarText(text)
        let ordered = entries.enumerated().sorted { ($0.element.startMs, $0.offset) < ($1.element.startMs, $1.offset) }.map(\.element)
        var out = "WEBVTT\n"
        var index = 0
        for entry in ordered {
            let words = scalars.string(entry.start, entry.end).split(whereSeparator: \.isWhitespace)
            guard !words.isEmpty else { continue }
            let start = max(0, entry.startMs)
            let end = max(start + 1, entry.endMs)
            let maxParts = max(1, (end - start) / max(1, minimumPartMs))
            let parts = CueSplitter.split(words.joined(separator: " "), maxCharacters: maxCueCharacters, maxParts: maxParts)
            let voice: String? = entry.kind == .dialogue ? entry.speaker.map { speakerNames[$0] ?? $0 } : nil
            let total = parts.reduce(0) { $0 + $1.count }
            var consumed = 0
            for part in parts {
                let partStart = start + (end - start) * consumed / total
                consumed += part.count
                // A WebVTT cue must end after it starts, however short its share.
                let partEnd = max(partStart + 1, start + (end - start) * consumed / total)
                index += 1
                out += "\n\(index)\n\(timestamp(partStart)) --> \(timestamp(partEnd))\n"
                if let voice { out += "<v \(escape(voice))>" }
                out += escape(part) + "\n"
            }
        }
        return out
    }

    /// `HH:MM:SS.mmm`; hours grow past two digits for very long books.
    public static func timestamp(_ milliseconds: Int) -> String {
        let ms = max(0, milliseconds)
        let hours = ms / 3_600_000, minutes = ms / 60_000 % 60, seconds = ms / 1000 % 60, millis = ms % 1000
        return "\(pad(hours, 2)):\(pad(minutes, 2)):\(pad(seconds, 2)).\(pad(millis, 3))"
    }

    /// Escapes what WebVTT cue text gives meaning (`&`, `<`, `>`), which also keeps `-->` out.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\n", "\r", "\r\n": out += " "
            default: out.append(character)
            }
        }
        return out
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

/// Splits a cue's text into parts of at most `maxCharacters`: between sentences where it can,
/// between clauses in a sentence too long alone, between words as a last resort.
enum CueSplitter {
    static func split(_ text: String, maxCharacters: Int, maxParts: Int) -> [String] {
        guard text.count > maxCharacters, maxParts > 1 else { return [text] }
        // Aim for parts of even length rather than one long and one short.
        let partCount = min(maxParts, (text.count + maxCharacters - 1) / maxCharacters)
        let goal = max(maxCharacters / 2, (text.count + partCount - 1) / partCount)
        var pieces: [String] = []
        for sentence in units(of: text, after: sentenceEnds) {
            if sentence.count <= goal {
                pieces.append(sentence)
            } else {
                for clause in units(of: sentence, after: clauseEnds) {
                    pieces += clause.count <= goal ? [clause] : units(of: clause, after: [])
                }
            }
        }
        var parts: [String] = []
        var current = ""
        for piece in pieces {
            if !current.isEmpty, current.count + 1 + piece.count > goal, parts.count + 1 < maxParts {
                parts.append(current)
                current = piece
            } else {
                current = current.isEmpty ? piece : current + " " + piece
            }
        }
        if !current.isEmpty { parts.append(current) }
        return parts
    }

    static let sentenceEnds: Set<Swift.Character> = [".", "!", "?", "…"]
    static let clauseEnds: Set<Swift.Character> = [",", ";", ":", "—", "–"]
    /// Closing marks that stay with the punctuation they follow: `"Stop!" she said` splits after the quote.
    static let closers: Set<Swift.Character> = ["\"", "'", "”", "’", ")", "]", "»"]

    /// The text cut at each space that follows a character in `ends` (and any closers); with no
    /// `ends`, at every space.
    static func units(of text: String, after ends: Set<Swift.Character>) -> [String] {
        let words = text.split(separator: " ")
        var units: [String] = []
        var current: [Substring] = []
        for word in words {
            current.append(word)
            let core = word.reversed().drop { closers.contains($0) }
            if ends.isEmpty || core.first.map(ends.contains) == true {
                units.append(current.joined(separator: " "))
                current = []
            }
        }
        if !current.isEmpty { units.append(current.joined(separator: " ")) }
        return units
    }
}
