import Speech
import StoryModel
import TestSupport
import Testing

/// A random story: 2–40 characters of random gender, age and talkativeness, each speaking in
/// one to three of 1–8 chapters.
struct RandomStory {
    let analysis: StoryAnalysis

    init(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let chapterCount = Int.random(in: 1...8, using: &random)
        let count = Int.random(in: 2...40, using: &random)
        let genders: [Gender] = [.male, .female, .male, .female, .unknown]
        let ages: [AgeRange] = [.adult, .adult, .adult, .child, .teen, .elderly, .unknown]
        let characters = (0..<count).map { index in
            let chapters = (0..<Int.random(in: 1...3, using: &random)).map { _ in Int.random(in: 0..<chapterCount, using: &random) }
            let character = Character(
                id: "c\(index)", name: "Character \(index)", gender: genders.randomElement(using: &random)!,
                ageRange: ages.randomElement(using: &random)!, lines: Int.random(in: 1...80, using: &random))
            return (character, chapters: Array(Set(chapters)).sorted())
        }
        analysis = Fixtures.analysis(characters, chapterCount: chapterCount)
    }

    /// Character id → chapters they speak in, computed independently of the casting code.
    var chapters: [String: Set<Int>] {
        let starts = analysis.chapters.map(\.start)
        var result: [String: Set<Int>] = [:]
        for segment in analysis.segments {
            guard let speaker = segment.speaker else { continue }
            result[speaker, default: []].insert(starts.lastIndex { $0 <= segment.start } ?? 0)
        }
        return result
    }

    /// Over shared chapters, the lines of the quieter of two characters.
    func interplay(_ a: String, _ b: String) -> Int {
        let starts = analysis.chapters.map(\.start)
        var lines: [String: [Int: Int]] = [:]
        for segment in analysis.segments {
            guard let speaker = segment.speaker else { continue }
            lines[speaker, default: [:]][starts.lastIndex { $0 <= segment.start } ?? 0, default: 0] += 1
        }
        return (lines[a] ?? [:]).reduce(0) { $0 + min($1.value, lines[b]?[$1.key] ?? 0) }
    }
}

@Suite struct CastingPropertyTests {
    static let seeds: [UInt64] = Array(1...40)
    static let voices = Fixtures.piper + Fixtures.catalogue
    static let byID = Dictionary(uniqueKeysWithValues: voices.map { ($0.id, $0) })

    @Test(arguments: seeds)
    func constraintsHoldForRandomCasts(seed: UInt64) {
        let story = RandomStory(seed: seed)
        let cast = CastingDirector().cast(story.analysis, voices: Self.voices)
        let chapters = story.chapters
        #expect(cast.characters.count == story.analysis.characters.count)
        #expect(Self.byID[cast.narrator.voice]?.quality == 4)

        for character in story.analysis.characters {
            let assignment = try! #require(cast.characters[character.id])
            let voice = try! #require(Self.byID[assignment.voice], "\(assignment.voice) is not in the catalogue")
            #expect(assignment.name == character.name)
            if character.gender != .unknown {
                #expect(voice.gender == character.gender, "seed \(seed): \(character.id) got \(voice.id)")
            }
            // The narrator is heard everywhere: no character may sound like them.
            #expect(!CastingDirector.areConfusable(assignment, cast.narrator, voices: Self.byID), "seed \(seed): \(character.id) ~ narrator")
        }
        // Characters sharing a chapter never share a voice, nor a speaker family at nearly the same pitch.
        let ids = story.analysis.characters.map(\.id)
        for a in ids {
            for b in ids where a < b && !(chapters[a] ?? []).isDisjoint(with: chapters[b] ?? []) {
                let (x, y) = (cast.characters[a]!, cast.characters[b]!)
                #expect(x.voice != y.voice, "seed \(seed): \(a) and \(b) share \(x.voice)")
                #expect(!CastingDirector.areConfusable(x, y, voices: Self.byID), "seed \(seed): \(a) \(x.voice) ~ \(b) \(y.voice)")
            }
        }
    }

    @Test(arguments: seeds)
    func theMostTalkativePairsAreKeptFurthestApart(seed: UInt64) {
        let story = RandomStory(seed: seed)
        let cast = CastingDirector().cast(story.analysis, voices: Self.voices)
        let ids = story.analysis.characters.map(\.id)
        let pairs = ids.flatMap { a in ids.filter { a < $0 }.map { (a, $0) } }
            .map { (pair: $0, interplay: story.interplay($0.0, $0.1)) }
            .filter { $0.interplay > 0 }
        guard pairs.count >= 4 else { return }
        func distance(_ pair: (String, String)) -> Double {
            CastingDirector.perceivedDistance(cast.characters[pair.0]!, cast.characters[pair.1]!, voices: Self.byID)
        }
        let sorted = pairs.sorted { $0.interplay != $1.interplay ? $0.interplay > $1.interplay : $0.pair < $1.pair }
        // The pairs heard together most sound clearly different: another speaker, engine or
        // accent, not merely another pitch (which caps at 1.5).
        for top in sorted.prefix(3) {
            #expect(distance(top.pair) >= 2, "seed \(seed): \(top.pair) heard together \(top.interplay) times, distance \(distance(top.pair))")
        }
    }

    @Test(arguments: seeds)
    func castingIsDeterministic(seed: UInt64) {
        let story = RandomStory(seed: seed)
        var random = SeededGenerator(seed: seed &* 31)
        let first = CastingDirector().cast(story.analysis, voices: Self.voices)
        let again = CastingDirector().cast(story.analysis, voices: Self.voices.shuffled(using: &random))
        #expect(first == again)
    }

    @Test func theSameSpeakerOnTwoEnginesIsNotCastTwiceInOneChapter() {
        // The sample story's problem: the narrator on festival slt, a woman on flite slt.
        let analysis = Fixtures.analysis([
            (Character(id: "anna", name: "Anna", gender: .female, lines: 30), chapters: [0]),
            (Character(id: "bea", name: "Bea", gender: .female, lines: 20), chapters: [0]),
        ], chapterCount: 1)
        let cast = CastingDirector().cast(analysis, voices: Fixtures.catalogue)
        #expect(cast.narrator.voice == "festival:cmu_us_slt_arctic_hts")
        for id in ["anna", "bea"] {
            let assignment = cast.characters[id]!
            #expect(!(assignment.voice == "flite:slt" && abs(assignment.pitch) < 3), "\(id) got flite slt at the narrator's pitch")
        }
    }
}
