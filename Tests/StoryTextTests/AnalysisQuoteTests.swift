import StoryModel
import StoryText
import Testing

@Suite("Analysis: finding quotes")
struct AnalysisQuoteTests {
    @Test("Straight double quotes, with the tag between two parts of one speech")
    func straightQuotes() {
        let passage = AnalyzedPassage("""
        "Where are you going?" said Anne. "It is late."

        "Home," said Marilla.
        """)
        #expect(passage.quotes == ["\"Where are you going?\"", "\"It is late.\"", "\"Home,\""])
        #expect(passage.tiles)
    }

    @Test("Curly quotes and offsets in Unicode scalars after non-ASCII text")
    func curlyQuotes() {
        let passage = AnalyzedPassage("Café noir — “Bonjour,” said Zoë. “Ça va?”")
        #expect(passage.quotes == ["“Bonjour,”", "“Ça va?”"])
        #expect(passage.tiles)
    }

    @Test("A speech over several paragraphs (no closing mark until the last) is the same speaker's line in each")
    func multiParagraph() {
        let passage = AnalyzedPassage("""
        "It was a long winter," said Marilla. "We had snow until May.

        "And then the rain came."

        Anne laughed.
        """)
        #expect(passage.quotes == ["\"It was a long winter,\"", "\"We had snow until May.", "\"And then the rain came.\""])
        #expect(passage.speakers == ["Marilla", "Marilla", "Marilla"])
        #expect(passage.tiles)
    }

