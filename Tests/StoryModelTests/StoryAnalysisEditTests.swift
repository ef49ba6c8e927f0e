import StoryModel
import Testing

@Suite("Edits to an analysis")
struct StoryAnalysisEditTests {
    /// Narration, then Vera (c1) twice and Framton (c2) once; c3 was merged away earlier.
    static func analysis() -> StoryAnalysis {
        StoryAnalysis(
            title: "The Open Window",
            characters: [
                Character(id: "c1", name: "Vera", aliases: ["the niece"], gender: .female, lines: 2),
                Character(id: "c2", name: "Framton Nuttel", aliases: ["Framton"], gender: .male, lines: 1),
                Character(id: "c4", name: "Mrs. Sappleton", gender: .female, lines: 0),
            ],
            chapters: [],
            segments: [
                Segment(start: 0, end: 10, kind: .narration),
                Segment(start: 10, end: 20, kind: .dialogue, speaker: "c1", confidence: 0.6),
                Segment(start: 20, end: 30, kind: .dialogue, speaker: "c2", confidence: 0.9),
                Segment(start: 30, end: 40, kind: .dialogue, speaker: "c1", confidence: 0.8),
            ])
    }

    @Test func mergingMovesLinesNamesAndAliasesToTheSurvivor() throws {
        var analysis = Self.analysis()
        try analysis.merge("c2", into: "c1")
        #expect(analysis.characters.map(\.id) == ["c1", "c4"])
        #expect(analysis.segments.compactMap(\.speaker) == ["c1", "c1", "c1"])
        #expect(analysis.character(id: "c1")?.aliases == ["the niece", "Framton Nuttel", "Framton"])
        #expect(analysis.character(id: "c1")?.lines == 3)
    }

    @Test func mergingRefusesUnknownAndIdenticalCharacters() {
        var analysis = Self.analysis()
        #expect(throws: StoryAnalysis.EditError.unknownCharacter("c9")) { try analysis.merge("c9", into: "c1") }
        #expect(throws: StoryAnalysis.EditError.sameCharacter) { try analysis.merge("c1", into: "c1") }
        #expect(analysis == Self.analysis())
    }

    @Test func aNewCharacterTakesTheNextNumberNeverAReusedOne() {
        var analysis = Self.analysis()
        let id = analysis.add(Character(id: "ignored", name: "The aunt's husband", lines: 7))
        #expect(id == "c5")
        #expect(analysis.character(id: "c5")?.lines == 0)
        #expect(analysis.nextCharacterID == "c6")
    }

    @Test func reassigningALineRecountsAndNarrationHasNoSpeaker() throws {
        var analysis = Self.analysis()
        try analysis.reassign(segment: 1, to: "c4")
        #expect(analysis.segments[1].speaker == "c4" && analysis.segments[1].kind == .dialogue && analysis.segments[1].confidence == 1)
        #expect(analysis.characters.map(\.lines) == [1, 1, 1])
        try analysis.reassign(segment: 2, to: nil)
        #expect(analysis.segments[2].kind == .narration && analysis.segments[2].speaker == nil && analysis.segments[2].confidence == nil)
        #expect(analysis.character(id: "c2")?.lines == 0)
        #expect(throws: StoryAnalysis.EditError.unknownSegment(9)) { try analysis.reassign(segment: 9, to: nil) }
        #expect(throws: StoryAnalysis.EditError.unknownCharacter("c9")) { try analysis.reassign(segment: 0, to: "c9") }
    }

    @Test func anEditIsCertainAndDropsTheModelsQuotationOnlyForChangedFields() {
        var character = Character(
            id: "c1", name: "Vera", gender: .female, genderConfidence: 0.6,
            evidence: ["gender": "her aunt", "personality": "self-possessed"])
        character.personality = "self-possessed"
        character.apply(CharacterEdit(gender: .female, personality: "  mischievous ", aliases: ["the niece", "  "]))
        #expect(character.genderConfidence == 1)
        #expect(character.evidence["gender"] == "her aunt")
        #expect(character.evidence["personality"] == nil)
        #expect(character.personality == "mischievous")
        #expect(character.aliases == ["the niece"])
        character.apply(CharacterEdit(accent: ""))
        #expect(character.accent == nil)
    }
}
