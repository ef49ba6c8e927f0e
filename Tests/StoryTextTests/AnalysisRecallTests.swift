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

    @Test("A word beside a speech verb is a name though the text also writes it in lower case: 'said Seven', 'said Two'; a compound's part is no name: 'the Fish-Footman'")
    func wordLikeNamesInTags() {
        let passage = AnalyzedPassage("""
        Four times seven is fourteen, Alice thought. The three gardeners were at it, busily painting the roses red.

        "Look out now, Five! Don't go splashing paint over me like that!" said one of them.

        "I couldn't help it," said Five, in a sulky tone.

        On which Seven looked up and said, "That's right, Five! Always lay the blame on others!"

        "That's none of your business, Two!" said Seven.

        "Why the fact is, you see, Miss, we put a white one in by mistake," said Two. The two others looked at him.

        Five and Seven said nothing. The Footman came in. "For the Duchess," said the Fish-Footman. "An invitation," said the Footman.
        """)
        #expect(passage.speakers.contains("Seven"))
        #expect(passage.speakers.contains("Two"))
        #expect(passage.speakers.suffix(2) == ["the fish-footman", "Footman"])
    }

    @Test("A tag in a sentence of its own is the next part's, not the first part's: '\"…?\" exclaimed a nephew. Uncle Ernst replied, \"…\"'")
    func secondTagInParagraph() {
        let passage = AnalyzedPassage("""
        Mr. Schlegel had spoken of his hope. "Do you imply that we Germans are stupid, Uncle Ernst?" exclaimed a haughty and magnificent nephew. Uncle Ernst replied, "To my mind. That I call stupidity."
        """)
        #expect(passage.speakers == ["the nephew", "Uncle Ernst"])
    }

    @Test("A noun phrase after a verb is its object, not a tag's subject: 'left the room crying to the General'")
    func objectIsNoSpeaker() {
        let passage = AnalyzedPassage("""
        The room was full. "So you have been counting upon my death?" said the General.

        "Diantre!" muttered Mlle. Blanche under her breath.

        Then all at once she burst into a laugh and left the room crying to the General as she did so: "Elle vivra cent ans!"
        """)
        #expect(!passage.speakers.contains("the room"))
    }

    @Test("An indefinite after the verb brings a new speaker in: 'cried a looker-on', 'cried a sleepy-faced carpenter'; 'said the master'; not 'muttered a deep curse'")
    func indefiniteInvertedTags() {
        let passage = AnalyzedPassage("""
        The man tore the volumes from his grasp, and struck him on the head.

        "That's right!" cried a looker-on, from a garret-window. "That's the only way of bringing him to his senses!"

        "To be sure!" cried a sleepy-faced carpenter, casting an approving look at the garret-window.

        "Hallo!" cried a loud, hoarse voice, as soon as they set foot in the passage.

        "Let him go," muttered a deep curse from the crowd.

        The master was a fat, healthy man; but he turned very pale. "What!" said the master at length, in a faint voice.
        """)
        #expect(passage.speakers.prefix(4) == ["the looker-on", "the looker-on", "the sleepy-faced carpenter", "the voice"])
        #expect(!passage.speakers.contains { ["the loud", "the curse"].contains($0) })
        #expect(passage.speakers.last == "the master")
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

    @Test("A short sentence after a speaker and a speech verb is a line: 'Quilla shouting from the top of a spruce \"Master's coming.\"'")
    func shortTaggedSentence() {
        let passage = AnalyzedPassage("""
        The first thing that recalled them was Quilla shouting from the top of a patriarchal old spruce "Master's coming."

        Marilla called it "Solitude." She recited "The Maiden's Vow" for them.
        """)
        #expect(passage.quotes == ["\"Master's coming.\""])
        #expect(passage.speakers == ["Quilla"])
    }

    @Test("Mrs. X is not one of two daughters named in full: Carrie and Sophia Dunlop, Mrs. Dunlop")
    func mrsOfAFamily() {
        let passage = AnalyzedPassage("""
        Carrie Dunlop cried into her grammar. Sophia Dunlop lent her a pink card.

        "Where?" sobbed Carrie Dunlop. "Oh, where, Anne?"

        "I am quite well," said Anne.

        "Hush now, all of you," said Mrs. Dunlop.
        """)
        #expect(passage.speakers == ["Carrie Dunlop", "Carrie Dunlop", "Anne", "Mrs. Dunlop"])
    }

    @Test("A role keeps its description as the tag writes it as an alias: 'said a man who', 'said the pink lady'")
    func roleDescriptions() {
        let passage = AnalyzedPassage("""
        "Les princes russes sont si généreux!" said a man who had been hanging around the chair.

        "Then don't disappoint your brother," said the pink lady.

        "Move on now," cried the grandmother. "I am famished."

        "Very well," the upshot was that the grandmother said.
        """)
        #expect(passage.character(named: "the man")?.aliases.contains("a man") == true)
        #expect(passage.character(named: "the lady")?.aliases.contains("the pink lady") == true)
        #expect(passage.analysis.characters.allSatisfy { !$0.aliases.contains { $0.contains("upshot") } })
    }

    @Test("He/she after narration that introduces a role of that gender is the role: 'I met the nursemaid ... she replied'")
    func pronounAfterIntroducedRole() {
        let passage = AnalyzedPassage("""
        "Thanks for your help," said Mrs. Ildren at parting.

        Then I returned home. As I was passing the door of the General's suite, I met the nursemaid, and inquired after her master. "There is nothing new to report, sir," she replied quietly.

        As she spoke I saw approaching us a grey-headed old man with a wooden leg. He looked like an old soldier.

        "Was ist der Teufel!" he cried.

        Mrs. Ildren turned to the woman. "Go away," she said.
        """)
        #expect(passage.speakers == ["Mrs. Ildren", "the nursemaid", "the old man", "Mrs. Ildren"])
        #expect(passage.character(named: "the old man")?.aliases.contains("a grey-headed old man") == true)
    }

    @Test("A generic description's first tag takes up a role just introduced: 'A maid ... entered ... insisted the young woman'")
    func genericDescriptionTakesUpIntroducedRole() {
        let passage = AnalyzedPassage("""
        A maid, alarmed at the din of breaking glass, entered the room.

        "A vase fell upon the hearth," said Mrs. Ildren. "Never mind; leave it till morning."

        "Oh! you might get some of the glass in your feet, ma'am," insisted the young woman.
        """)
        #expect(passage.speakers == ["Mrs. Ildren", "Mrs. Ildren", "the maid"])
        #expect(passage.character(named: "the maid")?.aliases.contains("a maid") == true)
    }

    @Test("A description keeps its possessive as written: 'said the apothecary's apprentice'")
    func possessiveInDescription() {
        let passage = AnalyzedPassage("""
        An apprentice came in with a bottle and set it down.

        "Here is the physic, ma'am," said the apothecary's apprentice.
        """)
        #expect(passage.character(named: "the apothecary's apprentice") != nil)
        #expect(passage.character(named: "the apothecary apprentice") == nil)
    }

    @Test("'the man' after 'a stout man' came in is that new man, not the book's other man; 'he was a good man' brings in nobody")
    func definiteTakesUpSceneIntroduction() {
        let passage = AnalyzedPassage("""
        "Where is the key?" said the man, who had followed Mr. Grey about all morning.

        "Ask the porter," said Mr. Grey.

        They crossed the yard, and there they came upon a stout man with a bunch of keys in his hand.

        "What's the matter now?" said the man carelessly.

        "A thief," replied Mr. Grey.

        "Must go before the magistrate, then," said the man.
        """)
        #expect(passage.speakers == ["the man", "Mr. Grey", "the stout man", "Mr. Grey", "the stout man"])
        let predicate = AnalyzedPassage("""
        Mr. Grey came in from the rain. He was a good man, and a tired one.

        "Shut the door," said the man.
        """)
        #expect(predicate.speakers == ["the man"])
    }

    @Test("A description brought in and then named is that person: 'a young barefooted girl ... Her name was Rosa'")
    func introductionNamed() {
        let passage = AnalyzedPassage("""
        A young barefooted girl came down the path with a basket. Her name was Rosa. She set the basket down.

        "Shrimps, ma'am," said the girl.
        """)
        #expect(passage.speakers == ["Rosa"])
    }

    @Test("Who answers a turn that called someone by name is that someone: 'Walt?' / 'replied the man'; 'Anny dear' / 'replied the other'")
    func answerByTheOneAddressed() {
        let passage = AnalyzedPassage("""
        Mr. Grey stood at the inn door while the horses were changed.

        "Anything new up in town, Walt?" asked Mr. Grey, drawing on his gloves.

        "Nothing that I knows of," replied the man. "Corn's up a little."

        "Did she say any more, Anny dear, while I was gone?" asked Mrs. Leam.

        "Not a word," replied the other. "She only sighed."
        """)
        #expect(passage.speakers == ["Mr. Grey", "Walt", "Walt", "Mrs. Leam", "Anny", "Anny"])
        // "Anny" is a pet form of Ann.
        #expect(passage.character(named: "Anny")?.gender == .female)
    }

    @Test("A name and a nickname of it in one sentence are two people: 'compliments to Madge, Margaret walked back'")
    func nicknameBesideItsNameIsSomeoneElse() {
        let passage = AnalyzedPassage("""
        Margaret went down to the farm in the rain. Having sent her compliments to Madge, Margaret walked back to the station.

        "Madge, go away," said Miss Avery.

        "Well, if you'll excuse me," said Madge, "I ought to be leaving."

        "Good-bye," said Margaret.
        """)
        #expect(passage.speakers == ["Miss Avery", "Madge", "Madge", "Margaret"])
        #expect(passage.character(named: "Margaret")?.aliases.contains("Madge") == false)
    }

    @Test("A passive speech verb names no speaker: 'being called the prettiest girl in the room ... James ... said'")
    func passiveSpeechVerbIsNoTag() {
        let passage = AnalyzedPassage("""
        Catherine Morland came in with her brother James.

        It requires uncommon steadiness to resist the pleasure of being called the prettiest girl in the room; and the consequence was that, when the two of them set off together, and James, as the door was closed on them, said, "Well, Catherine, how do you like my friend?"
        """)
        #expect(passage.speakers == ["James"])
    }

    @Test("He after a sentence that brings someone in is the newcomer, whatever the noun: 'I met an aged rustic, who leered' / 'he asked'")
    func pronounAfterNewcomer() {
        let passage = AnalyzedPassage("""
        I went down the lane looking for Mr. Grey. There was no sign of him, and I did not like to go up to the farm. As I walked away, I met an aged rustic, who leered at me cunningly.

        "You'm from the Hall, bain't you?" he asked.

        "Yes," I said.

        I shut both the doors behind me, and as I went out into the street the porter stopped me to brush off my coat.

        "You must have been in a motor-car," he said.
        """)
        #expect(passage.speakers == ["the aged rustic", "I", "the porter"])
        #expect(passage.character(named: "the aged rustic")?.aliases.contains("an aged rustic") == true)
    }
}