    @Test("A speech resumed after a verse it recites ends at a closing mark with no opening: the verse is not a line")
    func speechResumedAfterRecitedVerse() {
        let passage = AnalyzedPassage("""
        Emma took up the paper. "Very well, Mr. Elton, very well indeed. I have read worse
        charades.

              May its approval beam in that soft eye!

        Harriet exactly. Soft is the very word for her eye.

              Thy ready wit the word will soon supply.

        Humph--Harriet's ready wit! All the better."

        Harriet could not answer.
        """)
        #expect(passage.quotes == [
            "\"Very well, Mr. Elton, very well indeed. I have read worse\ncharades.",
            "Harriet exactly. Soft is the very word for her eye.",
            "Humph--Harriet's ready wit! All the better.\"",
        ])
        #expect(passage.speakers == ["Emma", "Emma", "Emma"])
        #expect(passage.tiles)
    }

    @Test("A closing mark with nothing open after the last speech closes only its own paragraph's words")
    func orphanClosingMark() {
        let passage = AnalyzedPassage("""
        "I will come," said Diana.

        They walked on in silence.

        When he came to the line he looked right down at you."

        "Did he?" said Anne.
        """)
        #expect(passage.quotes == ["\"I will come,\"", "When he came to the line he looked right down at you.\"", "\"Did he?\""])
        #expect(passage.tiles)
    }

    @Test("A footnote reference inside a speech is not spoken")
    func footnoteReference() {
        let passage = AnalyzedPassage("""
        "Let the cricket stick to its hearth.[2] Potapitch, pack everything," said the Grandmother.
        """)
        #expect(passage.quotes == ["\"Let the cricket stick to its hearth.", " Potapitch, pack everything,\""])
        #expect(passage.tiles)
    }

    @Test("British single quotes, without mistaking apostrophes for quote marks")
    func singleQuotes() {
        let passage = AnalyzedPassage("""
        'I don't think so,' said Tom. 'The girls' dresses are o' the best, and 'tis late.'

        'Tell 'em I'm coming,' said Harry.

        'Fine,' said Tom.

        'We'll see,' said Harry.
        """)
        #expect(passage.quotes == [
            "'I don't think so,'", "'The girls' dresses are o' the best, and 'tis late.'",
            "'Tell 'em I'm coming,'", "'Fine,'", "'We'll see,'",
        ])
    }

    @Test("Em-dash dialogue at paragraph starts, with the tag between dashes")
    func dashDialogue() {
        let text = (1...5).map { n in "— Where are you going, number \(n)? — said he. — Home.\n\n— Fine.\n\n" }.joined()
        let passage = AnalyzedPassage(text)
        #expect(passage.quotes.prefix(3) == ["— Where are you going, number 1?", "— Home.", "— Fine."])
        #expect(passage.tiles)
    }

    @Test("Script format: the name before the colon speaks")
    func scriptFormat() {
        let lines = ["ALICE: Hello there.", "BOB: Hi, Alice.", "ALICE: How are you?", "BOB: Well.", "ALICE: Good.", "BOB: Bye."]
        let passage = AnalyzedPassage(lines.joined(separator: "\n"))
        #expect(passage.quotes == ["Hello there.", "Hi, Alice.", "How are you?", "Well.", "Good.", "Bye."])
        #expect(passage.speakers == ["ALICE", "BOB", "ALICE", "BOB", "ALICE", "BOB"])
    }

    @Test("Quoted terms inside a sentence of narration are not dialogue")
    func embeddedTerms() {
        let passage = AnalyzedPassage("""
        They played the overture to "The Poet and the Peasant" and she called it "Solitude." Then Edna spoke.

        "What passion!" cried Edna.
        """)
        #expect(passage.quotes == ["\"What passion!\""])
    }

    @Test("Unbalanced and stray marks still give segments that tile the text")
    func unbalanced() {
        let samples = [
            "\"Oh, Mr.\n\n“ ‘ ” ' \" Anne said. .", "'", "\"", "— ", "ALICE:", "Mr. \"Anne\".", "\r\n\"Hi,\" said Bob.\r\n",
            "\"Well, Anne.\"", "said \"Diana\" ,", "😀 \"é\" 😀",
        ]
        for sample in samples {
            #expect(AnalyzedPassage(sample).tiles, "\(sample)")
        }
    }

    @Test("A stage direction in parentheses inside speech is narration; both parts keep the speaker")
    func parentheticalAside() {
        let passage = AnalyzedPassage("""
        "Well, (smiling,) I hope it is so," said Emma.
        """)
        #expect(passage.quotes == ["\"Well, ", " I hope it is so,\""])
        #expect(passage.speakers == ["Emma", "Emma"])
        #expect(passage.tiles)
        #expect(passage.analysis.characters.first?.lines == 2)
    }

    @Test("The speaker's own aside in parentheses stays in the speech; a manner of speaking is the narrator's")
    func speakersAsideStaysInTheSpeech() {
        let aside = AnalyzedPassage("""
        "From her account (for she does not hide anything) I conclude that he left," said Polina.
        """)
        #expect(aside.quotes.count == 1)
        let hedge = AnalyzedPassage("""
        "Many of them (certainly some,) would follow your lead," said Mr. Knightley.
        """)
        #expect(hedge.quotes.count == 1)
        let manner = AnalyzedPassage("""
        "Yes--(rather hesitatingly)--I believe I do," said Emma.
        """)
        #expect(manner.quotes == ["\"Yes--", "--I believe I do,\""])
        #expect(manner.speakers == ["Emma", "Emma"])
    }

    @Test("Words introduced as written ('In Polina's handwriting I read:', 'the document ran') are read, not said")
    func writtenWordsAreNotLines() {
        let note = AnalyzedPassage("""
        The waiter handed me a small note. In Polina's handwriting I read:

        "I hear that you are thinking of going on with this affair."

        "Is there an answer?" asked the waiter.
        """)
        #expect(note.quotes == ["\"Is there an answer?\""])
        let tagged = AnalyzedPassage("""
        "Mademoiselle," the document ran, "certain circumstances compel me to depart."
        """)
        #expect(tagged.quotes.isEmpty)
        let said = AnalyzedPassage("""
        "Thank you," replied the aunt, while eagerly hunting for the letter. "Oh! here it is."
        """)
        #expect(said.quotes.count == 2)
    }

    @Test("A narration paragraph stopping mid-sentence ('From Gray, that') runs on into a cited passage, not a line")
    func citedPassageAfterUnfinishedSentence() {
        let cited = AnalyzedPassage("""
        From Gray, that

        "Many a flower is born to blush unseen,
        And waste its fragrance on the desert air."

        "I like it," said Catherine.
        """)
        #expect(cited.quotes == ["\"I like it,\""])
        let heading = AnalyzedPassage("""
        CHAPTER 12

        "Mrs. Allen," said Catherine the next morning, "may I call on Miss Tilney?"
        """)
        #expect(heading.quotes.count == 2)
        #expect(heading.speakers.allSatisfy { $0 == "Catherine" })
    }
}

@Suite("Analysis: nested quotations")
struct AnalysisNestedQuoteTests {
    @Test("A speech is cut around a quotation it contains, in the speaker's voice throughout")
    func nestedCut() {
        let passage = AnalyzedPassage("""
        "Did you send for a boy?" asked Mrs. Lynde.

        "Matthew suggested getting a Home boy. But I said 'Never!' flat to that. We asked Mrs. Spencer to pick us out a girl instead," said Marilla.

        "Well, well," said Mrs. Lynde.
        """)
        #expect(passage.quotes.count == 4)
        #expect(passage.quotes[2].hasPrefix("'Never!' flat"))
        #expect(passage.speakers == ["Mrs. Lynde", "Marilla", "Marilla", "Mrs. Lynde"])
        #expect(passage.tiles)
    }

