import Foundation
import StoryModel
@testable import StoryText
import Testing

/// Mechanisms that carry to novels the rules were not written on (issue 23): open-class tag
/// nouns, names that are also words, titles that pick one of two namesakes, place names.
@Suite("Analysis: books nobody tuned for")
struct AnalysisUnseenNovelTests {
    @Test("After a speech verb any definite noun phrase is the speaker: 'said the surgeon', 'replied the turnkey, with a nod'")
    func invertedRoleOfAnyNoun() {
        let passage = AnalyzedPassage("""
        The surgeon sat by the fire, and the turnkey stood at the door.

        "It's all over, Mrs. Thingummy!" said the surgeon at last.

        "Ah, poor dear, so it is!" said the nurse.

        "Time's up," replied the turnkey, with a shake of his head.

        "The boy is a fool," said the gentleman in the white waistcoat.

        "He will be hung," said the gentleman in a low voice.
        """)
        // A phrase with "the" that picks the person out is part of the description; one that
        // says how the line was spoken ("in a low voice") is not.
        #expect(passage.speakers == ["the surgeon", "the nurse", "the turnkey", "the gentleman in the white waistcoat", "the gentleman"])
    }

    @Test("A quote ending in a comma goes on into its tag: any past-tense verb there is a speech verb")
    func openClassTagVerb() {
        let passage = AnalyzedPassage("""
        "Off with his head," squawked the Hatter. The Hatter was cross.

        "Nonsense," the Dormouse yawned. The Dormouse was sleepy.

        "I shall go," Alice said.
        """)
        #expect(passage.speakers == ["Hatter", "Dormouse", "Alice"])
    }

    @Test("A bare noun the narration has never used is an epithet for someone present: 'admitted the caller' is Framton")
    func epithetForSomeonePresent() {
        let passage = AnalyzedPassage("""
        "Do you know many of the people round here?" asked Vera.

        "Hardly a soul," said Framton.

        "Then you know practically nothing about my aunt?" pursued Vera.

        "Only her name and address," admitted the caller.

        "Here we are, my dear," said the bearer of the white mackintosh, coming in.
        """)
        // The bearer of the white mackintosh, picked out by his coat, is a new person.
        #expect(passage.speakers == ["Vera", "Framton", "Vera", "Framton", "the bearer of the white mackintosh"])
    }

    @Test("A noun phrase that runs on into a clause is no tag subject: 'said the man was right'")
    func invertedRoleMustEndThePhrase() {
        let passage = AnalyzedPassage("""
        "I know it," said Anne.

        "You must go," said the turnkey whispered nothing.
        """)
        // (An open-class noun: "surgeon" is now a listed role noun, read as "the man" is.)
        #expect(!passage.speakers.contains("the turnkey"))
    }

    @Test("A name that is also a word is a name inside a sentence, never at its start: 'said Rose' but 'Rose from her chair'")
    func wordLikeName() {
        let passage = AnalyzedPassage("""
        The sun rose early. The mist rose from the river and the lark rose with it. The bread rose in the oven while the
        tide rose. Prices rose.

        "Good morning," said Rose, coming in.

        "You are early," said Mrs. Maylie.

        "I could not sleep," said Rose. Miss Rose sat by the window.

        Rose from her chair the old woman did, and went out.
        """)
        #expect(passage.speakers == ["Miss Rose", "Mrs. Maylie", "Miss Rose"])
    }

    @Test("A word that is also a common word is a surname after a given name: 'Harvey Stone', though stones lie about")
    func surnameThatIsAWord() {
        let passage = AnalyzedPassage("""
        The stone wall was old and the stone steps were worn; a stone fell. We met Harvey Stone at the cafe, and Harvey
        Stone was broke. He sat on a stone bench beside a stone lion.

        "I haven't eaten in five days," Harvey said.
        """)
        #expect(passage.speakers == ["Harvey Stone"])
    }

    @Test("A nickname has the gender of the name it shortens: Sissy Jupe is a woman, and not her father Signor Jupe")
    func nicknameGender() {
        let passage = AnalyzedPassage("""
        Sissy Jupe stood up. Signor Jupe, her father, had gone away, and Sissy Jupe was alone.

        "Father is a clown," said Sissy.

        "I was the best of clowns," said Signor Jupe.
        """)
        #expect(passage.speakers == ["Sissy Jupe", "Signor Jupe"])
        #expect(passage.character(named: "Sissy Jupe")?.gender == .female)
    }

    @Test("Initials join the name that follows them: 'Mr. E. W. B. Childers' is Mr. Childers")
    func initials() {
        let passage = AnalyzedPassage("""
        "By your leave, gentlemen," said Mr. E. W. B. Childers, glancing round the room. Everyone looked at
        Childers, and Childers bowed.

        "It was," said Mr. Gradgrind.

        "I have not," retorted Mr. Childers.
        """)
        #expect(passage.speakers == ["Mr. E. W. B. Childers", "Mr. Gradgrind", "Mr. E. W. B. Childers"])
    }

    @Test("'Sir John' is the John the text titles Sir; a bare 'John' is the other John")
    func titledNamesake() {
        let passage = AnalyzedPassage("""
        Sir John Middleton was a good-looking man. John Dashwood was his cousin's son, and Lady Middleton
        his wife. Sir John Middleton liked company.

        "You are welcome," said Sir John.

        "Thank you," said John Dashwood. "It is a fine house."

        "It is," said Sir John.

        "John, we must go," said Fanny Dashwood.

        "Yes, my dear," said John.
        """)
        #expect(passage.speakers == ["Sir John Middleton", "John Dashwood", "John Dashwood", "Sir John Middleton", "Fanny Dashwood", "John Dashwood"])
    }

    @Test("A nickname joins its formal name: the narrator called 'Jake' is Jacob Barnes")
    func nicknameOfFormalName() {
        let passage = AnalyzedPassage("""
        "Are you Jacob Barnes?" the clerk asked. "There is a letter for Jacob Barnes."

        "Yes," I said.

        "Hello, Jake," Bill said.

        "Hello," I said.

        "Jake, where are you going?" Bill said.

        "To the cafe," I said.

        "Good night, Jake," Bill said.
        """)
        let narrator = passage.analysis.characters.first { $0.aliases.contains("I") || $0.name == "I" }
        #expect(narrator?.name == "Jacob Barnes", "\(passage.analysis.characters.map(\.name))")
        #expect(narrator.map { $0.aliases.contains("Jake") } == true)
    }

    @Test("A speaker called by title takes the full name the story writes for them: Mr. Bounderby is Josiah Bounderby")
    func fullNameOfTitledSpeaker() {
        let passage = AnalyzedPassage("""
        The banker Josiah Bounderby of Coketown was rich. His wife, Loo Bounderby, was young. Everybody knew Josiah
        Bounderby, and everybody pitied Loo Bounderby.

        "I was born in a ditch," said Mr. Bounderby.

        "I know it," said Mrs. Bounderby.

        "Mrs. Robert Sparsit was here," said Mr. Bounderby. Mrs. Sparsit had gone. Mrs. Robert Sparsit was proud.

        "I was," said Mrs. Sparsit.
        """)
        #expect(passage.speakers == ["Josiah Bounderby", "Loo Bounderby", "Josiah Bounderby", "Mrs. Sparsit"])
    }

    @Test("'Mrs. Charles Wilcox' (her husband a character) is not the Mrs. Wilcox of the older generation")
    func wifeUnderHusbandsName() {
        let passage = AnalyzedPassage("""
        Charles Wilcox came in with his wife. Mrs. Charles Wilcox sat down. Charles Wilcox stood.

        "Where is mother?" said Charles.

        "In the garden," said Mrs. Charles Wilcox.

        "I am here," said Mrs. Wilcox, coming in.

        "Good," said Mrs. Charles Wilcox.
        """)
        #expect(passage.speakers == ["Charles Wilcox", "Mrs. Charles Wilcox", "Mrs. Wilcox", "Mrs. Charles Wilcox"])
    }

    @Test("'Mrs. Charles Wilcox' beside a plain 'Mrs. Wilcox': Charles is the son, so the plain 'Mr. Wilcox' is his father")
    func marriedSon() {
        let passage = AnalyzedPassage("""
        Charles Wilcox came in with his wife. Mrs. Charles Wilcox sat down, and Charles Wilcox stood by the door.
        Mrs. Wilcox smiled at them.

        "Where is father?" said Charles.

        "Here," said Mr. Wilcox, coming in.

        "Good," said Charles.
        """)
        #expect(passage.speakers == ["Charles Wilcox", "Mr. Wilcox", "Charles Wilcox"])
    }

    @Test("'Miss Helen Schlegel' is named so to tell her from the elder Miss Schlegel, her sister Margaret")
    func specifiedSister() {
        let passage = AnalyzedPassage("""
        Margaret Schlegel and Miss Helen Schlegel lived in London. Helen was young; Helen laughed at everything, and
        Helen was kind. Margaret was older. Helen sang.

        "We must go," said Helen.

        "Yes," said Miss Schlegel, the elder.

        "Now?" said Helen.

        "Now," said Margaret.
        """)
        #expect(passage.speakers == ["Miss Helen Schlegel", "Margaret Schlegel", "Miss Helen Schlegel", "Margaret Schlegel"])
    }

    @Test("A description used for two people is, line by line, the person named just before: 'the old gentleman'")
    func descriptionOfSeveralPeople() {
        let passage = AnalyzedPassage("""
        "I shall read tonight," said Mr. Brownlow.

        "Yes, sir," said the maid.

        Mr. Brownlow looked up from his book when Oliver came in.

        "Come here, my boy," said the old gentleman.

        "Yes, sir," said Oliver.

        Mr. Brownlow smiled. "Sit down," said the old gentleman.

        Far away, in a dark room, the Dodger came in. "Well, my dear?" said Fagin.

        "Here I am," said the Dodger.

        Fagin bent over the pan, and he rubbed his hands. "Business first," said the old gentleman.

        "Right you are," said the Dodger.

        Fagin laughed. "Good lad," said the old gentleman.
        """)
        #expect(passage.speakers == ["Mr. Brownlow", "the maid", "Mr. Brownlow", "Oliver", "Mr. Brownlow", "Fagin", "Dodger", "Fagin", "Dodger", "Fagin"])
    }

