import Speech
import StoryModel
import Testing

@Suite struct CastingDirectorTests {
    let director = CastingDirector()

    /// 30 characters over 6 chapters, mixed genders and ages, with overlapping appearances.
    func crowd() -> StoryAnalysis {
        let genders: [Gender] = [.male, .female, .male, .female, .unknown]
        let ages: [AgeRange] = [.adult, .adult, .child, .elderly, .teen, .unknown]
        let characters = (0..<30).map { index in
            (Character(id: "c\(index)", name: "Person \(index)", gender: genders[index % genders.count],
                       ageRange: ages[index % ages.count], lines: 60 - index),
             chapters: [index % 6, (index / 2) % 6, (index * 7) % 6])
        }
        return Fixtures.analysis(characters, chapterCount: 6)
    }

    @Test func charactersSharingAChapterNeverShareAVoice() {
        let analysis = crowd()
        let cast = director.cast(analysis, voices: Fixtures.catalogue)
        #expect(cast.characters.count == 30)
        #expect(Fixtures.clashes(cast, analysis).isEmpty)
        // With 60 espeak voices to spare, nobody needs a pitch-shifted duplicate.
        let voicesPerChapter = Set(cast.characters.values.map(\.voice))
        #expect(voicesPerChapter.count == 30)
    }

    @Test func gendersAreMatchedWhenKnown() {
        let analysis = crowd()
        let cast = director.cast(analysis, voices: Fixtures.catalogue)
        let voices = Dictionary(uniqueKeysWithValues: Fixtures.catalogue.map { ($0.id, $0) })
        for character in analysis.characters where character.gender != .unknown {
            #expect(voices[cast.characters[character.id]!.voice]?.gender == character.gender, "\(character.id)")
        }
    }

    @Test func narratorGetsTheTopQualityVoice() {
        let cast = director.cast(crowd(), voices: Fixtures.catalogue.reversed())
        #expect(cast.narrator.voice == "festival:cmu_us_slt_arctic_hts")
        #expect(cast.narrator.name == "Narrator")
        let flite = director.cast(crowd(), voices: Fixtures.flite + Fixtures.espeak())
        #expect(flite.narrator.voice.hasPrefix("flite:"))
    }

    @Test func mostTalkativeCharactersGetTheBetterAndMoreDistinctVoices() {
        let analysis = Fixtures.analysis([
            (Character(id: "hero", name: "Hero", gender: .male, lines: 50), chapters: [0]),
            (Character(id: "friend", name: "Friend", gender: .male, lines: 40), chapters: [0]),
            (Character(id: "extra", name: "Extra", gender: .male, lines: 1), chapters: [0]),
        ], chapterCount: 1)
        let cast = director.cast(analysis, voices: Fixtures.catalogue)
        #expect(cast.characters["hero"]?.voice.hasPrefix("flite:") == true)
        #expect(cast.characters["friend"]?.voice.hasPrefix("flite:") == true)
        #expect(cast.characters["extra"]?.voice.hasPrefix("espeak-ng:") == true)
    }

    /// Preferring the best voices, every character who can have a neural voice of their gender
    /// gets one, most talkative first.
    @Test func preferringTheBestGivesNeuralVoicesToEveryCharacterItCan() throws {
        let neural = [
            ("kumo", Gender.male, -0.5, "en-US"), ("kumo-light", .male, 2.6, "en-US"), ("kumo-young", .male, 5.9, "en-US"),
            ("gongitsune", .female, 3.4, "en-US"), ("nezumi", .female, 5.2, "en-x-ja"), ("alpha", .female, 6.4, "en-x-ja"),
        ].map { name, gender, pitch, accent in
            Voice(id: "kokoro:\(name)", engine: "kokoro", engineVoice: name, displayName: name, gender: gender, accent: accent,
                  pitch: pitch, quality: VoiceQuality.neural.rawValue, speaker: "kokoro:\(name)")
        }
        let analysis = Fixtures.analysis((0..<8).map { index in
            (Character(id: "c\(index)", name: "Person \(index)", gender: index % 2 == 0 ? .male : .female, lines: 40 - index), chapters: [0])
        }, chapterCount: 1)
        let voices = Fixtures.catalogue + neural
        let best = CastingDirector(preference: .best).cast(analysis, voices: voices)
        #expect(best.narrator.voice.hasPrefix("kokoro:"))
        // Six neural voices for eight characters and a narrator sharing a chapter: the five most
        // talkative characters get the five the narrator left, free; the last three share one,
        // moved in pitch so that no two are confusable.
        let free = (0..<5).compactMap { best.characters["c\($0)"] }
        #expect(Set(free.map(\.voice)).count == 5)
        let neuralCast = (0..<8).filter { best.characters["c\($0)"]?.voice.hasPrefix("kokoro:") == true }
        #expect(neuralCast == Array(0..<8), "\(best.characters.mapValues(\.voice))")
        #expect(Fixtures.clashes(best, analysis).isEmpty)
        // Without the preference, the same catalogue keeps the formant voices in the mix.
        let fastest = CastingDirector(preference: .fastest).cast(analysis, voices: voices)
        #expect((0..<8).contains { fastest.characters["c\($0)"]?.voice.hasPrefix("kokoro:") != true })
    }

