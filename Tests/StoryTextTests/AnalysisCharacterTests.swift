import StoryModel
import StoryText
import Testing

@Suite("Analysis: characters, aliases, gender and age")
struct AnalysisCharacterTests {
    static let bennets = """
    Elizabeth Bennet walked into the room where Mr. Bennet sat reading. Mrs. Bennet followed her.

    "My dear Mr. Bennet," said Mrs. Bennet, "have you heard the news?"

    "I have not," said Mr. Bennet.

    "Lizzy knows," said Mrs. Bennet.

    "I do," said Elizabeth. She smiled at her father.

    "Then tell me," said Mr. Bennet. He put down his book.

    Elizabeth laughed. "It is only a ball."

    "Only a ball!" cried Lizzy's mother. Mrs. Bennet was shocked.
    """

    @Test("Mr. Bennet and Mrs. Bennet are different people; Lizzy is Elizabeth Bennet")
    func honorificsAndNicknames() {
        let passage = AnalyzedPassage(Self.bennets)
        let mr = passage.character(named: "Mr. Bennet"), mrs = passage.character(named: "Mrs. Bennet")
        #expect(mr != nil && mrs != nil && mr?.id != mrs?.id)
        let elizabeth = passage.character(named: "Elizabeth Bennet")
        #expect(elizabeth?.aliases.contains("Elizabeth") == true)
        #expect(passage.speakers == [
            "Mrs. Bennet", "Mrs. Bennet", "Mr. Bennet", "Mrs. Bennet", "Elizabeth Bennet", "Mr. Bennet", "Elizabeth Bennet", "Mrs. Bennet",
        ])
    }

    @Test("Gender from titles, given names and pronouns")
    func gender() {
        let passage = AnalyzedPassage(Self.bennets + """


        Quentaxl came in. He was tired. Quentaxl sat down; he sighed.

        "Good evening," said Quentaxl.
        """)
        #expect(passage.character(named: "Mr. Bennet")?.gender == .male)
        #expect(passage.character(named: "Mrs. Bennet")?.gender == .female)
        #expect(passage.character(named: "Elizabeth Bennet")?.gender == .female)
        #expect(passage.character(named: "Quentaxl")?.gender == .male)
        #expect((passage.character(named: "Mr. Bennet")?.genderConfidence ?? 0) > 0.8)
    }

    @Test("Age from cues in the name: little, old, Master")
    func age() {
        let passage = AnalyzedPassage("""
        Master Tommy ran in, and Old Mrs. Grey followed him.

        "Look!" cried Master Tommy.

        "Hush, child," said Old Mrs. Grey.
        """)
        #expect(passage.character(named: "Master Tommy")?.ageRange == .child)
        #expect(passage.speakers.contains("Master Tommy"))
    }

    @Test("Capitalised words that are not names do not become characters")
    func noFalseCharacters() {
        let passage = AnalyzedPassage("""
        On Sunday they went to London. God knows why. He said nothing. She laughed. London was grey.

        "Well," said Harriet. "Sunday is dull."

        "It is," said Harriet's friend Emma.
        """)
        let names = passage.analysis.characters.map(\.name)
        #expect(!names.contains { ["Sunday", "London", "God", "He", "She", "Well"].contains($0) })
        #expect(names.contains("Harriet"))
    }

    @Test("Minor speakers named only by their role")
    func roles() {
        let passage = AnalyzedPassage("""
        Matthew went up to the platform.

        "The train has gone," said the old man. "Half an hour ago."

        "Thank you," said Matthew.
        """)
        #expect(passage.speakers == ["the old man", "the old man", "Matthew"])
        #expect(passage.character(named: "the old man")?.ageRange == .elderly)
        #expect(passage.character(named: "the old man")?.gender == .male)
    }

    @Test("Characters are ordered by lines with stable ids, and the result is deterministic")
    func determinism() {
        let first = AnalyzedPassage(Self.bennets).analysis
        let second = AnalyzedPassage(Self.bennets).analysis
        #expect(first == second)
        #expect(first.characters.map(\.id) == (1...first.characters.count).map { "c\($0)" })
        #expect(first.characters.map(\.lines) == first.characters.map(\.lines).sorted(by: >))
        let dialogue = first.segments.filter { $0.kind == .dialogue }
        #expect(first.characters.reduce(0) { $0 + $1.lines } == dialogue.filter { $0.speaker != nil }.count)
    }

    @Test("A title alone names its bearer: 'said Mademoiselle', 'said the general'")
    func bareTitles() {
        let passage = AnalyzedPassage("""
        Mademoiselle Reisz sat at the piano and General Tilney stood by the door.

        "Play something," said the general.

        "I will not," said Mademoiselle. "Not tonight."
        """)
        #expect(passage.speakers == ["General Tilney", "Mademoiselle Reisz", "Mademoiselle Reisz"])
        #expect(passage.character(named: "Mademoiselle Reisz")?.gender == .female)
    }

    @Test("Two names the text joins with 'and' stay two people, even where a slip writes them together")
    func coordinatedNamesStayApart() {
        let passage = AnalyzedPassage("""
        Behind the chair walked Potapitch and Martha Potapitch in his frockcoat.

        Martha and Potapitch waited at the door.

        "How did you do it, madame?" cried Martha.

        "She is in a bad humour," added Potapitch.
        """)
        #expect(passage.speakers == ["Martha", "Potapitch"])
        #expect(passage.character(named: "Martha Potapitch") == nil)
    }
}