    @Test("A description of several people is the last of its gender named, however far back, who is not its interlocutor")
    func descriptionOfSeveralPeopleNamedEarlier() {
        let passage = AnalyzedPassage("""
        "I am home at last," said Mr. Brownlow, and he sat down by the fire in the study.

        "Your tea, sir," said the maid.

        "Thank you," said Oliver.

        "It is very cold tonight," said the maid.

        "Very cold," said the old gentleman.

        "Shall I read to you?" said Oliver.

        "Yes, my boy," said the old gentleman.

        Far away, in a dark room, Fagin bent over the pan, and he rubbed his hands. "Well, my dear?" said Fagin.

        "Here I am," said the Dodger.

        "Business first," said the old gentleman.

        "Right you are," said the Dodger.

        "Good lad," said the old gentleman.
        """)
        #expect(passage.speakers == ["Mr. Brownlow", "the maid", "Oliver", "the maid", "Mr. Brownlow", "Oliver", "Mr. Brownlow",
                                     "Fagin", "Dodger", "Fagin", "Dodger", "Fagin"])
    }

    @Test("'The child' is never joined to the adult named before its lines: the sample story's niece keeps hers")
    func sampleStoryNiece() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("examples/the-open-window.txt")
        let passage = AnalyzedPassage(try String(contentsOf: url, encoding: .utf8))
        let niece = try #require(passage.character(named: "the niece"), "\(passage.analysis.characters.map(\.name))")
        #expect(niece.aliases.contains("the child"))
        #expect(passage.analysis.characters.first?.id == niece.id, "the niece speaks the most lines")
    }

    @Test("'said the doctor' is the character the story titles Doctor")
    func doctorRole() {
        let passage = AnalyzedPassage("""
        Doctor Losberne came in and went up to the bed.

        "How is she?" asked Mrs. Maylie.

        "Better," said the doctor. "She will sleep now."
        """)
        #expect(passage.speakers == ["Mrs. Maylie", "Doctor Losberne", "Doctor Losberne"])
    }

    @Test("A word nearly always written before the same capitalised common word is a place: no 'Margaret Howards'")
    func placeNamePart() {
        let passage = AnalyzedPassage("""
        Margaret loved Howards End. They drove to Howards End in May, and Howards End was green. At the end of the lane
        stood the house; in the end they stayed. Margaret Howards End was all she said.

        "It is beautiful," said Margaret.
        """)
        #expect(passage.speakers == ["Margaret"])
        #expect(!passage.analysis.characters.contains { $0.name.contains("Howards") || $0.aliases.contains("Howards") })
    }

    @Test("A place the gazetteer knows is no character, though a turn names it as it would a person: 'Oh! dear, Kingston--are you?'")
    func gazetteerPlacesAreNoCharacters() {
        let kingston = AnalyzedPassage("""
        "I am very much obliged to you for the carriage," resumed Miss Bates.

        He cut her short with,

        "I am going to Kingston. Can I do any thing for you?"

        "Oh! dear, Kingston--are you?--Mrs. Cole was saying the other day she wanted something from Kingston."

        "Mrs. Cole has servants to send. Can I do any thing for you?"

        "No, I thank you. But do come in."
        """)
        // The line after "Kingston--are you?" had gone to Kingston, as the one it calls.
        #expect(!kingston.speakers.contains("Kingston"))
        #expect(!kingston.analysis.characters.contains { $0.name.contains("Kingston") })
        let petersburg = AnalyzedPassage("""
        "I am very much obliged to you for the letter," resumed Polina.

        He cut her short with,

        "I am going to St. Petersburg. Can I do any thing for you?"

        "Oh! dear, St. Petersburg--are you?--the General was saying the other day he wanted something from St. Petersburg."

        "The General has servants to send. Can I do any thing for you?"

        "No, I thank you. But do come in."
        """)
        // "St." is a saint's title, not a person's: "St. Petersburg" is the gazetteer's "saint petersburg".
        #expect(!petersburg.analysis.characters.contains { $0.name.contains("Petersburg") })
        #expect(petersburg.speakers.allSatisfy { $0 == "Polina" })
    }

    @Test("No place, street or author in the cast: 'to Shrewsbury confirmed', 'Boulevard Raspail', 'by Ernest Hemingway'")
    func placesStreetsAndAuthorsAreNoCharacters() {
        let passage = AnalyzedPassage("""
        THE LONG JOURNEY

        by Ernest Hemingway

        "One generation passeth away, and another generation cometh."

        Margaret said nothing when the colleges were named wrongly.

        "Male and female created He them," said Helen; the journey to Shrewsbury confirmed this questionable statement.

        We walked along the Boulevard Raspail to the café, and up the Boulevard Raspail again.

        "Don't be silly," said Helen.

        "Kiss me just once more," Margaret answered.
        """)
        let names = passage.analysis.characters.map(\.name)
        #expect(!names.contains { $0.contains("Shrewsbury") || $0.contains("Raspail") || $0.contains("Boulevard") || $0.contains("Hemingway") }, "\(names)")
        #expect(names.contains("Helen") && names.contains("Margaret"), "\(names)")
        // The author of a byline is no one in the story; a person named so in the story still is.
        let named = AnalyzedPassage("""
        "Who wrote this?" asked Margaret.

        "It was by Ernest," said Helen. "Ernest said so himself."

        "Did he?" Ernest asked.
        """)
        #expect(named.analysis.characters.contains { $0.name == "Ernest" }, "\(named.analysis.characters.map(\.name))")
    }

    @Test("A title with its place is one person: 'the Duke of Omnium' is the Duke, not the Duke and a man called Omnium")
    func titleOfPlaceIsOnePerson() {
        let passage = AnalyzedPassage("""
        The Duke of Omnium arrived the next morning. "I have come for the shooting," said the Duke.

        "Is Lady Catherine here?" he asked.

        "She is in the library," said Mary. Lady Catherine came out at once.

        "Your Grace," said Lady Catherine, "you are early."

        "I am always early," said the Duke of Omnium.
        """)
        let names = passage.analysis.characters.map(\.name)
        #expect(!names.contains("Omnium"), "\(names)")
        #expect(names.filter { $0.contains("Duke") } == ["Duke of Omnium"], "\(names)")
        #expect(passage.speakers.filter { $0.contains("Duke") || $0.contains("Omnium") } == Array(repeating: "Duke of Omnium", count: 3), "\(passage.speakers)")
    }

    @Test("A voice the narration names right after its line is that person: 'A high piping voice called … It was little Tom Smith.'")
    func voiceNamedAfterItsLine() {
        let passage = AnalyzedPassage("""
        "There is one from London," said Mr. Hale, and Mrs. Smith thanked him.

        A high piping voice called from the stairs, "Grandmamma!" It was little Tom Smith.

        "Come down, Tom," said Mrs. Smith.

        "I am coming," said Tom.
        """)
        #expect(passage.speakers == ["Mr. Hale", "Tom Smith", "Mrs. Smith", "Tom Smith"], "\(passage.speakers)")
        #expect(!passage.analysis.characters.contains { $0.name.contains("voice") }, "\(passage.analysis.characters.map(\.name))")
        // Not a name that only starts something else: "It was Tom's hat" names no voice.
        let hat = AnalyzedPassage("""
        "There is one from London," said Mr. Hale, and Mrs. Smith thanked him.

        A high piping voice called from the stairs, "Grandmamma!" It was Tom's hat that fell.

        "Come down, Tom," said Mrs. Smith.

        "I am coming," said Tom.
        """)
        #expect(hat.speakers[1] != "Tom", "\(hat.speakers)")
    }

    @Test("A rank takes a surname: 'Colonel Fitzwilliam' is not Mr. Fitzwilliam Darcy")
    func rankTakesASurname() {
        let passage = AnalyzedPassage("""
        Mr. Fitzwilliam Darcy stood at the window.

        "You are Miss Bennet, I suppose," said Lady Catherine.

        "Aunt, you are too severe," said Mr. Darcy.

        "I am never severe," said Lady Catherine.

        Colonel Fitzwilliam laughed. "She is never anything else," said the Colonel.
        """)
        let darcy = passage.character(named: "Mr. Fitzwilliam Darcy")
        #expect(darcy != nil && !(darcy?.aliases.contains { $0.contains("Colonel") } ?? true), "\(passage.analysis.characters.map { ($0.name, $0.aliases) })")
        #expect(passage.speakers == ["Lady Catherine", "Mr. Fitzwilliam Darcy", "Lady Catherine", "Colonel Fitzwilliam"], "\(passage.speakers)")
    }

    @Test("A place's name the story uses as a person's stays a person: 'said Chester'")
    func placeNamedPersonStays() {
        let passage = AnalyzedPassage("""
        "I am very much obliged to you for the carriage," resumed Miss Bates.

        Chester came in. He cut her short with,

        "I am going to town. Can I do any thing for you?"

        "Oh! dear, Chester--are you?--Mrs. Cole was saying the other day she wanted something from town."

        "Mrs. Cole has servants to send," said Chester. "Can I do any thing for you?"

        "No, I thank you. But do come in."
        """)
        #expect(passage.speakers == ["Miss Bates", "Chester", "Miss Bates", "Chester", "Chester", "Miss Bates"])
        // A town's name before a surname is a given name there: "Sydney Carton", not "Carton".
        let carton = AnalyzedPassage("""
        Then Sydney Carton looked at the fire, and Sydney Carton was silent for a long time.

        "You are tired," said Lucie.

        "I am always tired," replied Carton.
        """)
        #expect(carton.speakers == ["Lucie", "Sydney Carton"])
    }

    @Test("A group speaks as a group: 'cried the crowd' has no gender, and a 'he' is never 'the men'")
    func groupsAreNoPerson() {
        let passage = AnalyzedPassage("""
        Oliver was led out into the yard, where a great crowd had gathered.

        "Hang him!" cried the crowd.

        "Let him go!" shouted the men at the gate.

        Then the old man stood up. "He is only a child," said the old man.

        The men laughed at that. "And what is that to us?" he asked.
        """)
        #expect(passage.speakers == ["the crowd", "the men at the gate", "the old man", "the old man"])
        // The unmarked "he" guess is for one person; a crowd is none.
        #expect(passage.character(named: "the crowd")?.gender == .unknown)
        #expect(passage.character(named: "the men at the gate")?.gender == .male)
    }

    @Test("A name only ever called inside speech is no one present to answer: 'How do you do, Prascovia?' is answered by Polina; 'Grandmamma' is a kin word")
    func calledOnlyNameIsNoSpeaker() {
        let passage = AnalyzedPassage("""
        The grandmother looked at Polina from head to foot.

        "How do you do, Prascovia? What are you doing here?" said the grandmother.

        "Nothing, Grandmamma," Polina replied.

        "I could almost have liked you, Prascovia," said the grandmother, "for you are a nice girl."

        "Thank you, Grandmamma. You are very kind."
        """)
        // The last line had gone to "Prascovia", the name the turn before it calls.
        #expect(passage.speakers == ["the grandmother", "Polina", "the grandmother", "the grandmother", "Polina"])
        #expect(!passage.analysis.characters.contains { ["Prascovia", "Grandmamma"].contains($0.name) })
    }

    @Test("A name summoned with '!' answers though the narration never writes it: 'Pat! Pat! Where are you?'")
    func summonedNameAnswers() {
        let passage = AnalyzedPassage("""
        The Rabbit stood at the window.

        "Pat! Pat! Where are you?" said the Rabbit.

        "Sure then I'm here! Digging for apples, yer honour!"
        """)
        #expect(passage.speakers == ["Rabbit", "Pat"])
    }

    @Test("A noun of nationality is no name: 'Master Frenchman' is the Frenchman addressed, cast as 'the Frenchman'")
    func nationalityIsNoName() {
        let passage = AnalyzedPassage("""
        The General sat at the head of the table, and the Frenchman beside him.

        "Of course, one always learns something everywhere," said the Frenchman.

        "You and I are to have a reckoning later, Master Frenchman," I muttered.

        "To a certain extent that is true," assented the Frenchman with a smile.

        "And what a Russian idea!" added the Frenchman.
        """)
        // The build before this change cast "Master Frenchman", a male child.
        #expect(!passage.analysis.characters.contains { $0.name.contains("Master") || $0.aliases.contains { $0.contains("Master") } })
        #expect(passage.character(named: "the Frenchman")?.lines == 3)
    }

    @Test("Of two barons, 'the Baron' is the one named where he is: not the Baron Rothschild of a remark")
    func roleTitleOfTwoBearers() {
        let rothschild = """
        "What may seem a small sum to a Rothschild may seem a large sum to me," I said. "At length there will \
        issue a Baron Rothschild, and the world will bow to him."
        """
        let filler = String(repeating: "We walked on through the gardens and said little to one another, for the day was hot. ", count: 140)
        let passage = AnalyzedPassage("""
        \(rothschild)

        \(filler)

        "Do you see that fat Baroness?" she cried. "It is the Baroness Burmergelm. She arrived three days ago."

        The German was the Baron Burmergelm, a most important personage. I walked past the Baron with a rude smile.

        "Hein!" growled the Baron as he turned towards me.

        "Hein!" the Baron vociferated again. Everybody stared at the Baron and the Baroness.
        """)
        // The build before this change gave the Baron the aliases "Baron Rothschild", "Rothschild".
        let baron = passage.character(named: "The Baron")
        #expect(baron?.lines == 2)
        #expect(baron?.aliases.contains("Baron Burmergelm") == true)
        #expect(baron?.aliases.contains { $0.contains("Rothschild") } == false)
    }

    @Test("A relative known by role and called by one name beside her lines is that person: the grandmother is Antonida Vassilievna")
    func roleCalledByName() {
        let passage = AnalyzedPassage("""
        On the verandah sat the grandmother, seventy-five years of age, Antonida Vassilievna, landowner of Moscow.

        "So you are here too, my fine fellow?" said the grandmother.

        "Pardon me, Antonida Vassilievna," I replied. "I am merely astonished to see you."

        "Why should you be astonished? I just got into my chair, and came. Have you been out for a walk?"

        "Yes, I thank you, Antonida Vassilievna."

        "Well, it is quite nice here," said the grandmother as she looked about her.
        """)
        // The build before this change cast "Antonida Vassilievna" apart, with the line answering the first call.
        #expect(!passage.analysis.characters.contains { $0.name == "Antonida Vassilievna" })
        #expect(passage.character(named: "the grandmother")?.aliases.contains("Antonida Vassilievna") == true)
        #expect(passage.speakers.filter { $0 == "the grandmother" }.count == 3)
    }

    @Test("A title that is no abbreviation ends at its full stop, and one owning something names no one: 'the General. Meanwhile', 'the General's Croquet-Ground'")
    func titleEndsAtFullStop() {
        let passage = AnalyzedPassage("""
        He had read the memoirs of General Perovski and of General Zagorianski.

        "Let us calculate," said the General.

        I bowed to the General. Meanwhile the others had gone in. We crossed the General's Croquet-Ground.

        "You must not be offended," said the General.

        "Good day, Mr. Astley," I said.
        """)
        // Without the full stop rule the General was aliased "General. Meanwhile" (two Generals
        // are named, so the title waits for every name and takes the nearest).
        #expect(!passage.analysis.characters.contains { ($0.aliases + [$0.name]).contains { $0.contains("Meanwhile") || $0.contains("Croquet") } })
        #expect(passage.character(named: "The General")?.lines == 2)
    }

    @Test("'The old gentleman' is never the boy named before his lines")
    func descriptionKeepsItsAge() {
        let passage = AnalyzedPassage("""
        "Please, sir, I am hungry," said Oliver.

        "Hold your tongue," said Mr. Bumble.

        Mr. Bumble led Master Oliver into the room. Oliver, a little boy of nine, trembled from head to foot.

        "Is this the boy?" said the old gentleman.

        "This is him, sir," replied Mr. Bumble.

        Oliver looked up. "I suppose he's fond of chimney-sweeping?" said the old gentleman.

        "He doats on it, your worship," replied Mr. Bumble.

        Oliver said nothing. "And he will be a sweep, will he?" inquired the old gentleman.

        "If we was to bind him to any other trade, he'd run away," said Mr. Bumble.
        """)
        // The build before this change joined the old gentleman to the boy (Master Oliver, 4 lines).
        #expect(passage.character(named: "the old gentleman")?.lines == 3)
        #expect(passage.character(named: "Master Oliver")?.lines == 1)
    }

    @Test("A surname with a particle in lower case is one name: 'Mr. van der Berg', 'Lady Catherine de Bourgh'")
    func lowerCaseParticle() {
        let passage = AnalyzedPassage("""
        Lady Catherine de Bourgh was a tall, large woman, with strongly-marked features.

        "You have a very small park here," said Lady Catherine, looking round.

        "It is much smaller than Rosings, ma'am," said Elizabeth.

        Mr. van der Berg came in with his cousin Miss Hendrika van der Berg.

        "Good evening," said Mr. van der Berg.

        "We are late," said Miss van der Berg.
        """)
        // Before, "Mr. van der Berg" was no name at all: his line went to Elizabeth and his
        // cousin's to Lady Catherine.
        #expect(passage.speakers.first?.hasPrefix("Lady Catherine") == true)
        #expect(passage.speakers.dropFirst() == ["Elizabeth", "Mr. van der Berg", "Miss Hendrika van der Berg"])
        #expect(passage.analysis.characters.contains { $0.name == "Lady Catherine de Bourgh" || $0.aliases.contains("Lady Catherine de Bourgh") })
    }

    @Test("'Madame de Villefort' is not 'Mademoiselle de Villefort', as Mrs. X is not Miss X")
    func madameIsNotMademoiselle() {
        let passage = AnalyzedPassage("""
        Mademoiselle Valentine de Villefort came in from the garden.

        "You are late," said Madame de Villefort.

        "I was with my grandfather," said Mademoiselle de Villefort.

        "He is old and tiresome," said Madame de Villefort.
        """)
        #expect(passage.speakers == ["Madame de Villefort", "Mademoiselle Valentine de Villefort", "Madame de Villefort"])
    }

    @Test("The narration says who a role is: 'Mr. Gibson was the doctor', 'Theodosia, the nursemaid,'")
    func statedIdentity() {
        let passage = AnalyzedPassage("""
        Mr. Gibson was the doctor of Hollingford. Theodosia, the nursemaid, brought in the children.

        "Papa, may I go to the Towers?" asked Molly.

        "If Lady Cumnor will have you," said the doctor.

        "The children are tired, sir," said the nursemaid.

        "Then put them to bed," said Mr. Gibson.

        "Good night, sir," said Theodosia.

        On their way to the magistrate, Mr. Bumble scolded Oliver.

        "Who is this?" said the magistrate.
        """)
        // The magistrate is only where Mr. Bumble went, not who he is.
        #expect(passage.speakers == ["Molly", "Mr. Gibson", "Theodosia", "Mr. Gibson", "Theodosia", "the magistrate"])
    }

    @Test("A tag whose name fits two people says so: 'said Mr. Bertram' beside Tom and Edmund Bertram is sent to the model")
    func ambiguousNameIsUnsure() {
        let passage = AnalyzedPassage("""
        Tom Bertram was the elder son, and Edmund Bertram the younger. Tom was idle and gay; Edmund was grave.

        "I am going to the races," said Tom. "Will you come?"

        "No," said Edmund. "I have my books."

        "You are a dull fellow," said Mr. Bertram, laughing, for so the eldest son was called.

        "Perhaps I am," said Edmund, and smiled.
        """)
        let line = passage.quotes.firstIndex(of: "\"You are a dull fellow,\"")!
        // The likelier Bertram keeps the line, below hybrid's threshold; the lines their own
        // names tag stay above it.
        #expect(["Tom Bertram", "Edmund Bertram"].contains(passage.speakers[line]))
        #expect(passage.confidences[line] <= 0.5)
        #expect(passage.confidences.enumerated().filter { $0.offset != line }.allSatisfy { $0.element >= 0.85 }) // hybrid's default threshold (LabellingOptions)
    }

    @Test("The subject of a quote's own lead-in speaks its pronoun tag, not the one it looks at: 'Mr. Syme looked at Mr. Bull. \"…,\" he said'")
    func leadInSubjectSpeaks() {
        let passage = AnalyzedPassage("""
        Mr. Syme and Mr. Bull sat by the fire in the little room.

        "It is late," said Mr. Bull.

        "It is," said Mr. Syme.

        Mr. Syme looked at Mr. Bull across the table. "You are very old, sir," he said.

        "Older than you think," said Mr. Bull.
        """)
        // The build before gave the line to Mr. Bull, the last man named.
        #expect(passage.speakers == ["Mr. Bull", "Mr. Syme", "Mr. Syme", "Mr. Bull"])
    }

    @Test("A relative's title takes a surname too: 'Uncle Pumblechook' is the narration's 'Mr. Pumblechook'")
    func kinTitleWithSurname() {
        let passage = AnalyzedPassage("""
        Uncle Pumblechook was a large hard-breathing middle-aged slow man, with a mouth like a fish.

        "Boy, be grateful," said Uncle Pumblechook.

        "To whom, sir?" said Pip.

        "To them which brought you up by hand," said Mr. Pumblechook. "Be for ever grateful, boy."

        "I am, sir," said Pip.
        """)
        // Before, Mr. Pumblechook was a second man beside his uncle's title.
        #expect(passage.speakers == ["Uncle Pumblechook", "Pip", "Uncle Pumblechook", "Uncle Pumblechook", "Pip"])
        #expect(passage.analysis.characters.count == 2)
    }

    @Test("A capitalised role named in passing is that person: 'the Secretary, Mr. Rokesmith, came in'")
    func capitalisedRoleStated() {
        let passage = AnalyzedPassage("""
        The door opened and the Secretary, Mr. Rokesmith, came in. He was a dark young man, quiet and grave.

        "You sent for me, sir?" said the Secretary.

        "I did," said Mr. Boffin. "Sit down."

        "What shall I write?" asked the Secretary.

        "Write to the lawyer," said Mr. Boffin.
        """)
        // Before, "Secretary" was a character of its own, and Mr. Rokesmith spoke no line.
        #expect(passage.speakers == ["Mr. Rokesmith", "Mr. Boffin", "Mr. Boffin", "Mr. Rokesmith", "Mr. Boffin"])
    }

    @Test("A wife called by her husband's given name is not him: 'Mrs. Joe' and Joe are two people")
    func wifeByHusbandsGivenName() {
        let passage = AnalyzedPassage("""
        "Pip," said Joe, "old chap, you're a-going to see Miss Havisham."

        "Am I, Joe?" I asked.

        "You are," said Mrs. Joe. "And mind you behave."

        "I will," I said.

        "Mind you do, Pip," said Joe.
        """)
        // Before, "Joe" was taken for her name, and his lines were hers.
        #expect(passage.speakers == ["Joe", "Joe", "I", "Mrs. Joe", "Mrs. Joe", "I", "Joe"])
        #expect(passage.character(named: "Joe")?.gender == .male)
    }

    @Test("A man the text titles Sir is never Mr. of his surname: 'Mr. Elliot' is Sir Walter Elliot's heir")
    func baronetIsNoMister() {
        let passage = AnalyzedPassage("""
        Sir Walter Elliot, of Kellynch Hall, was vain of his person.

        "He is coming to Bath," said Sir Walter. "Mr. Elliot is coming at last."

        "I shall be glad to see him," said Anne Elliot.

        Mr. Elliot arrived the next morning. "Cousin Anne," said Mr. Elliot, bowing, "I have long wished to meet you."

        "You are very kind," said Anne.
        """)
        // Before, Mr. Elliot was an alias of Sir Walter and his lines Sir Walter's.
        #expect(passage.speakers == ["Sir Walter Elliot", "Sir Walter Elliot", "Anne Elliot", "Mr. Elliot", "Mr. Elliot", "Anne Elliot"])
        #expect(passage.character(named: "Sir Walter Elliot")?.aliases.contains("Mr. Elliot") == false)
    }

    @Test("Two sisters titled by given name ('Miss Marianne', 'Miss Margaret'): the plain 'Miss Dashwood' is neither")
    func eldestSister() {
        let passage = AnalyzedPassage("""
        Marianne Dashwood came in from the garden.

        "Is Miss Marianne within?" asked the servant. "And Miss Margaret?"

        "We are both here," said Marianne.

        "Miss Margaret is upstairs," said the servant.

        "Then I shall fetch her," said Miss Dashwood, rising. "Stay here, Marianne."

        "Thank you," said Miss Marianne.
        """)
        // Before, Miss Dashwood was Marianne, whose lines she then spoke.
        #expect(passage.character(named: "Marianne Dashwood")?.aliases.contains("Miss Dashwood") == false)
        #expect(passage.speakers[4] == "Miss Dashwood")
    }

    @Test("'returned her sister': the one of her family who is in the scene, though none is titled Miss")
    func kinByFamilyName() {
        let passage = AnalyzedPassage("""
        Elinor Dashwood sat in the little parlour at Barton. Marianne Dashwood came in from the garden.

        "It never rains when I wish to walk," said Marianne.

        "That is not true," was Elinor's answer.

        Marianne laughed. "You are always so sensible."

        "Somebody must be," returned her sister.
        """)
        // Before, "her sister" was a character of her own, a relative no one else is.
        #expect(passage.speakers.last == "Elinor Dashwood")
        #expect(passage.character(named: "her sister") == nil)
    }

    @Test("'said his father' is the one the story titles Father; 'her aunt' the one it titles Aunt")
    func kinByTitle() {
        let passage = AnalyzedPassage("""
        Margaret and Helen were staying with Aunt Juley at Swanage.

        "You will catch cold," said her aunt, as Margaret went out.

        "I never catch cold," said Margaret.

        "Girls always say so," said Aunt Juley.
        """)
        // Before, "her aunt" was a character apart from Aunt Juley.
        #expect(passage.speakers == ["Aunt Juley", "Margaret", "Aunt Juley"])
    }

    @Test("'said her father' when nothing tells her surname: the man the scene has in view, as a 'he' would be, and no surer")
    func kinInView() {
        let passage = AnalyzedPassage("""
        Louisa sat near the table. Mr. Gradgrind looked at her over his papers, and cleared his throat.

        "My dear Louisa," said her father, "I prepared you last night to give me your attention."

        "Yes, father," said Louisa.
        """)
        // Before, "her father" was a character no one else in the story is.
        #expect(passage.speakers == ["Mr. Gradgrind", "Mr. Gradgrind", "Louisa"])
        #expect(passage.confidences[0] < passage.confidences[2])
    }

    @Test("'said her mother' far from any name: the mother the book's other such tags name")
    func kinByTheBooksOtherTags() {
        let passage = AnalyzedPassage("""
        Mrs. Dashwood sat by the fire. Marianne Dashwood was reading by the window.

        "Shall we go to Barton?" asked Marianne.

        "If you wish it," said her mother.

        "I do wish it," said Marianne.

        "Then we shall," replied her mother.

        "The cottage is small, they say, and the rooms are low, and the garden is no more than a strip of grass before the door; but the hills are beautiful, and the walks along the valley go on for miles and miles."

        "Small rooms are warm rooms, and a strip of grass is enough for a bench; we shall sit there in the evenings and watch the light go down behind the hills, and be very happy, I am sure of it."

        "And the neighbours? I have heard that the family at the park dine every day with a great many people, and that the lady of the house is never still for a moment."

        "Then we shall dine with them now and then, and come home early, and nobody will think the worse of us for it; a quiet family is not a rude one, whatever the park may think."

        "I hope you are right. I could not bear to be laughed at by people who talk of nothing but the weather and the roads and who married whom, from morning to night."

        "You will bear it very well, my love, as you bear everything, with a great deal of complaint beforehand and none at all afterwards, when the thing itself is over."

        "Perhaps I do. But the dentist is a small thing, and leaving Norland is not; every tree there knows me, and I shall miss the walks by the river more than I can say."

        "Trees do not know anybody, my dear, though I grant you they are very pleasant to look at; and there are trees at Barton too, and a river, and a great many walks."

        "Is that what you think of me? That I complain beforehand and forget it afterwards, like a child who cries at the dentist's door and laughs on the way home?"

        "It is what I know of you, and I love you for it," said her mother.
        """)
        // Before, the last line went to "her mother", a character apart from Mrs. Dashwood.
        #expect(passage.speakers.last == "Mrs. Dashwood")
        #expect(passage.character(named: "her mother") == nil)
    }

    @Test("A first-person narrator the others call by a surname is cast as a named character is: Watson is a man")
    func namedNarratorGender() {
        let passage = AnalyzedPassage("""
        Sherlock Holmes took his bottle from the corner of the mantelpiece. I watched him in silence.

        "Which is it to-day?" I asked. "Morphine or cocaine?"

        "It is cocaine," he said. "Would you care to try it, Watson?"

        "No, indeed," I answered brusquely.

        He smiled at my vehemence. "Perhaps you are right, Watson," he said.

        "But consider!" said I earnestly. "Count the cost!"

        "Give me problems, my dear Watson," said Holmes.

        "Then you have a case?" I asked.
        """)
        // Before, the narrator was named Watson but kept no gender, so casting could give him any voice.
        let narrator = passage.character(named: "Watson")
        #expect(narrator?.aliases.contains("I") == true)
        #expect(narrator?.gender == .male)
    }

    @Test("A son called by the nickname of his father's name is not the father the text titles Sir: Tom Bertram, Sir Thomas Bertram")
    func knightedFatherNamesake() {
        let passage = AnalyzedPassage("""
        Sir Thomas Bertram had two sons. Tom Bertram was the elder; Edmund Bertram was the younger.

        "We shall act a play," said Tom. "Lovers' Vows."

        "I do not like it," said Edmund. "My father would not like it."

        Sir Thomas came home unexpectedly. "What is all this?" said Sir Thomas.

        "A play, sir," said Tom Bertram.
        """)
        // Before, "Tom Bertram" was keyed as Thomas Bertram: the son's lines were his father's.
        #expect(passage.speakers == ["Tom Bertram", "Tom Bertram", "Edmund Bertram", "Edmund Bertram", "Sir Thomas Bertram", "Tom Bertram"])
        #expect(passage.character(named: "Sir Thomas Bertram")?.aliases.contains("Tom") == false)
    }

    @Test("'Lady Lucas' with a surname is Sir William's wife, as Mrs. X is: not her daughter Maria Lucas, and no 'Lucas'")
    func ladyWithSurname() {
        let passage = AnalyzedPassage("""
        Sir William Lucas had been in trade at Meryton. Lady Lucas was a very good kind of woman. Their eldest daughter, Charlotte Lucas, was a sensible young woman of twenty-seven.

        "You began the evening well, Charlotte," said Mrs. Bennet. "You were Mr. Bingley's first choice."

        "Yes, but he seemed to like his second better," said Miss Lucas.

        "Oh! you mean Jane," said Mrs. Bennet.

        "My dear Mrs. Bennet," said Sir William, "the young people will settle it."

        "That they will," said Lady Lucas. "Maria, come here."

        "Yes, mama," said Maria Lucas.

        "Lucas, you are always so easy," said Mrs. Bennet.

        "I try to be," said Sir William Lucas.
        """)
        // Before, Lady Lucas was an alias of her daughter Maria, and spoke her lines; and the bare
        // "Lucas" said to Sir William was hers.
        #expect(Array(passage.speakers[6...8]) == ["Lady Lucas", "Lady Lucas", "Maria Lucas"])
        #expect(passage.character(named: "Maria Lucas")?.aliases.contains("Lady Lucas") == false)
        #expect(passage.character(named: "Sir William Lucas")?.aliases.contains("Lucas") == true)
    }

    @Test("'said the former', 'said the latter': the earlier and the later of the last two people named")
    func formerAndLatter() {
        let passage = AnalyzedPassage("""
        Mr. Weston and Mr. Knightley came in together.

        "A fine day," said the former.

        "Very fine," said the latter. "We walked from Donwell."

        Harriet and Mrs. Goddard followed them in.

        "How do you do?" said the latter to Emma.
        """)
        // Before, no tag was read in "the former" or "the latter": Knightley, Knightley, Weston, Weston.
        #expect(passage.speakers == ["Mr. Weston", "Mr. Knightley", "Mr. Knightley", "Mrs. Goddard"])
    }

    @Test("'asked the astonished father' is the father the scene has named, as 'the old gentleman' is")
    func definiteKinDescription() {
        let passage = AnalyzedPassage("""
        Mr. Gradgrind found Louisa and Tom at the circus, peeping through a hole in the boards.

        "In this degraded position! I am amazed," cried Mr. Gradgrind.

        "I was tired, father," said Louisa.

        "Tired? Of what?" asked the astonished father.

        "I don't know of what. Of everything, I think."

        "Not another word," returned the father. "You are childish."

        Louisa looked at Tom. "It was my fault," she said.

        "Your fault!" said the father. "Go home, both of you."
        """)
        // Before, "the father" was a character apart from Mr. Gradgrind.
        #expect(passage.speakers == ["Mr. Gradgrind", "Louisa", "Mr. Gradgrind", "Louisa", "Mr. Gradgrind", "Mr. Gradgrind", "Louisa", "Mr. Gradgrind", "Mr. Gradgrind"])
        #expect(passage.character(named: "the father") == nil)
    }

    @Test("Two people of one given name: a bare 'Jane' just after 'Jane Fairfax' is named is she, not Jane Bennet")
    func namesakesByPlace() {
        let passage = AnalyzedPassage("""
        Jane Bennet was the eldest of the Bennet girls. She walked with Elizabeth every morning.

        "It is a fine day," said Jane.

        "It is," said Elizabeth. "Jane, you are always cheerful."

        "I try to be," said Jane.

        "Shall we call on Charlotte?" said Elizabeth.

        "Yes, let us," said Jane.

        Many miles away, at Highbury, Jane Fairfax sat with her aunt, Miss Bates.

        "You are tired, Jane," said Miss Bates.

        "A little," said Jane. "The journey was long."

        "Then you must rest," said Miss Bates.

        "I will," said Jane.
        """)
        // Before, every "Jane" was Jane Bennet, and Jane Fairfax spoke no line.
        #expect(passage.speakers == ["Jane Bennet", "Elizabeth", "Elizabeth", "Jane Bennet", "Elizabeth", "Jane Bennet",
                                     "Miss Bates", "Jane Fairfax", "Jane Fairfax", "Miss Bates", "Jane Fairfax"])
    }

    @Test("'You are late, Lizzy,' said Mrs. Bennet: a Mrs. who talks to the daughter is not she, though no Miss Bennet is written")
    func motherTalksWithDaughter() {
        let passage = AnalyzedPassage("""
        Elizabeth Bennet came down to breakfast late.

        "You are late, Lizzy," said Mrs. Bennet.

        "I slept badly, mama," said Elizabeth.

        "Nerves," said Mrs. Bennet. "You have my nerves."

        "Perhaps," said Elizabeth.
        """)
        // Before, Mrs. Bennet was an alias of Elizabeth Bennet and spoke every line.
        #expect(passage.speakers == ["Mrs. Bennet", "Elizabeth Bennet", "Mrs. Bennet", "Mrs. Bennet", "Elizabeth Bennet"])
        #expect(passage.character(named: "Elizabeth Bennet")?.aliases.contains("Mrs. Bennet") == false)
    }

    @Test("A modal verb that is also a name is she where the text uses it as a name: 'said May', 'May Welland sat'")
    func nameThatIsAModal() {
        let passage = AnalyzedPassage("""
        May Welland sat beside her cousin in the box. Archer came in; he may have been late.

        "Ellen has been away so long," said May. "You may call on her tomorrow."

        "I will," said Archer. "May I bring you?"

        "Of course," said May.

        It was the first of May, and the opera had begun. Archer watched her.
        """)
        // Before, "May" was never a name: her lines went to no one or to Archer, and no May was cast.
        #expect(passage.speakers == ["May Welland", "May Welland", "Archer", "Archer", "May Welland"])
        #expect(passage.character(named: "May Welland")?.aliases.contains("May") == true)
    }

    @Test("'Mrs. Newland Archer' is his wife, though no list knows the name: not Newland Archer, nor his mother Mrs. Archer")
    func wifeByHusbandsUnlistedName() {
        let passage = AnalyzedPassage("""
        Newland Archer came home late. His mother, Mrs. Archer, was waiting in the hall.

        "You are late, Newland," said Mrs. Archer.

        "I was at the club," said Archer.

        The next spring Mrs. Newland Archer gave her first dinner.

        "I shall ask the van der Luydens," said Mrs. Newland Archer.

        "Do," said Newland Archer.
        """)
        // Before, the wife joined her husband's name: one woman spoke his lines and her own.
        #expect(passage.speakers == ["Mrs. Archer", "Newland Archer", "Mrs. Newland Archer", "Newland Archer"])
        #expect(passage.character(named: "Newland Archer")?.gender == .male)
        #expect(passage.character(named: "Newland Archer")?.aliases.contains("Mrs. Archer") == false)
    }

    @Test("A day the book names a person by is a name where speech verbs stand beside it: 'said Sunday', not 'on Sunday morning'")
    func dayAsName() {
        let passage = AnalyzedPassage("""
        Syme sat at the long table on the balcony. At the head of it sat the President.

        "Comrades," said Sunday, "we have a traitor among us."

        "Who is it?" asked Gregory.

        "Let him answer," said Sunday. "He has been quiet all evening."

        "I have nothing to say," said Syme.

        On Sunday morning the council had met; on Monday it would meet again.

        "You will say it by Saturday," said Sunday, and laughed.
        """)
        // Before, a day was never a name, and Sunday's lines went to Syme and Gregory.
        #expect(passage.speakers == ["Sunday", "Sunday", "Gregory", "Sunday", "Sunday", "Syme", "Sunday"])
        #expect(passage.character(named: "Monday") == nil)
    }

    @Test("A speech verb's particle comes before the subject: 'called out Pooh', 'broke in Piglet', 'put in Rabbit'")
    func particleBeforeSubject() {
        let passage = AnalyzedPassage("""
        Pooh and Piglet stood at the door of Rabbit's house.

        "Is anybody at home?" called out Pooh.

        "Nobody at all," cried out Piglet.

        "Then we go in," put in Pooh.

        "Wait for me," broke in Piglet.

        "Come along," went on Pooh, "we have no time."
        """)
        // Before, no subject was found after a particle: no one was cast and no line had a speaker.
        #expect(passage.speakers == ["Pooh", "Piglet", "Pooh", "Piglet", "Pooh", "Pooh"])
    }

    @Test("Older tags: 'quoth Tom', and 'whispered the voice of Mr. Hale' is Mr. Hale")
    func quothAndVoiceOf() {
        let passage = AnalyzedPassage("""
        Tom Brown and Mary Hale sat by the fire with old Mr. Hale.

        "It is late," quoth Tom.

        "Not so late," said Mary.

        "Hush," whispered the voice of Mr. Hale.

        "Good night," said Tom.
        """)
        // Before, "quoth" was no speech verb, and "the voice" was a character of its own.
        #expect(passage.speakers == ["Tom Brown", "Mary Hale", "Mr. Hale", "Tom Brown"])
        #expect(passage.character(named: "the voice") == nil)
    }

    @Test("Police and naval ranks are titles: 'Inspector Athelney Jones' is 'Athelney Jones', 'the Admiral' is Admiral Croft")
    func policeAndNavalRanks() {
        let passage = AnalyzedPassage("""
        Inspector Athelney Jones came up the stairs with Holmes.

        "Well, Mr. Holmes," said Inspector Jones, "here we are again."

        "Here we are," said Holmes.

        "Then we wait," said Athelney Jones.

        At Kellynch Admiral Croft and his wife walked in the shrubbery.

        "A fine place," said the Admiral. "Sophy, do you not think so?"

        "Very fine," said Mrs. Croft.
        """)
        // Before, "Inspector" was a given name, so "Athelney Jones" was a second man; "Admiral"
        // was too, and Admiral Croft one woman with Mrs. Croft.
        #expect(passage.speakers == ["Inspector Athelney Jones", "Inspector Athelney Jones", "Mr. Holmes", "Inspector Athelney Jones",
                                     "Admiral Croft", "Admiral Croft", "Mrs. Croft"])
        #expect(passage.character(named: "Admiral Croft")?.gender == .male)
    }

    @Test("A hyphen joins a name's parts: 'Mary-Ann' is not Mary, 'Mrs. Lloyd-Jones' not a Mrs. Lloyd")
    func hyphenatedNames() {
        let passage = AnalyzedPassage("""
        Mary Rivers sat by the window. Mary-Ann Price came in with Mr. Lloyd-Jones.

        "You are late," said Mary.

        "So was I," said Mary-Ann.

        "We all were," said Mr. Lloyd-Jones.

        "Then sit down," said Mary Rivers.
        """)
        // Before, "Mary-Ann" was read as "Mary" and "Ann", and her line was Mary Rivers's.
        #expect(passage.speakers == ["Mary Rivers", "Mary-Ann Price", "Mr. Lloyd-Jones", "Mary Rivers"])
        #expect(passage.character(named: "Mary-Ann Price")?.gender == .female)
    }

    @Test("A sentence's subject after an opening adverb speaks its pronoun tag: 'Later Mr. Eager spoke of her. \"…,\" he said'")
    func subjectAfterOpeningAdverb() {
        let passage = AnalyzedPassage("""
        Lucy sat with her cousin Charlotte in the pension. Mr. Beebe came over to their table.

        "Good evening, Miss Honeychurch," said Mr. Beebe.

        "Good evening," said Lucy.

        Later Mr. Eager spoke of her. "Miss Honeychurch plays beautifully," he said.

        "She does," said Charlotte.
        """)
        // Before, "Later" hid the sentence's subject, and the line went to Mr. Beebe.
        #expect(passage.speakers == ["Mr. Beebe", "Lucy", "Mr. Eager", "Charlotte"])
    }

    @Test("A place's noun is a surname after a title: 'Mrs. Hall', 'Mr. Hill', and then 'said Hall'; 'Netherfield Park' stays a place")
    func placeNounSurnames() {
        let passage = AnalyzedPassage("""
        Mrs. Hall was the landlady of the Coach and Horses. Mr. Hall, her husband, came in from the yard. The stranger sat in the parlour.

        "Can I take your hat, sir?" said Mrs. Hall.

        "No," said the stranger.

        "He's a queer one," said Hall, when she came back to the bar. "He came from Netherfield Park."

        "You mind your own business, Hall," said Mrs. Hall.

        Mr. Hill the grocer came in with a parcel from Netherfield Park and Kellynch Hall.

        "Good evening, Mrs. Hall," said Mr. Hill.
        """)
        // Before, "Hall" and "Hill" were never names: no Hall or Hill was cast and the stranger spoke every line.
        #expect(passage.speakers == ["Mrs. Hall", "the stranger", "Mr. Hall", "Mr. Hall", "Mrs. Hall", "Mr. Hill"])
        #expect(passage.character(named: "Netherfield Park") == nil)
        #expect(passage.character(named: "Kellynch Hall") == nil)
    }

    @Test("A line opening with 'By' near the start of a story is speech, not the author's byline: '\"By whom?\" asked Dr. Bull'")
    func quoteOpeningWithByIsNoByline() {
        let passage = AnalyzedPassage("""
        Syme sat with Dr. Bull and the Marquis.

        "You are late," said the Marquis.

        "I was detained," said Syme.

        "By whom?" asked Dr. Bull.

        "By the police," said Syme.
        """)
        // Before, a paragraph opening "By" in the first lines was taken for a byline, so no
        // name in it counted: Dr. Bull's line went to the Marquis.
        #expect(passage.speakers == ["The Marquis", "Syme", "Dr. Bull", "Syme"])
    }

    @Test("A name that is also a word speaks its tag at the head of one: '\"That's true,\" Small answered'")
    func wordLikeNameBeforeSpeechVerb() {
        let passage = AnalyzedPassage("""
        Jonathan Small sat in the cabin with his hands in irons. He was a small man with small eyes.

        "I have nothing to say," said Small.

        "Then I shall say it for you," said Holmes. "You came from the islands."

        "He did," said Jones.

        "That's true," Small answered. "I came with Tonga."

        "And Tonga is dead," said Holmes.
        """)
        // Before, "Small" at the head of a sentence was the adjective, and his answer went to Holmes.
        #expect(passage.speakers == ["Jonathan Small", "Holmes", "Holmes", "Jones", "Jonathan Small", "Jonathan Small", "Holmes"])
    }

    @Test("After '?' or '!' a lower-case past-tense verb is the tag's, listed or not: '\"Home!\" bellowed Tom'")
    func unlistedVerbAfterExclamation() {
        let passage = AnalyzedPassage("""
        Tom and Mary stood at the gate, and old Mr. Hale came down the path.

        "What!" hooted Tom.

        "Nothing!" trilled Mary.

        "Nothing?" wheezed Mr. Hale.

        "Then go home!" bellowed Tom.

        "Home?" snorted Mr. Hale.
        """)
        // Before, only a quote ending in a comma went on into an unlisted verb: Tom was never cast.
        #expect(passage.speakers == ["Tom", "Mary", "Mr. Hale", "Tom", "Mr. Hale"])
    }

    @Test("A parent the family calls by name speaks: 'said Mother', 'said Father'; 'the Grandmother' stays the role")
    func parentsByName() {
        let passage = AnalyzedPassage("""
        Tom came into the kitchen. Mother was at the stove and Father sat reading the paper.

        "Where have you been?" said Mother.

        "At the river," said Tom.

        "Again?" said Father, without looking up.

        "Leave the boy alone, John," said Mother.

        "I only asked," said Father.

        "Hush, both of you," said the Grandmother from her chair.
        """)
        // Before, "Mother" and "Father" were never names: every line but the first went to Tom.
        #expect(passage.speakers == ["Mother", "Tom", "Father", "Mother", "Father", "the grandmother"])
        #expect(passage.character(named: "Mother")?.gender == .female)
    }

    @Test("A story told in the present tags in the present: 'I say', 'Sam mutters', 'Jess laughs'")
    func presentTenseTags() {
        let passage = AnalyzedPassage("""
        I walk into the café and Sam is already there. Jess waves at me from the corner.

        "Hi," I say.

        "You're late," Sam says. "Again."

        "Traffic," I tell him.

        "Sure," Jess laughs. "Traffic."

        "Okay, okay," I admit. "I overslept."

        "Told you," Sam mutters to Jess.
        """)
        // Before, "laughs" and "mutters" were no speech verbs: Jess was never cast, and those lines went to Sam.
        #expect(passage.speakers == ["I", "Sam", "Sam", "I", "Jess", "Jess", "I", "I", "Sam"])
    }

    @Test("'Mom', 'Ma' and 'Dad' are a mother and a father, not men by the unmarked-gender guess")
    func momAndDad() {
        let passage = AnalyzedPassage("""
        The car was packed by eight. Mom checked the list twice while Dad loaded the cooler.

        "Did anyone pack the tent?" Mom asked. "Anyone at all?"

        "It's in the trunk," said Tom from the back seat.

        "Then we're off," said Dad, and started the engine. "Ma, you ready?"

        Grandma's sister was coming too. "Ready as I'll ever be," said Ma.
        """)
        // Before, Mom and Ma were cast as men, and voiced so.
        #expect(passage.speakers == ["Mom", "Mom", "Tom", "Dad", "Dad", "Ma"])
        #expect(passage.character(named: "Mom")?.gender == .female)
        #expect(passage.character(named: "Ma")?.gender == .female)
        #expect(passage.character(named: "Dad")?.gender == .male)
    }

    @Test("A narrator who names themselves is cast by that name: 'Call me Ishmael', '\"My name is Lucy,\" I said'")
    func narratorNamesThemselves() {
        let story = AnalyzedPassage("""
        Call me Ishmael. I came to the inn late at night, and the landlord, Peter Coffin, met me at the door.

        "You want a bed?" said Coffin.

        "I do," said I.

        "Then you'll have to share," he said.
        """)
        // Before, the narrator was "I", which names no one the reader knows.
        #expect(story.speakers == ["Peter Coffin", "Ishmael", "Peter Coffin"])
        let introduced = AnalyzedPassage("""
        The woman at the desk did not look up when I came in.

        "Name?" she asked.

        "My name is Lucy," I said. "Lucy Grey."

        "Take a seat, Miss Grey," said the woman.
        """)
        #expect(introduced.speakers == ["the woman", "Lucy Grey", "Lucy Grey", "the woman"])
    }

    @Test("'Mrs. Manson Mingott' is not called 'Manson': Manson is Medora Manson, a woman by her name's ending, and 'Mrs. Mingott' is the old lady")
    func wifeUnderFamilyName() {
        let passage = AnalyzedPassage("""
        Old Mrs. Manson Mingott received them in her bedroom. Lovell Mingott stood at the window. Medora Manson had come with Ellen.

        "So you've come at last," said Mrs. Manson Mingott. "Sit down, child."

        "Mother, be fair," said Lovell Mingott.

        "Dear Catherine is tired," said Medora Manson. "We must not stay."

        "Nonsense, Medora," said Mrs. Mingott. "Manson women are never tired."

        "Nor are Mingotts," said Lovell.
        """)
        // Before, "Manson" was taken for the old lady's given name, "Mrs. Mingott" was a third
        // woman, and Medora, whom no pronoun genders, was cast as a man.
        #expect(passage.speakers == ["Mrs. Manson Mingott", "Mrs. Manson Mingott", "Lovell Mingott", "Medora Manson", "Medora Manson",
                                     "Mrs. Manson Mingott", "Mrs. Manson Mingott", "Lovell Mingott"])
        #expect(passage.character(named: "Medora Manson")?.gender == .female)
    }

    @Test("Names as dialect and spelling write them: 'Fannie' is a Fanny, 'Marse Maurice' is Maurice Oakley")
    func dialectTitlesAndSpellings() {
        let passage = AnalyzedPassage("""
        Berry Hamilton came home from the big house. Fannie met him at the door. Maurice Oakley had driven past them both.

        "Marse Maurice done gone to town," said Berry.

        "Did he say when he'd be back?" asked Fannie.

        "Tell Berry I shall be late," said Marse Maurice from the gate.
        """)
        // Before, Fannie was cast as a man and "Marse Maurice" was a Maurice of his own.
        #expect(passage.speakers == ["Berry", "Fannie", "Maurice Oakley"])
        #expect(passage.character(named: "Fannie")?.gender == .female)
    }

    @Test("Hyphened words with a particle are one name, and its first or last word alone is it: 'Winnie-the-Pooh', 'Pooh'")
    func hyphenedNameWithParticle() {
        let passage = AnalyzedPassage("""
        Winnie-the-Pooh lived in a forest all by himself.

        "What about a story?" said Christopher Robin.

        "What about a story?" said Winnie-the-Pooh.

        "I suppose I could," said Pooh. "Winnie-the-Pooh likes stories."
        """)
        // Before, "Winnie" was a woman of her own beside Pooh.
        #expect(passage.speakers == ["Christopher Robin", "Winnie-the-Pooh", "Winnie-the-Pooh", "Winnie-the-Pooh"])
        #expect(passage.character(named: "Winnie") == nil)
        #expect(passage.character(named: "Winnie-the-Pooh")?.gender == .male)
    }

    @Test("A capitalised word between 'the' and a noun-name, written so twice, is part of it: 'the Invisible Man', not 'Man'")
    func epithetIsPartOfTheName() {
        let passage = AnalyzedPassage("""
        The Invisible Man went to Kemp's house at night, for he was an invisible man and no door kept him out.

        "Kemp," said the Invisible Man, "I need your help."

        "Griffin!" said Kemp. "It cannot be."

        "It is," said the Invisible Man.
        """)
        // Before, the cast called him "Man", a name that matches no one.
        #expect(passage.speakers == ["the Invisible Man", "the Invisible Man", "Kemp", "Kemp", "the Invisible Man"])
    }
}