    @Test func accentIsMatchedWhenTheCatalogueHasIt() {
        let analysis = Fixtures.analysis([
            (Character(id: "scot", name: "Angus", gender: .male, accent: "Scottish", lines: 5), chapters: [0]),
            (Character(id: "posh", name: "Lady Jane", gender: .female, accent: "an upper-class English accent", lines: 5), chapters: [0]),
            (Character(id: "brit", name: "Tom", gender: .male, accent: "en-GB", lines: 5), chapters: [0]),
            (Character(id: "irish", name: "Sean", gender: .male, accent: "Irish", lines: 5), chapters: [0]),
        ], chapterCount: 1)
        let cast = director.cast(analysis, voices: Fixtures.catalogue)
        let voices = Dictionary(uniqueKeysWithValues: Fixtures.catalogue.map { ($0.id, $0) })
        #expect(voices[cast.characters["scot"]!.voice]?.accent == "en-GB-scotland")
        #expect(voices[cast.characters["posh"]!.voice]?.accent == "en-GB-x-rp")
        #expect(voices[cast.characters["brit"]!.voice]?.accent?.hasPrefix("en-GB") == true)
        #expect(voices[cast.characters["irish"]!.voice]?.gender == .male)
    }

    /// Two male voices alike in everything a listener could object to, one deep and firm, one
    /// bright and lively: personality decides, whichever character is cast first.
    @Test(arguments: [(10, 9), (9, 10)])
    func personalityPicksTheVoiceWhoseStyleSuitsIt(lines: (stern: Int, merry: Int)) {
        let voices = [
            Voice(id: "cloud:deep", engine: "cloud", engineVoice: "deep", displayName: "Deep", gender: .male,
                  accent: "en-US", quality: 3, style: ["deep", "authoritative", "resonant"]),
            Voice(id: "cloud:bright", engine: "cloud", engineVoice: "bright", displayName: "Bright", gender: .male,
                  accent: "en-US", quality: 3, style: ["bright", "energetic", "youthful"]),
            // The narrator's (best quality), so both male voices stay free for the two characters.
            Voice(id: "cloud:studio", engine: "cloud", engineVoice: "studio", displayName: "Studio", gender: .female,
                  accent: "en-US", quality: 4, style: ["calm", "measured"]),
        ]
        let analysis = Fixtures.analysis([
            (Character(id: "judge", name: "Judge", gender: .male, personality: "stern, proud and severe", lines: lines.stern), chapters: [0]),
            (Character(id: "jester", name: "Jester", gender: .male, personality: "cheerful; playful", lines: lines.merry), chapters: [0]),
        ], chapterCount: 1)
        let cast = director.cast(analysis, voices: voices)
        #expect(cast.narrator.voice == "cloud:studio")
        #expect(cast.characters["judge"]?.voice == "cloud:deep")
        #expect(cast.characters["jester"]?.voice == "cloud:bright")
    }

    @Test func deliveryDescribesTheCharacterForEnginesThatTakeADirection() {
        let judge = Character(id: "j", name: "Judge", gender: .male, ageRange: .elderly, accent: "Scottish", personality: "stern, proud")
        #expect(CastingDirector.delivery(for: judge) == "stern, proud; an elderly man; Scottish accent")
        #expect(CastingDirector.delivery(for: Character(id: "k", name: "Kit", gender: .female, ageRange: .child)) == "a girl")
        #expect(CastingDirector.delivery(for: Character(id: "t", name: "Tom", gender: .male, ageRange: .teen)) == "a teenage boy")
        #expect(CastingDirector.delivery(for: Character(id: "u", name: "U", gender: .male, genderConfidence: 0.1)) == nil)
        let analysis = Fixtures.analysis([(judge, chapters: [0])], chapterCount: 1)
        #expect(director.cast(analysis, voices: Fixtures.catalogue).characters["j"]?.delivery == "stern, proud; an elderly man; Scottish accent")
    }