@Suite("Analysis: display names")
struct AnalysisDisplayNameTests {
    @Test("The display name is the form with the most name words, not a title and surname")
    func fullestName() {
        let passage = AnalyzedPassage("""
        "My aunt will be down presently, Mr. Nuttel," said the niece.

        "Thank you," said Framton Nuttel. Mr. Nuttel sat down. Mr. Nuttel waited.

        "Hardly a soul," said Framton.
        """)
        #expect(passage.character(named: "Framton")?.name == "Framton Nuttel")
    }

    @Test("A noun written as a name keeps how the narration describes it: 'a Canary', 'the Knave of Hearts'")
    func nounNames() {
        let passage = AnalyzedPassage("""
        Then followed the Knave of Hearts, carrying the crown. The Queen looked at the Knave of Hearts.

        "I didn't write it," said the Knave.

        "Come away, my dears!" and a Canary called out in a trembling voice.

        "It's high time you were all in bed!" said the Canary.

        "Who are you?" said Alice to the Knave. Alice looked at the Knave.
        """)
        #expect(passage.character(named: "Knave")?.aliases.contains("the Knave of Hearts") == true)
        #expect(passage.character(named: "Canary")?.aliases.contains("a Canary") == true)
        #expect(passage.character(named: "Alice")?.aliases.contains { $0.hasPrefix("a ") || $0.contains(" of ") } == false)
    }
}

@Suite("Analysis: one person under several role nouns")
struct AnalysisRoleMergingTests {
    @Test("'The old lady' is the story's one speaking grandmother; 'the child' its one niece")
    func roleMerge() {
        let passage = AnalyzedPassage("""
        "Where is the General?" said the grandmother.

        "He is out," said Polina.

        "Then I shall wait," said the old lady.

        "My aunt will be down presently," said the niece.

        "Thank you," said Polina.

        "You may wonder why the window is open," said the child.
        """)
        #expect(passage.speakers == ["the grandmother", "Polina", "the grandmother", "the niece", "Polina", "the niece"])
        #expect(passage.character(named: "the old lady")?.name == "the grandmother")
    }

    @Test("Two speaking grandmothers keep 'the old lady' apart: she could be either")
    func ambiguousRole() {
        let passage = AnalyzedPassage("""
        "Come here," said the grandmother.

        "No," said his grandmother.

        "Hush," said the old lady.
        """)
        #expect(passage.speakers == ["the grandmother", "his grandmother", "the old lady"])
    }

    @Test("A relative called only 'the niece' takes the one name the others give her in dialogue")
    func roleNamedInDialogue() {
        let passage = AnalyzedPassage("""
        "My aunt will be down presently," said the niece.

        Framton Nuttel bowed. Mrs. Sappleton came into the room.

        "I hope Vera has been amusing you?" said Mrs. Sappleton.

        "Very much," said Framton Nuttel.

        "It is the window," said the niece.
        """)
        #expect(passage.character(named: "Vera")?.name == "the niece")
        #expect(passage.speakers == ["the niece", "Mrs. Sappleton", "Framton Nuttel", "the niece"])
    }