/// Families of the novels of manners: a wife named only as "his lady", sisters by rank, a
/// participle opening the sentence before a quote.
@Suite("Analysis: his lady, her husband, pet names of the family")
struct AnalysisFamilyTagTests {
    @Test("'said his lady to him' is the wife of the man she calls by name, before the narration names him")
    func hisLadyIsTheWifeOfTheManCalled() {
        let passage = AnalyzedPassage("""
        "My dear Mr. Bennet," said his lady to him one day, "have you heard that Netherfield Park is let at last?"

        Mr. Bennet replied that he had not.

        "But it is," returned she.

        "I have no objection to hearing it," said Mr. Bennet.

        "Do not be so tiresome," said Mrs. Bennet.
        """)
        #expect(passage.speakers == ["Mrs. Bennet", "Mrs. Bennet", "Mrs. Bennet", "Mr. Bennet", "Mrs. Bennet"])
        #expect(passage.character(named: "his lady") == nil)
    }

    @Test("'said his wife' with no Mrs. of his name is a woman who speaks, and 'his lady' is she")
    func hisWifeWithNoNameSpeaks() {
        let passage = AnalyzedPassage("""
        The farmer came in from the field and sat down.

        "Is supper ready?" said the farmer.

        "It is," said his wife.

        "Good," said the farmer, and his lady smiled.

        "Eat, then," said his lady.
        """)
        #expect(passage.speakers == ["the farmer", "his wife", "the farmer", "his wife"])
        #expect(passage.character(named: "his wife")?.gender == .female)
    }