    @Test("A quoted word or title inside a speech stays in the line; no cut")
    func nestedTermsStayInside() {
        let passage = AnalyzedPassage("""
        "What will you recite?" asked Diana.

        "I have decided to give 'The Maiden's Vow' because it is so pathetic. Gilbert called me 'carrots' once, you know, and I shall never forgive him," said Anne.
        """)
        #expect(passage.quotes.count == 2)
        #expect(passage.speakers == ["Diana", "Anne"])
    }

    @Test("A list of quoted titles, each closed before 'and', stays in the line (lost opening marks read as '?')")
    func nestedTitleList() {
        let passage = AnalyzedPassage("""
        "Can you read?" asked Marilla.

        "I know ever so many pieces of poetry off by heart--?The Battle of Hohenlinden' and ?Edinburgh after Flodden,' and ?Bingen of the Rhine,' and most of the ?Lady of the Lake' and most of ?The Seasons' by James Thompson. Don't you just love poetry that gives you a crinkly feeling? There is a piece in the Fifth Reader--?The Downfall of Poland'--that is just full of thrills," said Anne.
        """)
        #expect(passage.quotes.count == 2)
        #expect(passage.speakers == ["Marilla", "Anne"])
    }

    @Test("A quoted story longer than the words around it is a segment of its own")
    func nestedStoryOwnSegment() {
        let passage = AnalyzedPassage("""
        "How is Jane?" asked Emma.

        "Oh! very poorly. 'It is only Mrs. Cole,' said I, 'depend upon it. Nobody else would come so early at this time of the morning, my dear.' Then Patty came in," said Miss Bates.
        """)
        // "Oh! very poorly." and "Then Patty came in," are lines; the quoted story and its "said I," too.
        #expect(passage.quotes.contains { $0.hasPrefix(" said I,") && $0.count <= 10 })
        #expect(passage.quotes.contains { $0.hasPrefix("'depend upon it.") })
        #expect(Set(passage.speakers.dropFirst()) == ["Miss Bates"])
        #expect(passage.tiles)
    }

    @Test("A lost opening mark ('?' before a word) still opens a nested quotation")
    func damagedOpener() {
        let passage = AnalyzedPassage("""
        "Is it?" asked Marilla.

        "Well, that is another hope gone. ?My life is a perfect graveyard of buried hopes.' That's a sentence I read in a book once," said Anne.

        "I don't see the comfort," said Marilla.
        """)
        // The quoted sentence is longer than Anne's words on either side: a segment of its own.
        #expect(passage.quotes.count == 5)
        #expect(passage.quotes[2].hasPrefix("?My life") && passage.quotes[2].hasSuffix("hopes.'"))
        #expect(passage.speakers == ["Marilla", "Anne", "Anne", "Anne", "Marilla"])
    }

    @Test("Reported speech in the narrator's grammar inside a narration paragraph is not dialogue")
    func reportedSpeechInNarration() {
        let reported = AnalyzedPassage("""
        Mr. Elton was all attention. "Might he be trusted with the commission, he would ride to London at any time." Emma was silent.

        "You are too kind," said Emma.
        """)
        #expect(reported.quotes == ["\"You are too kind,\""])
        // First person, or a speech tag after it: a line.
        let spoken = AnalyzedPassage("""
        Harriet came in. "I was so surprised, he had written to her at last."

        Emma looked up. "He was never there, and she would not go," said Harriet.
        """)
        #expect(spoken.quotes.count == 2)
    }

    @Test("A quote opening in lower case inside a narration sentence carries on that sentence")
    func lowerCaseContinuation() {
        let indirect = AnalyzedPassage("""
        Mr. Elton only hoped "the young lady's pride would now be contented;" and left the room.
        """)
        #expect(indirect.quotes.isEmpty)
        // After a speech verb, or as the second part of a tagged speech, it is a line.
        let spoken = AnalyzedPassage("""
        He stopped again to say, "the pianoforte is new."

        "Well," said Anne, "perhaps it is so."
        """)
        #expect(spoken.quotes.count == 3)
    }

