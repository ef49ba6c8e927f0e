import Foundation
import Speech
import StoryModel
import Testing

/// Casting by quality under a time budget: neural voices for every role that can have one, the
/// slow best voices for the roles that speak most while the whole story renders in time.
@Suite struct BudgetedCastingTests {
    /// Fast neural voices of both genders (a Piper-like male with two derived voices, a
    /// hibari-like female with three) and slow ones (Kokoro-like), beside the formant catalogue.
    static let hibari: [Voice] = [("heart", 1.2, AgeRange.adult), ("heart-low", -3.4, .adult), ("heart-bright", 4.8, .adult), ("heart-young", 8.0, .teen)]
        .map { name, pitch, age in
            Voice(id: "hibari:\(name)", engine: "hibari", engineVoice: name, displayName: name, gender: .female, age: age, accent: "en-US",
                  pitch: pitch, quality: VoiceQuality.neural.rawValue, speaker: "hibari:heart")
        }
    static let kokoro: [Voice] = [("kumo", Gender.male, -0.5), ("kumo-light", .male, 2.6), ("gongitsune", .female, 3.4), ("nezumi", .female, 6.4)]
        .map { name, gender, pitch in
            Voice(id: "kokoro:\(name)", engine: "kokoro", engineVoice: name, displayName: name, gender: gender, accent: "en-US",
                  pitch: pitch, quality: VoiceQuality.neural.rawValue, speaker: "kokoro:\(name)")
        }
    static let voices = Fixtures.catalogue + Fixtures.piper + hibari + kokoro
    /// Seconds of speech per second here (two cores), as `RenderEstimate` measures them.
    static let casting = BudgetedCasting(
        speeds: ["espeak-ng": 500, "flite": 150, "festival": 40, "piper": 9, "hibari": 80, "kokoro": 1.3],
        defaultSpeed: 10, slowEngines: ["kokoro"])

    /// A book of `chapters` chapters: the narrator and `cast` characters speaking `lengths`
    /// scalars each (spread over their chapters); 30,000 scalars of narration per chapter.
    static func book(_ cast: [(Character, chapters: [Int], length: Int)], chapters: Int, narration: Int = 30_000) -> StoryAnalysis {
        let size = 1_000_000
        var segments: [Segment] = []
        for chapter in 0..<chapters {
            for piece in 0..<30 {
                let start = chapter * size + piece * 2_000
                segments.append(Segment(start: start, end: start + narration / 30, kind: .narration))
            }
        }
        for (index, (character, inChapters, length)) in cast.enumerated() {
            let lines = max(character.lines, 1)
            for line in 0..<lines {
                let chapter = inChapters[line % inChapters.count]
                let start = chapter * size + 100_000 + index * 20_000 + line * (length / lines + 1)
                segments.append(Segment(start: start, end: start + length / lines, kind: .dialogue, speaker: character.id))
            }
        }
        segments.sort { $0.start < $1.start }
        return StoryAnalysis(
            title: "Book", characters: cast.map(\.0),
            chapters: (0..<chapters).map { Chapter(title: "Chapter \($0 + 1)", start: $0 * size, end: ($0 + 1) * size) }, segments: segments)
    }

    /// Twelve characters over four chapters: a hero and a grandmother who speak most, then
    /// a crowd of both genders.
    static func novel() -> StoryAnalysis {
        var cast: [(Character, chapters: [Int], length: Int)] = [
            (Character(id: "hero", name: "Alexei", gender: .male, lines: 120), [0, 1, 2, 3], 40_000),
            (Character(id: "granny", name: "Grandmother", gender: .female, ageRange: .elderly, lines: 90), [1, 2], 30_000),
        ]
        for index in 0..<10 {
            cast.append((Character(id: "c\(index)", name: "Person \(index)", gender: index % 2 == 0 ? .male : .female, lines: 40 - index * 3),
                         [index % 4, (index + 1) % 4], 8_000 - index * 600))
        }
        return book(cast, chapters: 4)
    }

    static let formantEngines: Set<String> = ["espeak-ng", "flite", "festival"]

    static func engine(_ assignment: VoiceAssignment) -> String { String(assignment.voice.prefix { $0 != ":" }) }

    @Test func everyRoleGetsANeuralVoiceByDefault() {
        let analysis = Self.novel()
        let cast = Self.casting.cast(analysis, voices: Self.voices, preference: .fastest)
        let formant = cast.characters.filter { Self.formantEngines.contains(Self.engine($0.value)) }
        #expect(formant.isEmpty, "\(formant.mapValues(\.voice))")
        #expect(!Self.formantEngines.contains(Self.engine(cast.narrator)))
        // Characters who share a chapter never sound alike, and genders hold.
        #expect(Fixtures.clashes(cast, analysis).isEmpty)
        let byID = Dictionary(uniqueKeysWithValues: Self.voices.map { ($0.id, $0) })
        for character in analysis.characters {
            #expect(byID[cast.characters[character.id]!.voice]?.gender == character.gender, "\(character.id)")
        }
    }

    @Test func theFastestChoiceStillRendersTenTimesFasterThanItPlays() {
        let analysis = Self.novel()
        let cast = Self.casting.cast(analysis, voices: Self.voices, preference: .fastest)
        let audio = Self.casting.audioSeconds(analysis)
        #expect(Self.casting.renderSeconds(cast, analysis) <= audio / CastingPreference.fastestSpeedup)
    }