    @Test("A pet name is not for a woman the text calls by rank: 'Kitty' is no 'Lady Catherine'")
    func petNameIsNotForARankedWoman() {
        let passage = AnalyzedPassage("""
        "Don't keep coughing so, Kitty," said Mrs. Bennet.

        "I do not cough for my own amusement," replied Kitty fretfully.

        Lady Catherine de Bourgh received them at Rosings. Lady Catherine was a tall woman.

        "Do you play and sing?" said Lady Catherine.
        """)
        #expect(passage.speakers == ["Mrs. Bennet", "Kitty", "Lady Catherine de Bourgh"])
        #expect(passage.character(named: "Kitty") != nil)
    }

    @Test("A man of rank is still called by a pet name: 'Harry' is Lord Henry Wotton")
    func petNameOfALord() {
        let passage = AnalyzedPassage("""
        Lord Henry Wotton lay on the divan. Basil Hallward stood at his easel.

        "It is your best work, Basil," said Lord Henry languidly.

        "Harry," said Basil Hallward, "every portrait that is painted with feeling is a portrait of the artist."

        "I am not teasing," said Harry.
        """)
        #expect(passage.character(named: "Lord Henry Wotton")?.aliases.contains("Harry") == true)
    }

    @Test("A participle opening the sentence takes an object, not a speaker: 'Observing his second daughter ..., he addressed her with:'")
    func participleIsNoInvertedTag() {
        let passage = AnalyzedPassage("""
        "Is he married?" said Mr. Bennet.

        "Oh! Single," said Mrs. Bennet.

        Mr. Bennet was among the earliest of those who waited on Mr. Bingley. Observing his second daughter employed in trimming a hat, he suddenly addressed her with:

        "I hope Mr. Bingley will like it, Lizzy."

        "We are not in a way to know what Mr. Bingley likes," said Mrs. Bennet resentfully.

        Later Miss Bingley came. "Yes," said Miss Bingley.
        """)
        #expect(passage.speakers[2] == "Mr. Bennet")
    }

