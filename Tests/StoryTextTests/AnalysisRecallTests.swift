import StoryModel
import StoryText
import Testing

/// Minor speakers that must become characters of their own (speaking-character recall).
@Suite("Analysis: minor speakers found")
struct AnalysisRecallTests {
    @Test("A manner-of-speaking verb tags its speaker: 'corroborated Quilla', 'asserted the Colonel'")
    func mannerOfSpeakingVerbs() {
        let passage = AnalyzedPassage("""
        "Robert sent word that you wanted a girl," said Mrs. Spenlow.

        "She certainly did," corroborated Quilla earnestly.

        "Put your foot down," asserted the Colonel. "That is the only way."
        """)
        #expect(passage.speakers == ["Mrs. Spenlow", "Quilla", "The Colonel", "The Colonel"])
    }

    @Test("Servants of the period are roles: 'said the lacquey', 'replied the nursemaid'")
    func servantRoles() {
        let passage = AnalyzedPassage("""
        "Is the General in?" I asked.

        "He has gone out, sir," said the lacquey.

        "There is nothing new to report, sir," replied the nursemaid.
        """)
        #expect(passage.speakers == ["I", "the lacquey", "the nursemaid"])
        #expect(passage.character(named: "the lacquey")?.gender == .male)
        #expect(passage.character(named: "the nursemaid")?.gender == .female)
    }

    @Test("A possessive does not leak into a display name: 'The Doctor's coupé' is the Doctor")
    func possessiveRoleTitle() {
        let passage = AnalyzedPassage("""
        The Doctor's coupé had returned for him. The Doctor's horse stamped in the road.

        "Go home and rest," said the Doctor.
        """)
        #expect(passage.speakers == ["The Doctor"])
        #expect(passage.analysis.characters.allSatisfy { !$0.name.hasSuffix("'s") })
    }

    @Test("A role noun in apposition to a name is that person: 'Theodosia, the nursemaid, ... replied the nursemaid'")
    func appositiveRole() {
        let passage = AnalyzedPassage("""
        At this moment Theodosia, the nursemaid, approached the old lady with the children.

        "How are you getting on, Theodosia?" said Mrs. Ildren.

        "I am very well, thank you, Madame," replied the nursemaid.
        """)
        #expect(passage.speakers == ["Mrs. Ildren", "Theodosia"])
    }
}