    @Test("One to three quoted words the sentence runs on after are a scare quote")
    func scareQuote() {
        let scare = AnalyzedPassage("""
        They met no one. The "pigeon house" stood behind a locked gate.

        She was always talking. Her "condition" was not apparent.
        """)
        #expect(scare.quotes.isEmpty)
        let spoken = AnalyzedPassage("""
        She wanted him to come and say, "I love you," and then go. Everybody cried "Hurrah!" at once.
        """)
        #expect(spoken.quotes == ["\"I love you,\"", "\"Hurrah!\""])
    }

    @Test("A quote right after 'called' gives a name; a call set off by a comma, or an exclamation, is speech")
    func namingCalled() {
        let names = AnalyzedPassage("""
        The main building was called "the house," to distinguish it from the cottages. Thomas, whom people called "Rachel Lynde's husband," was sowing his turnip seed. She had been called "carrots." Gilbert it was who spoke up.
        """)
        #expect(names.quotes.isEmpty)
        let calls = AnalyzedPassage("""
        Marilla came to the door and called, "Anne, come in." Then she called "Supper!" across the yard.
        """)
        #expect(calls.quotes == ["\"Anne, come in.\"", "\"Supper!\""])
    }

    @Test("Quoted words the narration gives to someone ('as she expressed it') are a line")
    func attributedExpression() {
        let passage = AnalyzedPassage("""
        Marilla had had a headache, and she felt weak and "tuckered out," as she expressed it. By night Anne was, as she expressed it, "beat out." The house was furnished with "great magnificence," as Anne told Marilla afterward.
        """)
        #expect(passage.quotes == ["\"tuckered out,\"", "\"beat out.\"", "\"great magnificence,\""])
    }

    @Test("An interjection in quote marks is said, even inside a narration sentence")
    func embeddedInterjection() {
        let passage = AnalyzedPassage("""
        Harriet stood watching for her opinion, with a "Well, well," and was at last forced to ask. He agreed to it, but with so quiet a "Yes," as inclined her to doubt him. He returned brief answers of "Yes, yes," and went on about the Prince.
        """)
        #expect(passage.quotes == ["\"Well, well,\"", "\"Yes,\"", "\"Yes, yes,\""])
    }

    @Test("A paragraph of one word no sentence ends on ('That') runs on into the cited passage after it")
    func leadInWordParagraph() {
        let passage = AnalyzedPassage("""
        She learnt from Shakespeare a great store of information.

        That

        "The poor beetle, which we tread upon,
        In corporal sufferance feels a pang as great
        As when a giant dies."

        "So much the better," said Catherine.
        """)
        #expect(passage.quotes == ["\"So much the better,\""])
    }

    @Test("In a text whose every paragraph is indented, a short line opening a paragraph is still dialogue")
    func indentedBodyIsNotVerse() {
        let passage = AnalyzedPassage("""
            Marilla looked up from her knitting.

            "Where is Anne?" said Marilla.

            "Gone to Diana's," said Matthew.

            The kitchen was quiet again.
        """)
        #expect(passage.quotes == ["\"Where is Anne?\"", "\"Gone to Diana's,\""])
    }

    @Test("An indented verse of up to four lines is not dialogue; a longer indented speech is")
    func setOffVerse() {
        let verse = AnalyzedPassage("""
        The orchard sloped away to the mists, while

             "The little birds sang as if it were
             The one day of summer in all the year."

        Matthew enjoyed the drive.
        """)
        #expect(verse.quotes.isEmpty)
        let prayer = AnalyzedPassage("""
        She lifted her head for a moment.

           "Gracious heavenly Father, I thank Thee for the White
           Way of Delight and the Lake of Shining Waters and Bonny
           and the Snow Queen. I'm really extremely grateful for
           them. And that's all the blessings I can think of just
           now to thank Thee for."
        """)
        #expect(prayer.quotes.count == 1)
    }

    @Test("A letter in quote marks, from its salutation to its closing and signature, is not dialogue")
    func quotedLetter() {
        let letter = AnalyzedPassage("""
        Diana haunted the post office and got her letter.

        "Dearest Diana" [wrote Anne],

        "Here it is Tuesday night and I'm writing this in the library."

        "Oh, Diana, if only the geometry examination were over!"

        "Yours devotedly,"

        "Anne"

        Diana smiled.
        """)
        #expect(letter.quotes.isEmpty)
        // "Your ...," with a tag after it is the first part of a speech.
        let spoken = AnalyzedPassage("""
        "Do you think I have a pretty nose?"

        "Your nose is well enough," said Marilla.
        """)
        #expect(spoken.quotes.count == 2)
    }
}