    @Test("'said her husband' is the husband of the woman who spoke just before, when the narration last named another")
    func kinOfThePreviousSpeaker() {
        let passage = AnalyzedPassage("""
        Mr. Gradgrind stood by the window. Mr. Bounderby stood by the fire.

        "The children are at their books," said Mr. Bounderby.

        "I am sure I don't know what is to become of them," said Mrs. Gradgrind. Mrs. Sparsit had gone up with Louisa.

        "Mrs. Gradgrind," said her husband, "you should have known."
        """)
        // Before, the line went to Mr. Bounderby, whose turn it would be.
        #expect(passage.speakers == ["Mr. Bounderby", "Mrs. Gradgrind", "Mr. Gradgrind", "Mr. Gradgrind"])
    }

    @Test("An office written with capitals speaks the first time it is written: 'said the City Magistrate'")
    func officeSpeaksOnFirstUse() {
        let passage = AnalyzedPassage("""
        Ronny Heaslop came in from the court and sat down. "Mother, I hear you have been to the mosque," said the City Magistrate.

        "Yes, Ronny," said Mrs. Moore. "I met a young doctor there."

        "Good evening," the Civil Surgeon said from the door.
        """)
        // Before, a noun the narration had not used was left to the turns, and the line went
        // to the Civil Surgeon, who came in later.
        #expect(passage.speakers[0].hasSuffix("magistrate"))
        #expect(passage.speakers[1] == "Mrs. Moore")
    }