    @Test("Two people named only in the niece's scenes: the niece stays unnamed")
    func roleNamedInDialogueAmbiguous() {
        let passage = AnalyzedPassage("""
        "My aunt will be down presently," said the niece.

        "I hope Vera and Clara have been amusing you?" said Mrs. Sappleton.

        "It is the window," said the niece.
        """)
        #expect(passage.character(named: "Vera") == nil)
        #expect(passage.character(named: "the niece")?.aliases.isEmpty == true)
    }

    @Test("A hyphenated role noun is one role, with or without its hyphen: 'said the station-master', 'the stationmaster'")
    func hyphenatedRole() {
        let passage = AnalyzedPassage("""
        "There was a girl here," said the station-master.

        "Where is she?" asked Matthew.

        "Out on the platform," said the station-master.

        The stationmaster nodded. "She wouldn't go in," said the stationmaster.
        """)
        #expect(passage.speakers == ["the stationmaster", "Matthew", "the stationmaster", "the stationmaster"])
        #expect(passage.character(named: "the stationmaster")?.gender == .male)
    }

    @Test("A hyphenated word in a description is one word: 'asked the game-keeper', 'said the book-stall keeper'")
    func hyphenatedDescriptions() {
        let passage = AnalyzedPassage("""
        A keeper of a book-stall came in. He walked like a game-keeper.

        "I saw it all," said the book-stall keeper.

        "Anything new up in town, Ben?" asked the game-keeper.

        "Not a thing," pursued the half-witted dupe.
        """)
        // A noun the narration never used ("dupe") is an epithet, left to turn-taking.
        #expect(passage.speakers.prefix(2) == ["the book-stall keeper", "the game-keeper"])
        #expect(!passage.speakers.contains { ["the book", "the game", "the half", "the keeper"].contains($0) })
    }

    @Test("No role from a thing or a particle: 'The rain continued fast', 'called the dogs back', 'the clerks came out said', 'said the person addressed'")
    func noThingsOrParticles() {
        let passage = AnalyzedPassage("""
        "It comes on faster and faster!" said Catherine. The rain came down. It was heavy.

        The rain continued fast, though not heavy. "You will not be able to go, my dear."

        "I shouldn't wish to appear ill-mannered, gentlemen," said the third, who had called the dogs back, "Mr. Giles ought to know."

        He hung about outside the office at lunch time, and, as the clerks came out said, "Excuse me, sir, but is your boss married?"

        "You that keep this house," said Sikes to Crackit, "do you mean to sell me?"

        "Go on," said the person addressed, turning away his face. "Quick."
        """)
        #expect(!passage.speakers.contains { ["the rain", "the back", "the out", "the addressed"].contains($0) })
    }

    @Test("A quantifier is no one: 'said the others', 'A few who were left cried'")
    func quantifiersAreNoSpeakers() {
        let passage = AnalyzedPassage("""
        Alice looked at the jury. The others were writing on their slates.

        "Stupid things!" said the others, all at once.

        A few who were left cried, "Hold your tongue!"
        """)
        #expect(!passage.speakers.contains { ["the others", "the few"].contains($0) })
    }

    @Test("'his voice', 'her voice' are the person's; 'The clock struck twelve' and 'the owner of the bottle shouted' name no role")
    func voicesAndNonTags() {
        let passage = AnalyzedPassage("""
        Mr. Wilcox looked up from the letter. Helen was at the window with a bottle.

        "Charles, the good chap"--his voice dropped--"thought I should be lonely."

        Helen looked out. The clock struck twelve, and it still rained. "You will not be able to go."

        "Oh, rash!" Her voice mocked at his prudence.

        "Hey!" the owner of the bottle shouted. "Whose wine is that?"
        """)
        #expect(passage.speakers.prefix(4) == ["Mr. Wilcox", "Mr. Wilcox", "Helen", "Helen"])
        #expect(!passage.speakers.contains { ["his voice", "her voice", "the clock", "the bottle"].contains($0) })
    }

