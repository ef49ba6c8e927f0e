import Speech
import StoryModel

/// A catalogue shaped like the real one: one HTS voice, three flite voices, and espeak-ng
/// accents × variants.
enum Fixtures {
    static let festival = Voice(
        id: "festival:cmu_us_slt_arctic_hts", engine: "festival", engineVoice: "cmu_us_slt_arctic_hts",
        displayName: "Festival SLT", gender: .female, accent: "en-US", pitch: -0.7, quality: 3,
        speaker: "cmu-arctic:slt")
    static let flite: [Voice] = [
        Voice(id: "flite:slt", engine: "flite", engineVoice: "slt", displayName: "SLT", gender: .female, accent: "en-US", pitch: -1.2, quality: 2, speaker: "cmu-arctic:slt"),
        Voice(id: "flite:rms", engine: "flite", engineVoice: "rms", displayName: "RMS", gender: .male, accent: "en-US", pitch: -0.3, quality: 2, speaker: "cmu-arctic:rms"),
        Voice(id: "flite:awb", engine: "flite", engineVoice: "awb", displayName: "AWB", gender: .male, accent: "en-GB-scotland", pitch: 4.1, quality: 2, speaker: "cmu-arctic:awb"),
    ]

    static func espeak(accents: [String] = ["en-gb", "en-us", "en-gb-scotland", "en-gb-x-rp"],
                       variants: [(String, Gender, AgeRange)] = standardVariants) -> [Voice] {
        accents.flatMap { accent in
            variants.enumerated().map { index, variant in
                Voice(
                    id: "espeak-ng:\(accent)+\(variant.0)", engine: "espeak-ng", engineVoice: "\(accent)+\(variant.0)",
                    displayName: variant.0, gender: variant.1, age: variant.2, accent: tag(accent),
                    pitch: Double(index % 5) - 2, quality: 1)
            }
        }
    }

    static let standardVariants: [(String, Gender, AgeRange)] =
        (1...7).map { ("m\($0)", Gender.male, AgeRange.adult) } + (1...5).map { ("f\($0)", Gender.female, AgeRange.adult) }
        + [("grandpa", .male, .elderly), ("grandma", .female, .elderly)]

    /// Piper's Joe and the two voices derived from him (one speaker, 3.5 semitones apart).
    static let piper: [Voice] = [("", -1.0, ["warm"]), ("+deep", -4.5, ["derived", "deep"]), ("+bright", 2.5, ["derived", "bright"])].map {
        Voice(id: "piper:en_US-joe-medium\($0.0)", engine: "piper", engineVoice: "en_US-joe-medium\($0.0)", displayName: "Joe\($0.0)",
              gender: .male, accent: "en-US", pitch: $0.1, quality: 4, style: $0.2, speaker: "piper:joe")
    }

    static var catalogue: [Voice] { [festival] + flite + espeak() }

    static func tag(_ language: String) -> String {
        language.split(separator: "-").enumerated().map { $0 == 1 && $1.count == 2 ? $1.uppercased() : String($1) }.joined(separator: "-")
    }

    /// An analysis whose characters speak in the given chapters, `lines` dialogue segments each,
    /// spread over those chapters. Chapters are 1,000 scalars long.
    static func analysis(_ characters: [(Character, chapters: [Int])], chapterCount: Int) -> StoryAnalysis {
        let chapters = (0..<chapterCount).map { Chapter(title: "Chapter \($0 + 1)", start: $0 * 1000, end: ($0 + 1) * 1000) }
        var segments: [Segment] = []
        for (character, inChapters) in characters {
            for line in 0..<max(character.lines, 1) {
                let chapter = inChapters[line % inChapters.count]
                let start = chapter * 1000 + (segments.count * 3) % 900
                segments.append(Segment(start: start, end: start + 2, kind: .dialogue, speaker: character.id))
            }
        }
        segments.sort { $0.start < $1.start }
        return StoryAnalysis(title: "Test", characters: characters.map(\.0), chapters: chapters, segments: segments)
    }

    /// Pairs of characters who share a chapter (or one is the narrator) and sound the same.
    static func clashes(_ cast: Cast, _ analysis: StoryAnalysis) -> [String] {
        var chaptersOf: [String: Set<Int>] = [:]
        let starts = analysis.chapters.map(\.start)
        for segment in analysis.segments {
            guard let speaker = segment.speaker else { continue }
            chaptersOf[speaker, default: []].insert((starts.lastIndex { $0 <= segment.start }) ?? 0)
        }
        var found: [String] = []
        let ids = analysis.characters.map(\.id)
        for a in ids {
            let x = cast.characters[a]!
            if x.voice == cast.narrator.voice, abs(x.pitch - cast.narrator.pitch) < 3 { found.append("\(a)~narrator") }
            for b in ids where a < b && !(chaptersOf[a] ?? []).isDisjoint(with: chaptersOf[b] ?? []) {
                let y = cast.characters[b]!
                if x.voice == y.voice, abs(x.pitch - y.pitch) < 3 { found.append("\(a)~\(b)") }
            }
        }
        return found
    }

}