    @Test func styleAffinityReadsFreeTextPersonalities() {
        #expect(StyleAffinity(personality: "Proud, STERN").affinity(style: ["deep"]) == 1)
        #expect(StyleAffinity(personality: "proud but kind").affinity(style: ["deep"]) == 0.5)
        #expect(StyleAffinity(personality: "cheerful").affinity(style: ["deep", "firm"]) == 0)
        #expect(StyleAffinity(personality: nil).affinity(style: ["deep"]) == 0)
        #expect(StyleAffinity(personality: "enigmatic").affinity(style: ["deep"]) == 0)
    }

    @Test func ageShiftsPitchAndRate() {
        let analysis = Fixtures.analysis([
            (Character(id: "kid", name: "Kid", gender: .female, ageRange: .child, lines: 5), chapters: [0]),
            (Character(id: "old", name: "Old", gender: .male, ageRange: .elderly, lines: 5), chapters: [0]),
            (Character(id: "adult", name: "Adult", gender: .male, ageRange: .adult, lines: 5), chapters: [0]),
        ], chapterCount: 1)
        let cast = director.cast(analysis, voices: Fixtures.catalogue)
        let kid = cast.characters["kid"]!, old = cast.characters["old"]!, adult = cast.characters["adult"]!
        #expect(kid.pitch > 0 && kid.rate > 1)
        #expect(adult.pitch == 0 && adult.rate == 1)
        // The elderly man gets either an elderly voice as is, or an adult voice lowered and slowed.
        #expect(old.voice.hasSuffix("+grandpa") || (old.pitch < 0 && old.rate < 1))
    }

