import Speech
import StoryModel
import Testing

@Suite("A chosen voice re-casts only whom it collides with")
struct StableCastTests {
    let director = CastingDirector()

    /// 30 characters over 6 chapters, as in CastingDirectorTests.
    func crowd() -> StoryAnalysis {
        let genders: [Gender] = [.male, .female, .male, .female, .unknown]
        let characters = (0..<30).map { index in
            (Character(id: "c\(index)", name: "Person \(index)", gender: genders[index % genders.count], lines: 60 - index),
             chapters: [index % 6, (index / 2) % 6, (index * 7) % 6])
        }
        return Fixtures.analysis(characters, chapterCount: 6)
    }

    @Test("without choices it is the automatic cast")
    func noChoices() {
        let analysis = crowd()
        #expect(director.stableCast(analysis, voices: Fixtures.catalogue, narrator: nil, characters: [:])
            == director.cast(analysis, voices: Fixtures.catalogue))
    }

    @Test("taking another character's voice moves that character alone, and no chapter has a clash")
    func takingAVoice() throws {
        let analysis = crowd()
        let automatic = director.cast(analysis, voices: Fixtures.catalogue)
        // Give the most talkative character the voice of the fifth, with whom they share a chapter.
        let taken = try #require(automatic.characters["c4"])
        let chosen = director.stableCast(
            analysis, voices: Fixtures.catalogue, narrator: nil, characters: ["c0": VoiceAssignment(voice: taken.voice, name: "Person 0")])

        let changed = Set(automatic.characters.keys.filter { chosen.characters[$0]?.voice != automatic.characters[$0]?.voice })
        #expect(changed.contains("c0"))
        // c4 had that voice; whoever else moved also sounded like it in a shared chapter.
        #expect(changed.isSubset(of: Set(["c0"]).union(automatic.characters.filter { $0.value.voice == taken.voice }.map(\.key))))
        #expect(chosen.narrator == automatic.narrator)
        #expect(Fixtures.clashes(chosen, analysis).isEmpty)
    }

    @Test("a free voice changes nobody else")
    func freeVoice() throws {
        let analysis = crowd()
        let automatic = director.cast(analysis, voices: Fixtures.catalogue)
        let used = Set(automatic.characters.values.map(\.voice) + [automatic.narrator.voice])
        let free = try #require(Fixtures.espeak().first { !used.contains($0.id) && $0.gender == .male })
        let chosen = director.stableCast(
            analysis, voices: Fixtures.catalogue, narrator: nil, characters: ["c0": VoiceAssignment(voice: free.id, name: "Person 0")])
        for (id, assignment) in automatic.characters where id != "c0" {
            #expect(chosen.characters[id] == assignment, "\(id) changed")
        }
    }
}