    @Test("A person the narration brings in with an indefinite subject is the scene's other voice: 'An old woman came and opened it'")
    func sceneNewcomer() {
        let passage = AnalyzedPassage("""
        Cynthia laughed and went away through the trees. "Good-bye," said Cynthia.

        I went down to the village, to the little house where the doctor lodged, and tapped on the door.

        An old woman came and opened it.

        "Good afternoon," I said pleasantly. "Is the doctor in?"

        She stared at me.

        "Haven't you heard?"

        "Heard what?"

        "About him."
        """)
        #expect(passage.speakers.suffix(5) == ["I", "I", "the old woman", "I", "the old woman"])
    }

    @Test("A clause joined with ', and' has a subject of its own: '…, and as I went out the porter stopped me'")
    func newcomerInLastClause() {
        let passage = AnalyzedPassage("""
        "They're always late," Cohn said.

        I went to the Ayuntamiento and found the old archivist, and he had renewed my subscriptions. His office had a green baize door, and when I went out I left him sitting among the archives, and as I went out of the building the porter stopped me to brush off my coat.

        "You must have been in a motor-car," he said.
        """)
        #expect(passage.speakers.last == "the porter")
    }

    @Test("A role with a short verb phrase before 'and said' is the speaker: 'when the waiter appeared and said:'")
    func roleCoordinatedVerb() {
        let passage = AnalyzedPassage("""
        "Some dinner at six," said Mr. Harthouse.

        He had been trying in vain, for half an hour, to read the newspaper, when the waiter appeared and said, at once mysteriously and apologetically:

        "Beg your pardon, sir. You're wanted, sir, if you please."
        """)
        #expect(passage.speakers.last == "the waiter")
    }

    @Test("A title may head a role after the verb: 'protested the judge'")
    func titleAsInvertedRole() {
        let passage = AnalyzedPassage("""
        The judge looked down at the witness. "And you'd inherit a good slice of money too, wouldn't you?" said Sir Ernest.

        "Really, Sir Ernest," protested the judge, "these questions are not relevant."
        """)
        #expect(passage.speakers.suffix(2) == ["the judge", "the judge"])
    }

    @Test("A voice the narration then identifies is that person: 'This was a vagrant of sixty-five', 'had come from a modestly, plainly dressed lady'")
    func identifiedVoices() {
        let passage = AnalyzedPassage("""
        Nancy passed on to the next cell, and knocked there.

        "Well!" cried a faint and feeble voice.

        "Is there a little boy here?" inquired Nancy, with a preliminary sob.

        "No," replied the voice; "God forbid."

        This was a vagrant of sixty-five, who was going to prison for not playing the flute.

        I went on to the tables. "Go away now, go away now," a voice whispered to me on my right. The person who had spoken to me was a certain Jew of Frankfurt, a man who had been standing beside me.

        "Yes, for God's sake go," whispered a second voice in my left ear. Glancing around, I perceived that the second voice had come from a modestly, plainly dressed lady of rather less than thirty.

        "You are good and clever," exclaimed my companion his voice now trembling.
        """)
        #expect(passage.speakers.prefix(3) == ["the vagrant", "Nancy", "the vagrant"])
        #expect(passage.character(named: "the vagrant")?.aliases.contains("a vagrant") == true)
        #expect(passage.character(named: "a certain jew of frankfurt") != nil)
        #expect(passage.character(named: "a modestly plainly dressed lady") != nil)
        #expect(passage.speakers.prefix(6).allSatisfy { !$0.hasSuffix("voice") })
        #expect(!passage.speakers.contains("my voice"))
    }

    @Test("Someone a 'who' clause brings in is the other voice: 'He buttonholed a priest who was coming back'")
    func newcomerBroughtInByWho() {
        let passage = AnalyzedPassage("""
        "We ought to eat," Hubert said.

        Finally at a quarter past four we had lunch. Bill had been rather difficult at the last. He buttonholed a priest who was coming back with one of the returning streams of pilgrims.

        "When do us Protestants get a chance to eat, father?" Bill asked.

        "I don't know anything about it. Haven't you got tickets?"
        """)
        #expect(passage.speakers.suffix(2) == ["Bill", "the priest"])
    }