    @Test("'said his host' is the Hamidullah the guest calls by name; a name only spoken of is not he")
    func hostCalledByName() {
        let passage = AnalyzedPassage("""
        The young man sprang up on to the verandah. "Hamidullah, Hamidullah! am I late?" he cried.

        "Do not apologize," said his host. "You are always late."

        "Have they eaten all the food at the Pincio?"

        "They have not," said his host.
        """)
        #expect(passage.character(named: "his host")?.aliases.contains("Hamidullah") == true)
        #expect(passage.character(named: "his host")?.aliases.contains("Pincio") == false)
    }

    @Test("'His sister Joan' is of his family: 'Miss Denham' is she, not a second woman")
    func sisterByAppositionIsOfTheFamily() {
        let passage = AnalyzedPassage("""
        Ralph Denham walked home. His sister Joan was waiting for him.

        "You are late, Ralph," said Joan.

        "I was at the Hilberys'," said Denham.

        "Were you?" said Miss Denham. "Was Katharine there?"
        """)
        let joan = passage.character(named: "Joan")
        #expect(joan != nil && joan?.id == passage.character(named: "Miss Denham")?.id)
        #expect(joan?.lines == 3)
    }

    @Test("'His sister Harriet' is at most the family's Miss: not Mrs. Herriton, his mother")
    func sisterByAppositionIsNotTheMother() {
        let passage = AnalyzedPassage("""
        Philip Herriton stood by the carriage with his mother and his sister Harriet.

        "Good-bye, dear," said Mrs. Herriton. "Write to us."

        "Mind the draughts," said Harriet.
        """)
        #expect(passage.character(named: "Harriet")?.id != passage.character(named: "Mrs. Herriton")?.id)
        #expect(passage.speakers == ["Mrs. Herriton", "Mrs. Herriton", "Harriet"])
    }

