import Foundation
import Speech
import Testing

@Suite struct PronunciationLexiconTests {
    let lexicon = PronunciationLexicon(["Hermione": "her-my-oh-nee", "Cholmondeley": "Chumley", "St John": "Sinjun", "St": "Saint"])

    @Test func replacesWholeWordsIgnoringCase() {
        #expect(lexicon.apply(to: "Hermione smiled at hermione's cat.") == "Her-my-oh-nee smiled at her-my-oh-nee's cat.")
        #expect(lexicon.apply(to: "Mr Cholmondeley-Warner") == "Mr Chumley-Warner")
        // Never inside a longer word.
        #expect(lexicon.apply(to: "Hermiones and Street") == "Hermiones and Street")
    }

    @Test func longerKeysWinAndSpacesMatchAnyWhitespace() {
        #expect(lexicon.apply(to: "St John met St Paul.") == "Sinjun met Saint Paul.")
        #expect(lexicon.apply(to: "St\nJohn") == "Sinjun")
    }

    @Test func keysAreCaseInsensitiveAndEditable() {
        var edited = lexicon
        edited["HERMIONE"] = "her-MY-oh-nee"
        #expect(edited.entries.count == lexicon.entries.count)
        #expect(edited["hermione"] == "her-MY-oh-nee")
        edited["cholmondeley"] = nil
        #expect(edited["Cholmondeley"] == nil)
        #expect(PronunciationLexicon().apply(to: "unchanged") == "unchanged")
    }

    @Test func specialCharactersInKeysAreLiteral() {
        let lexicon = PronunciationLexicon(["C++": "see plus plus", "a.b": "a dot b"])
        #expect(lexicon.apply(to: "I like C++ and a.b, not axb.") == "I like See plus plus and a dot b, not axb.")  // capital kept, as for any key
    }

    @Test func anEditMarksExactlyTheAffectedTextsStale() {
        let texts = [
            "Hermione waved.",            // 0: Hermione
            "Cholmondeley bowed.",        // 1: Cholmondeley
            "St John arrived.",           // 2: St John (shadows St)
            "They walked down St Mary's.",// 3: St
            "Nothing to see here.",       // 4: none
            "HERMIONE!",                  // 5: Hermione
        ]
        var edited = lexicon
        edited["Hermione"] = "her-MY-oh-nee"      // changed
        edited["St"] = "Street"                   // changed, but shadowed in text 2
        edited["Ron"] = "Ronn"                    // added, used nowhere
        #expect(lexicon.changedKeys(comparedWith: edited) == ["hermione", "st", "ron"])
        #expect(PronunciationLexicon.affectedIndices(of: texts, from: lexicon, to: edited) == [0, 3, 5])

        var removal = lexicon
        removal["Cholmondeley"] = nil
        #expect(PronunciationLexicon.affectedIndices(of: texts, from: lexicon, to: removal) == [1])
        #expect(PronunciationLexicon.affectedIndices(of: texts, from: lexicon, to: lexicon).isEmpty)
        // Only the capitalisation of a key changed: the engine text is the same, nothing is stale.
        var recased = lexicon
        recased["Cholmondeley"] = nil
        recased["cholmondeley"] = "Chumley"
        #expect(PronunciationLexicon.affectedIndices(of: texts, from: lexicon, to: recased).isEmpty)
    }

    @Test func roundTripsThroughJSON() throws {
        let data = try JSONEncoder().encode(lexicon)
        #expect(try JSONDecoder().decode(PronunciationLexicon.self, from: data) == lexicon)
    }
}