    @Test("He/she is the person a sentence just showed present, by a noun used of people: 'The guard spat in the dust'")
    func presentPersonForPronoun() {
        let passage = AnalyzedPassage("""
        Robert Cohn asked if there were any trout in the stream, and the carabineer said yes, but not many.

        "What's the matter with the old one?" I asked.

        I offered the guard a cigarette. He took it and thanked me.

        "What will he do?" I asked.

        The guard spat in the dust.

        "Oh, he'll just wade across the stream."

        "Do you have much smuggling?"

        "Oh," he said, "they go through."
        """)
        #expect(passage.speakers.suffix(2) == ["the guard", "the guard"])
    }

    @Test("'He was an old man': the narration's own description of a newcomer names the role")
    func newcomerRedescribed() {
        let passage = AnalyzedPassage("""
        Bill and the driver were having a conversation. A man leaned over from the other side of the seat.

        "You're Americans?"

        "Sure," I said.

        "I been there," he said. "Forty years ago."

        He was an old man, as brown as the others, with the stubble of a white beard.

        "How was it?" I asked.

        "Fine," he said.
        """)
        #expect(passage.character(named: "the old man")?.aliases.contains("an old man") == true)
        #expect(passage.speakers.last == "the old man")
    }

    @Test("A description of any noun before a speech verb speaks: '\"…,\" the concierge called'; its gender from the narration's 'The conductor … his'")
    func openClassDescriptionBeforeVerb() {
        let passage = AnalyzedPassage("""
        The concierge was talking down-stairs. The conductor came along the corridor with the tickets.

        "Is that you, Monsieur Barnes?" the concierge called.

        "Yes. It's me," said Jake.

        The conductor put the ten francs in his pocket.

        "Thank you," the dining-car conductor said.
        """)
        #expect(passage.speakers == ["the concierge", "Jake", "the conductor"])
        #expect(passage.character(named: "the conductor")?.gender == .male)
        // A plural is a group, and a noun the narration never used is left to turn-taking.
        let group = AnalyzedPassage("""
        The soldiers stood by the gate.

        "Halt!" the soldiers said.
        """)
        #expect(group.character(named: "the soldiers") == nil)
    }

    @Test("A trait picks a generic 'man' out: 'the hump-backed man' is not the man named last")
    func traitKeepsGenericDescriptionApart() {
        let passage = AnalyzedPassage("""
        Mr. Losberne ran down to the deserted house and began kicking at the door.

        "Halloa?" said a little ugly hump-backed man, opening the door.

        "Robbery is the matter," cried Mr. Losberne.

        "There'll be murder the matter, too," replied the hump-backed man, coolly.

        "What do you mean?" said Mr. Losberne.

        "Just what I say," said the hump-backed man.
        """)
        #expect(passage.speakers == ["the hump-backed man", "Mr. Losberne", "the hump-backed man", "Mr. Losberne", "the hump-backed man"])
        #expect(passage.character(named: "the hump-backed man")?.gender == .male)
    }

    @Test("'the Rabbit … as hard as he could go': a name used with its article is still a clause's subject; an object 'her' before a 'she' is someone else")
    func genderOfNameWithArticle() {
        let passage = AnalyzedPassage("""
        Alice was sitting by the bank when the White Rabbit came past.

        "Oh my ears and whiskers!" said the Rabbit.

        When the Rabbit came near her, she began in a low voice.

        "If you please, sir," said Alice.

        The Rabbit started violently, dropped the white kid gloves, and skurried away as hard as he could go.

        "The Duchess!" said the Rabbit. The Rabbit put on his spectacles.
        """)
        #expect(passage.character(named: "Rabbit")?.gender == .male)
        #expect(passage.character(named: "Alice")?.gender == .female)
    }