    @Test("'Lady Peterhouse' beside 'Lord Peterhouse' is his wife: the bare 'Peterhouse' is he")
    func ladyBesideLordIsTheFamilyTitle() {
        let passage = AnalyzedPassage("""
        Lord Peterhouse and Lady Peterhouse dined with the Hilberys.

        "You must come to the Castle, Katharine," said Lady Peterhouse.

        "Thank you," said Katharine. "Come, Peterhouse."
        """)
        #expect(passage.character(named: "Lady Peterhouse")?.aliases.contains("Peterhouse") == false)
    }

    @Test("'His eldest daughter, Elizabeth' is an Elliot: 'Miss Elliot' is she, the eldest, not Miss Anne Elliot")
    func eldestDaughterIsMissSurname() {
        let passage = AnalyzedPassage("""
        Sir Walter Elliot, of Kellynch Hall, never took up any book but the Baronetage. His eldest daughter, Elizabeth, was very like himself; Anne, the second, was nobody.

        "We must retrench," said Lady Russell.

        Miss Elliot looked at her father. "Bath would suit us very well, papa," she said.

        "You have a very good taste in music, Miss Anne Elliot," said Mr. Elliot.

        "I am a very poor Italian scholar," said Anne.
        """)
        // Before, "Miss Elliot" was Anne, the only Elliot woman named in full.
        #expect(passage.character(named: "Miss Elliot")?.aliases.contains("Elizabeth") == true || passage.character(named: "Elizabeth")?.name == "Miss Elliot")
        #expect(passage.character(named: "Anne")?.aliases.contains("Miss Elliot") == false)
        #expect(passage.speakers[1] == passage.character(named: "Elizabeth")?.name)
        // Nor is "Mr. Elliot", the heir, Sir Walter Elliot.
        #expect(passage.character(named: "Sir Walter Elliot")?.aliases.contains("Mr. Elliot") != true)
        #expect(passage.speakers[2] == "Mr. Elliot")
    }

    @Test("Given names the list lacked are gendered: Sibyl Vane and Katharine Hilbery are women, Ronny and Dorian men")
    func namesOfTheLaterNovels() {
        let passage = AnalyzedPassage("""
        "Good night," said Sibyl Vane.

        "Good night," said Dorian Gray.

        "Come in," said Katharine Hilbery.

        "Thank you," said Ronny Heaslop.
        """)
        #expect(passage.character(named: "Sibyl Vane")?.gender == .female)
        #expect(passage.character(named: "Katharine Hilbery")?.gender == .female)
        #expect(passage.character(named: "Dorian Gray")?.gender == .male)
        #expect(passage.character(named: "Ronny Heaslop")?.gender == .male)
    }

    @Test("'said the old lady' right after the narration names Lady Narborough is she, though it speaks only twice")
    func shortDescriptionIsThePersonJustNamed() {
        let passage = AnalyzedPassage("""
        Lady Narborough sat at the head of the table. "I can't understand it," said the old lady. "You should marry, Dorian."

        "I am too much in love," said Dorian Gray.

        "What nonsense!" cried Lady Narborough. "Harry, you are a bad influence."

        "Only on the young," said Lord Henry.
        """)
        #expect(passage.speakers == ["Lady Narborough", "Lady Narborough", "Dorian Gray", "Lady Narborough", "Lady Narborough", "Lord Henry"])
        #expect(passage.character(named: "the old lady") == nil)
    }

    @Test("Offices and ranks are roles that speak: 'said the detective', 'asked the magistrate'")
    func officesAreRoles() {
        let passage = AnalyzedPassage("""
        "We must break the door," said Holmes.

        Athelney Jones came in. "Well, Mr. Sholto," said the detective, "you are under arrest."

        "But I did not do it!" cried Thaddeus Sholto.

        "Who brought him here?" asked the magistrate.
        """)
        // Before, the detective's lines were Holmes's (his turn by alternation), and the
        // magistrate's went to whoever spoke last but one.
        #expect(passage.speakers == ["Holmes", "the detective", "the detective", "Thaddeus Sholto", "the magistrate"])
    }

    @Test("A short description is the person just named who never speaks by name: 'Gregory's sister Rosamond laughed. \"…,\" said the girl'")
    func shortDescriptionIsASilentNamedPerson() {
        let passage = AnalyzedPassage("""
        "An artist is identical with an anarchist," cried Gregory.

        "Nonsense," said Syme.

        Gregory's sister Rosamond laughed. "You two will quarrel all night," said the girl.
        """)
        #expect(passage.speakers.last == "Rosamond")
        #expect(passage.character(named: "the girl") == nil)
    }