    @Test func overridesWinForTheIdsTheyName() {
        let analysis = crowd()
        let overrides = Cast(
            narrator: VoiceAssignment(voice: "flite:rms", rate: 0.95),
            characters: [
                "c0": VoiceAssignment(voice: "espeak-ng:en-us+m3", rate: 1.2, pitch: 1, volume: 0.8, name: "stale name"),
                "c1": VoiceAssignment(voice: "festival:cmu_us_slt_arctic_hts"),
                "gone": VoiceAssignment(voice: "flite:awb", name: "Old character"),
            ])
        let cast = director.cast(analysis, voices: Fixtures.catalogue, overrides: overrides)
        #expect(cast.narrator.voice == "flite:rms" && cast.narrator.rate == 0.95)
        #expect(cast.characters["c0"] == VoiceAssignment(voice: "espeak-ng:en-us+m3", rate: 1.2, pitch: 1, volume: 0.8, name: "Person 0",
                                                         delivery: "an adult man"))
        #expect(cast.characters["c1"]?.voice == "festival:cmu_us_slt_arctic_hts")
        #expect(cast.characters["gone"]?.voice == "flite:awb")
        // Everyone else is cast around the overrides.
        #expect(Fixtures.clashes(cast, analysis).isEmpty)
        #expect(cast.characters.values.filter { $0.voice == "espeak-ng:en-us+m3" }.count == 1)
    }

    @Test func castingIsDeterministic() {
        let analysis = crowd()
        let first = director.cast(analysis, voices: Fixtures.catalogue)
        let second = director.cast(analysis, voices: Fixtures.catalogue.reversed())
        var shuffledAnalysis = analysis
        shuffledAnalysis.characters.reverse()
        let third = director.cast(shuffledAnalysis, voices: Fixtures.catalogue)
        #expect(first == second)
        #expect(first == third)
    }

    @Test func everyAssignmentIsNamed() {
        let analysis = crowd()
        let cast = director.cast(analysis, voices: Fixtures.catalogue)
        for character in analysis.characters {
            #expect(cast.characters[character.id]?.name == character.name)
        }
    }

    @Test func voicesAreReusedOnlyAcrossChaptersWhenTheCatalogueRunsOut() {
        // Six men, each in a chapter of his own, and only two male voices: reuse is fine.
        let men = (0..<6).map { (Character(id: "m\($0)", name: "Man \($0)", gender: .male, lines: 3), chapters: [$0]) }
        let voices = [Fixtures.festival, Fixtures.flite[1], Fixtures.flite[2]]
        let analysis = Fixtures.analysis(men, chapterCount: 6)
        let cast = director.cast(analysis, voices: voices)
        #expect(Fixtures.clashes(cast, analysis).isEmpty)
        #expect(cast.characters.values.allSatisfy { $0.pitch == 0 && $0.voice.hasPrefix("flite:") })
    }

    @Test func moreCharactersThanVoicesFallsBackToPitchSeparatedVoices() {
        // Eight women in one chapter, and only the festival and flite voices.
        let women = (0..<8).map { (Character(id: "w\($0)", name: "Woman \($0)", gender: .female, lines: 10 - $0), chapters: [0]) }
        let analysis = Fixtures.analysis(women, chapterCount: 1)
        let voices = [Fixtures.festival] + Fixtures.flite
        let cast = director.cast(analysis, voices: voices)
        #expect(cast.characters.count == 8)
        #expect(Fixtures.clashes(cast, analysis).isEmpty)
        // The shared voices are the women's voices, pitched apart by at least 3 semitones. Both
        // are CMU Arctic "slt", so together they are one speaker: the narrator and three women
        // fit between −4.5 and +8 semitones; the rest get the male voices moved in pitch.
        let femaleIDs: Set = ["festival:cmu_us_slt_arctic_hts", "flite:slt"]
        #expect(cast.characters.values.filter { femaleIDs.contains($0.voice) }.count == 3)
        let byID = Dictionary(uniqueKeysWithValues: voices.map { ($0.id, $0) })
        let everyone = [cast.narrator] + cast.characters.values.sorted { $0.name ?? "" < $1.name ?? "" }
        for (index, a) in everyone.enumerated() {
            for b in everyone[(index + 1)...] {
                #expect(!CastingDirector.areConfusable(a, b, voices: byID), "\(a) ~ \(b)")
            }
        }
        #expect(cast.characters.values.contains { $0.pitch != 0 })
    }

    @Test func castsEvenWithTooFewVoicesForDistinctness() {
        let crowd = (0..<40).map { (Character(id: "x\($0)", name: "X\($0)", gender: .male, lines: 1), chapters: [0]) }
        let cast = director.cast(Fixtures.analysis(crowd, chapterCount: 1), voices: [Fixtures.flite[1]])
        #expect(cast.characters.count == 40)
        #expect(cast.characters.values.allSatisfy { $0.voice == "flite:rms" })
    }

    @Test func charactersWhoNeverSpeakStillGetAVoiceUnlikeTheNarrators() {
        let analysis = StoryAnalysis(
            title: "Quiet", characters: [Character(id: "c1", name: "Mute", gender: .female)], chapters: [], segments: [])
        let cast = director.cast(analysis, voices: Fixtures.catalogue)
        #expect(cast.characters["c1"] != nil)
        #expect(cast.characters["c1"]?.voice != cast.narrator.voice)
    }
}

@Suite struct LargeCastTests {
    @Test func aNovelSizedCastStaysDistinctPerChapter() {
        // 150 characters over 40 chapters, all in chapter 0, against 132 voices.
        let genders: [Gender] = [.male, .female, .female, .male, .unknown]
        let characters: [(Character, chapters: [Int])] = (0..<150).map { index in
            let others: [Int] = [index % 40, (index * 3) % 40, (index * 11) % 40].filter { $0 != 0 }
            let character = Character(id: String(format: "c%03d", index), name: "P\(index)", gender: genders[index % 5], lines: 150 - index)
            return (character, chapters: [0] + others)
        }
        let analysis = Fixtures.analysis(characters, chapterCount: 40)
        let accents = ["en-gb", "en-us", "en-gb-scotland", "en-gb-x-rp", "en-gb-x-gbclan", "en-gb-x-gbcwmd", "en-029", "en-us-nyc"]
        let extraVariants: [(String, Gender, AgeRange)] = (1...8).map { ("x\($0)", $0 % 2 == 0 ? Gender.female : Gender.male, AgeRange.adult) }
        let voices: [Voice] = [Fixtures.festival] + Fixtures.flite + Fixtures.espeak(accents: accents)
            + Fixtures.espeak(accents: ["en-gb", "en-us"], variants: extraVariants)
        let cast = CastingDirector().cast(analysis, voices: voices)
        #expect(cast.characters.count == 150)
        // Everyone speaks in chapter 0, and there are fewer voices than characters: some
        // voices must be shared, pitched at least 3 semitones apart.
        #expect(Fixtures.clashes(cast, analysis).isEmpty)
        #expect(Set(cast.characters.values.map { $0.voice }).count < 150)
    }
}