    @Test("With nothing in the text to tell, a character is cast as a man, weakly; 'he said' is still resolved on evidence alone")
    func unmarkedGenderIsAWeakGuess() {
        let passage = AnalyzedPassage("""
        The Dodo and Mrs. Weltby sat by the fire.

        "The best way to explain it is to do it," said the Dodo.

        "Do it, then," said Mrs. Weltby.
        """)
        let dodo = passage.character(named: "Dodo")
        #expect(dodo?.gender == .male)
        #expect((dodo?.genderConfidence ?? 1) < 0.5)
        #expect(passage.character(named: "Mrs. Weltby")?.gender == .female)
        #expect((passage.character(named: "Mrs. Weltby")?.genderConfidence ?? 0) > 0.9)
    }

    @Test("Gender from pronouns bound to a clause subject, not the nearest pronoun after the name")
    func genderFromSubjectPronouns() {
        // The nearest pronoun after "Quorvash" is the lady's four times out of five; only
        // "Quorvash bowed and took off his cap" binds a pronoun to him.
        let passage = AnalyzedPassage("""
        Mrs. Ildren came down the stairs with Quorvash behind her.

        "Where is the carriage?" said Mrs. Ildren.

        "At the door, mistress," said Quorvash. Quorvash bowed and took off his cap.

        She commanded Quorvash to carry the shawl for her. Quorvash remained in attendance upon her all day.
        Quorvash told me that she was tired. Quorvash and the maid rushed towards her.

        "Yes, mistress," said Quorvash.
        """)
        #expect(passage.character(named: "Quorvash")?.gender == .male)
        #expect(passage.character(named: "Mrs. Ildren")?.gender == .female)
    }

    @Test("A role noun in apposition gives gender: 'Zelvina, the nursemaid,'")
    func genderFromApposition() {
        let passage = AnalyzedPassage("""
        At this moment Zelvina, the nursemaid, approached the old lady with the children.

        "How are you getting on, Zelvina?" said Mrs. Ildren.

        "Very well, thank you," replied Zelvina.

        Drostan, the old coachman, stood by the horses. "The road is bad," said Drostan.
        """)
        #expect(passage.character(named: "Zelvina")?.gender == .female)
        #expect(passage.character(named: "Drostan")?.gender == .male)
    }

    static let youngManScenes = """
    Mr. Tobrin Vesk came to Highfield in May.

    "I am glad to be here at last," said Mr. Vesk.

    "You are very welcome," said Mrs. Ildren.

    Mr. Vesk sat by the window. Mrs. Ildren poured the tea.

    "This is a pleasure," said the young man.

    "Is it?" said Mrs. Ildren.

    The next day Mr. Vesk walked over again, and Mrs. Ildren met him at the gate.

    "I could not stay away," said the young man.

    "Then come in," said Mrs. Ildren.

    Mr. Vesk looked at the garden. Mrs. Ildren smiled.

    "The roses are finer than ours," said the young man.
    """