    @Test func theSlowVoicesGoToTheRolesThatSpeakMostAsFarAsTheBudgetAllows() throws {
        let analysis = Self.novel()
        let audio = Self.casting.audioSeconds(analysis)
        // The cast without any slow voice.
        let plain = Self.casting.cast(analysis, voices: Self.voices.filter { $0.engine != "kokoro" }, preference: .best)
        // A budget with room for the hero and the grandmother's Kokoro voices, not the narrator's.
        let heroAndGranny = (40_000.0 + 30_000) / BudgetedCasting.charactersPerSecond / 1.3
        let budgetHours = (Self.casting.renderSeconds(plain, analysis) + heroAndGranny) / 3600
        let budget = CastingPreference.within(hours: budgetHours + 0.25)
        let cast = Self.casting.cast(analysis, voices: Self.voices, preference: budget)
        let allowed = try #require(budget.renderBudget(audioSeconds: audio))
        #expect(Self.casting.renderSeconds(cast, analysis) <= allowed)
        #expect(Self.engine(cast.characters["hero"]!) == "kokoro")
        #expect(Self.engine(cast.characters["granny"]!) == "kokoro")
        #expect(Self.engine(cast.narrator) != "kokoro", "the narrator's lines alone would take longer than the budget")
        #expect(Fixtures.clashes(cast, analysis).isEmpty)

        // "Best" gives the narrator (who speaks most) the best voice too, however long it takes.
        let best = Self.casting.cast(analysis, voices: Self.voices, preference: .best)
        #expect(Self.engine(best.narrator) == "kokoro")
        #expect(Self.casting.renderSeconds(best, analysis) > Self.casting.renderSeconds(cast, analysis))
        // The tightest budget (15 minutes): only what fits, if anything.
        let tight = Self.casting.cast(analysis, voices: Self.voices, preference: .within(hours: 0.25))
        #expect(Self.casting.renderSeconds(plain, analysis) < 900)
        #expect(Self.casting.renderSeconds(tight, analysis) <= 900)
        #expect(Self.engine(tight.characters["hero"]!) != "kokoro")
    }

    @Test func aFormantVoiceSpeaksOnlyWhereTheUserPicksOneOrNoNeuralVoiceFits() {
        let analysis = Self.novel()
        let picked = VoiceAssignment(voice: "espeak-ng:en-gb+m3")
        let cast = Self.casting.cast(analysis, voices: Self.voices, preference: .fastest, characters: ["c0": picked])
        #expect(cast.characters["c0"]?.voice == "espeak-ng:en-gb+m3")
        #expect(cast.characters.filter { $0.key != "c0" && Self.formantEngines.contains(Self.engine($0.value)) }.isEmpty)
        // Without any neural female voice, women keep formant voices of their gender rather than a man's.
        let noFemaleNeural = Self.voices.filter { !($0.quality >= VoiceQuality.neural.rawValue && $0.gender == .female) }
        let fallback = Self.casting.cast(analysis, voices: noFemaleNeural, preference: .fastest)
        let byID = Dictionary(uniqueKeysWithValues: noFemaleNeural.map { ($0.id, $0) })
        #expect(byID[fallback.characters["granny"]!.voice]?.gender == .female)
        #expect(Self.engine(fallback.characters["hero"]!) != "espeak-ng")
    }

    /// When every fast neural voice of a woman's gender is taken in her chapter, she gets a slow
    /// neural voice (a few lines cost little) before a formant one, and never a man's voice.
    @Test func aRoleWithNoFastNeuralVoiceLeftGetsASlowOneBeforeAFormantOne() {
        let heart = Voice(id: "hibari:heart", engine: "hibari", engineVoice: "heart", displayName: "Heart", gender: .female, accent: "en-US",
                          pitch: 1.2, quality: VoiceQuality.neural.rawValue, speaker: "hibari:heart", pitchShifts: -0.5...0.5)
        let voices = Fixtures.catalogue + Fixtures.piper + [heart] + Self.kokoro
        let analysis = Self.book([
            (Character(id: "hero", name: "Hero", gender: .male, lines: 60), [0], 20_000),
            (Character(id: "ann", name: "Ann", gender: .female, lines: 10), [0], 1_500),
            (Character(id: "bea", name: "Bea", gender: .female, lines: 8), [0], 1_400),
        ], chapters: 1)
        let cast = Self.casting.cast(analysis, voices: voices, preference: .fastest)
        #expect(cast.narrator.voice == "hibari:heart")
        #expect(Self.engine(cast.characters["ann"]!) == "kokoro" && Self.engine(cast.characters["bea"]!) == "kokoro",
                "\(cast.characters.mapValues(\.voice))")
        #expect(Self.engine(cast.characters["hero"]!) == "piper", "the hero's Kokoro lines would not fit in a tenth of the listening time")
        #expect(Self.casting.renderSeconds(cast, analysis) <= Self.casting.audioSeconds(analysis) / CastingPreference.fastestSpeedup)
    }

    @Test func theChoiceReadsAndWritesAsAString() throws {
        #expect(CastingPreference(rawValue: "hours:2")?.renderBudget(audioSeconds: 100) == 7200)
        #expect(CastingPreference(rawValue: "hours:2.5")?.rawValue == "hours:2.5")
        #expect(CastingPreference(rawValue: "hours:0.1") == nil)
        #expect(CastingPreference(rawValue: "hours:") == nil)
        #expect(CastingPreference(rawValue: "loudest") == nil)
        #expect(CastingPreference.fastest.renderBudget(audioSeconds: 3600) == 360)
        #expect(CastingPreference.best.renderBudget(audioSeconds: 3600) == nil)
        let encoded = try JSONEncoder().encode(["voices": CastingPreference.within(hours: 3)])
        #expect(String(decoding: encoded, as: UTF8.self) == #"{"voices":"hours:3"}"#)
        #expect(try JSONDecoder().decode([String: CastingPreference].self, from: encoded)["voices"] == .within(hours: 3))
    }
}