    @Test("A name the lists lack is cast as books at large use it: Evie and Ingrid are women; the Dodo and Crane are words")
    func nameGendersFromBooksAtLarge() {
        let passage = AnalyzedPassage("""
        "The train is late again," said Evie.

        "It always is on Sundays," said Ingrid. "Crane will wait with the car."

        "Then we had better sit down," said Evie.

        "Tell Crane to bring the rugs," said Ingrid.
        """)
        // Before, no pronoun said who they were, and both were cast as men.
        #expect(passage.character(named: "Evie")?.gender == .female)
        #expect(passage.character(named: "Ingrid")?.gender == .female)
        #expect(NameGenders.gender(of: "gino") == .male)
        // Words written as names are no one's name in those books: no gender from the list.
        #expect(NameGenders.gender(of: "dodo") == .unknown)
        #expect(NameGenders.gender(of: "crane") == .unknown)
    }

    @Test("A titled speaker is the given name her companion calls her: 'Charlotte, don't you feel …?' to Miss Bartlett")
    func givenNameCalledIsTheTitledSpeakers() {
        let passage = AnalyzedPassage("""
        "The Signora had no business to do it," said Miss Bartlett, "no business at all."

        "Charlotte, don't you feel, too, that we might have been in London?" said Lucy.

        "Any nook does for me," Miss Bartlett continued.

        "Charlotte dear, you are too unselfish," said Lucy.

        Mr. Beebe smiled at them both. "Miss Honeychurch, your cousin is quite right," he said.

        "Oh, Mr. Beebe!" said Lucy.

        Miss Bartlett arrived on Tuesday. "Dearest Lucy, what a welcome," said Charlotte.
        """)
        // Before, Charlotte was a second woman beside Miss Bartlett, and spoke the last line.
        #expect(passage.character(named: "Charlotte")?.name == "Miss Bartlett")
        #expect(passage.speakers.last == "Miss Bartlett")
    }

    @Test("A voice that says who it is is that person in that scene: '\"Kemp!\" said the Voice. \"… I am Griffin\"'")
    func voiceThatSaysItsName() {
        let passage = AnalyzedPassage("""
        Dr. Kemp was writing in his study when a voice spoke beside him.

        "Kemp!" said the Voice. "Don't you remember me? I am Griffin, of University College."

        "Griffin?" said Kemp. "Good Heavens!"

        "It's incredible," said Kemp.

        "Incredible or not, I am here," said Griffin.
        """)
        // Before, "the voice" was a character of its own and Griffin spoke one line.
        #expect(passage.speakers == ["Griffin", "Griffin", "Dr. Kemp", "Dr. Kemp", "Dr. Kemp", "Griffin"])
        #expect(passage.character(named: "the voice") == nil)
    }

    @Test("One a tag names who says they are another name is that name too: '\"I am the Invisible Man,\" said Griffin'")
    func namedSpeakerSaysTheirOtherName() {
        let passage = AnalyzedPassage("""
        "I am the Invisible Man," said Griffin.

        "It's incredible," said Kemp. "And Mabel? If I'm Mabel, I'll stay here."

        "Incredible or not, I am here," said the Invisible Man.

        "Good evening," said Mabel.
        """)
        // Before, the Invisible Man was a second man beside Griffin.
        #expect(passage.character(named: "Griffin")?.id == passage.character(named: "Invisible Man")?.id)
        #expect(Set(passage.speakers).count == 3)
        // A supposition names no one: Kemp is not Mabel.
        #expect(passage.character(named: "Kemp")?.aliases.contains("Mabel") == false)
    }

    @Test("A titled lady is the given name her company calls her: 'Gladys, you are absurd' to the Duchess of Monmouth")
    func givenNameCalledIsTheTitledLadys() {
        let passage = AnalyzedPassage("""
        Dorian Gray was sitting in the conservatory, talking to the pretty Duchess of Monmouth.

        "What are you two talking about?" said Lord Henry, strolling over to the table.

        "About names, Harry," said the Duchess.

        "Gladys, you are absurd," said Lord Henry.

        "Then what do you value, Harry?" asked the Duchess of Monmouth.

        "Only the nomenclature, Gladys," said Lord Henry.

        The Duke of Monmouth came in from the garden. "Gladys, the carriage is ready," said the Duke.

        "I shall come directly," said Gladys.
        """)
        // Before, Gladys was a woman beside the Duchess, and spoke the last line.
        #expect(passage.character(named: "Gladys")?.name == "Duchess of Monmouth")
        #expect(passage.speakers.last == "Duchess of Monmouth")
    }

    @Test("A reply that calls one the narration has just brought is not the last turn's: 'So Pooh went off to find Owl. \"Owl,\" said Pooh'")
    func callToOneJustBroughtIn() {
        let passage = AnalyzedPassage("""
        The Old Grey Donkey, Eeyore, stood by himself in a thistly corner of the Forest.

        "Good morning, Eeyore," said Pooh.

        "Good morning, Pooh Bear," said Eeyore gloomily. "If it is a good morning. Which I doubt."

        "Why, what's the matter?"

        "Nothing, Pooh Bear, nothing."

        So Winnie-the-Pooh went off to find Owl, who lived at The Chestnuts.

        "Owl," said Pooh, "have you seen Eeyore's tail?"

        "The customary procedure in such cases is as follows," said Owl.
        """)
        // Before, "Nothing, Pooh Bear, nothing." went to Owl, whom the next line calls.
        #expect(passage.speakers == ["Pooh", "Eeyore", "Eeyore", "Pooh", "Eeyore", "Pooh", "Pooh", "Owl"])
    }

    @Test("A relative the dialogue names is cast as the name is: 'her cousin', called Nancy, is a woman")
    func relativeNamedInDialogueTakesTheNamesGender() {
        let passage = AnalyzedPassage("""
        Lucy Steele sat down beside Elinor Dashwood.

        "Nancy has gone to find her beau," said Lucy. "Nancy is always finding beaux."

        "La! Lucy, how you talk," said her cousin, coming up behind them.

        "Is it true?" said Elinor.

        "Not a word of it," said her cousin. "Nancy never had a beau in her life."
        """)
        // Before, nothing but the role's noun was read, and "cousin" marks no gender: a man.
        #expect(passage.character(named: "Nancy")?.gender == .female)
    }

    @Test("'came Cecil's voice' names the speaker as 'was Cecil's reply' does")
    func cameSomeonesVoice() {
        let passage = AnalyzedPassage("""
        Lucy was at the piano when Freddy looked in. "Who is in the hall?" said Lucy.

        "Only me," came Cecil's voice from the hall. "May I come in?"

        "Of course," said Freddy.
        """)
        // Before, the line went to Freddy, the other party.
        #expect(passage.speakers == ["Lucy", "Cecil", "Cecil", "Freddy"])
    }

    @Test("A he after someone is brought in is that newcomer: 'introduced him as Robert Prentiss. He was from New York. / \"Thanks,\" he said'")
    func heAfterANewcomerIsTheNewcomer() {
        let passage = AnalyzedPassage("""
        Robert Cohn was once middleweight boxing champion of Princeton. "I am going to South America," said Cohn.

        "Don't be silly," I said.

        I sat down at a table. Cohn was sitting there. Frances was dancing. Mrs. Braddocks brought up somebody and introduced him as Robert Prentiss. He was from New York by way of Chicago, and was a rising new novelist. He had some sort of an English accent. I asked him to have a drink.

        "Thanks so much," he said, "I've just had one."
        """)
        // Before, the line went to Cohn, the man who had spoken and whom the paragraph named first.
        #expect(passage.speakers.suffix(2) == ["Robert Prentiss", "Robert Prentiss"])
    }

    @Test("'Daisy's mother looked at him … \"…,\" she said' is her mother's line, also where the text lost its apostrophes ('Daisy s mamma')", arguments: ["'", " "])
    func possessiveKinIsTheRelative(apostrophe: String) {
        let passage = AnalyzedPassage("""
        Daisy Miller walked with Winterbourne. Mrs. Miller followed them.

        "Well, if Daisy feels up to it," said Mrs. Miller.

        "Oh, I think she will enjoy it!" Winterbourne declared.

        "I should like to go," said Daisy.

        Daisy\(apostrophe)s mother looked at him an instant askance, and then walked forward in silence. Then--"I guess she had better go alone," she said simply.

        "Oh, no; with this gentleman!" answered Daisy\(apostrophe)s mamma.
        """)
        // Before, "she said" went to Daisy, whom the sentence names first, and "Daisy s" was no possessive.
        #expect(passage.speakers.suffix(2) == ["Mrs. Miller", "Mrs. Miller"])
    }

    @Test("'said the Rabbit's voice', 'said Mr. Bumble's voice': the voice is the possessor's")
    func possessorsVoice() {
        let passage = AnalyzedPassage("""
        Alice was inside the little house, and the Rabbit was outside with Bill.

        "We must burn the house down!" said the Rabbit's voice.

        "If you do, I'll set Dinah at you!" Alice called out.

        "Nothing, ma'am, nothing," said Mr. Bumble's voice from the passage.
        """)
        // Before, both lines went to "the voice", a character no one is.
        #expect(passage.speakers == ["Rabbit", "Alice", "Mr. Bumble"])
    }

    @Test("A voice is whom the hearer turns to find: 'asked a voice behind me, and I turned to find Mary Cavendish at my elbow'")
    func voiceTurnedToFind() {
        let passage = AnalyzedPassage("""
        Poirot had gone off to the village. I stood in the hall, wondering.

        "What is your remarkable little friend doing?" asked a voice behind me, and I turned to find Mary Cavendish at my elbow. She smiled, and so did I.

        "Really, I can't tell you," I said.

        "Is he quite mad, Mr. Hastings?"
        """)
        // Before, her lines went to "the voice", a character no one is, the later one as its turn.
        #expect(passage.speakers == ["Mary Cavendish", "I", "Mary Cavendish"])
        #expect(passage.character(named: "the voice") == nil)
    }

    @Test("Len is Leonard: the usual short forms of names join the full one")
    func shortFormsOfNames() {
        let passage = AnalyzedPassage("""
        Leonard Bast came home late. "Len?" called Jacky from the bedroom.

        "All right," said Len.
        """)
        // Before, "Len" was a character of his own.
        #expect(passage.character(named: "Len")?.name == "Leonard Bast")
        #expect(passage.speakers.last == "Leonard Bast")
    }
}