    @Test("'the young man' with no 'a young man' before it is the man the narration last named")
    func definiteDescriptionJoinsNamedPerson() {
        let passage = AnalyzedPassage(Self.youngManScenes)
        #expect(passage.character(named: "the young man") == nil)
        #expect(passage.speakers == [
            "Mr. Tobrin Vesk", "Mrs. Ildren", "Mr. Tobrin Vesk", "Mrs. Ildren", "Mr. Tobrin Vesk", "Mrs. Ildren", "Mr. Tobrin Vesk",
        ])
    }

    @Test("'a young man' just before introduces a new person: the role stays")
    func indefiniteDescriptionStaysRole() {
        let passage = AnalyzedPassage(Self.youngManScenes.replacingOccurrences(
            of: "Mr. Vesk sat by the window.", with: "Mr. Vesk sat by the window. A young man came in."))
        #expect(passage.character(named: "the young man") != nil)
    }

    @Test("'the girl' joins the woman last named, skipping the one she talks to")
    func definiteGirlJoinsNamedWoman() {
        let passage = AnalyzedPassage(Self.youngManScenes
            .replacingOccurrences(of: "Mr. Tobrin Vesk", with: "Miss Zelvina Orr")
            .replacingOccurrences(of: "Mr. Vesk", with: "Miss Orr")
            .replacingOccurrences(of: "the young man", with: "the girl")
            .replacingOccurrences(of: "met him", with: "met her"))
        #expect(passage.character(named: "the girl") == nil)
        #expect(passage.speakers == [
            "Miss Zelvina Orr", "Mrs. Ildren", "Miss Zelvina Orr", "Mrs. Ildren", "Miss Zelvina Orr", "Mrs. Ildren", "Miss Zelvina Orr",
        ])
    }

    @Test("'Miss Barry' is the Barry also written 'Miss Josephine Barry', not the more frequent Diana Barry")
    func titledSurnameJoinsTheFullNameWithThatTitle() {
        let passage = AnalyzedPassage("""
        Diana Barry ran in from the garden. Diana Barry laughed at the cat.

        "Come and see," said Diana.

        Her great-aunt, Miss Josephine Barry, lived in town.

        "Well, I hope you've enjoyed yourselves," said Miss Barry.
        """)
        #expect(passage.speakers.last == "Miss Josephine Barry")
    }

    @Test("A namesake son: 'young Ned' and bare 'Ned' are the son of Mr. Thornbury, whose friends call him Ned Thornbury")
    func namesakeSon() {
        let passage = AnalyzedPassage("""
        Mr. Thornbury came home from the mill. Mr. Thornbury was a man of facts, and his friends called him Ned Thornbury. Mr. Thornbury sat down by the fire.

        Young Ned stood by the window. "I am tired of facts," said Ned.

        "Facts are all we have, young Ned," said Mr. Thornbury.

        "Yes, father," said Ned.

        "You will be home by nine, Mr. Ned," said the housekeeper.
        """)
        #expect(passage.speakers == ["young Ned", "Ned Thornbury", "young Ned", "the housekeeper"])
    }

    @Test("'young Oliver' is Oliver Pemberton when nobody of the family is called Mr. Pemberton")
    func youngWithoutNamesake() {
        let passage = AnalyzedPassage("""
        Oliver Pemberton was a small boy in the workhouse. Young Oliver looked up from his bowl, and Oliver Pemberton rose.

        "Please, sir, I want some more," said Oliver.

        The master stared at young Oliver. "More?" said the master.
        """)
        #expect(passage.speakers.first == "Oliver Pemberton")
        #expect(passage.analysis.characters.filter { $0.name.contains("Oliver") }.count == 1)
    }

    @Test("A bare surname is a man of the family, never its Mrs.: 'said Braddocks' beside Mrs. Braddocks")
    func bareSurnameIsNotTheWife() {
        let passage = AnalyzedPassage("""
        Mrs. Braddocks came over to our table. Mrs. Braddocks was a small woman.

        "Hello, you two," said Mrs. Braddocks.

        Braddocks was standing at the bar. "What will you have?" said Braddocks.
        """)
        #expect(passage.speakers == ["Mrs. Braddocks", "Braddocks"])
    }

    @Test("A titled full name is shown without its title, and known with it; a wife under her husband's name keeps hers")
    func untitledFullName() {
        let passage = AnalyzedPassage("""
        Mr. Robert Ferrars bowed. "Very pleasant," said Mr. Robert Ferrars.

        Mrs. John Harcourt smiled. "Indeed," said Mrs. John Harcourt.
        """)
        // As a cast names people (and as Sense and Sensibility's annotators did: recall 0.895 → 0.947).
        #expect(passage.speakers == ["Robert Ferrars", "Mrs. John Harcourt"])
        #expect(passage.character(named: "Robert Ferrars")?.aliases.contains("Mr. Robert Ferrars") == true)
        #expect(passage.character(named: "Mrs. John Harcourt")?.aliases.contains("John Harcourt") == false)
    }

    @Test("A title said once in jest ('Auntie Tibby') does not outweigh the he and his the narration gives him")
    func jestingTitle() {
        let passage = AnalyzedPassage("""
        Tibby rose to his feet. Tibby sighed, and drew his hand over his eyes. Tibby found himself alone. Tibby had never answered his letters.

        "All right, Auntie Tibby," called Helen.

        "I shall go to Oxford," said Tibby.
        """)
        #expect(passage.character(named: "Tibby")?.gender == .male)
    }
}
