import Foundation
import Speech
import Testing

@Suite struct PronunciationLexiconTests {
    let lexicon = PronunciationLexicon(["Hermione": "her-my-oh-nee", "Cholmondeley": "Chumley", "St John": "Sinjun", "St": "Saint"])

    @Test func replacesWholeWordsIgnoringCase() {
        #expect(lexicon.apply(to: "Hermione smiled at hermione's cat.", engine: "flite") == "Her-my-oh-nee smiled at her-my-oh-nee's cat.")
        #expect(lexicon.apply(to: "Mr Cholmondeley-Warner", engine: "flite") == "Mr Chumley-Warner")
        // Never inside a longer word.
        #expect(lexicon.apply(to: "Hermiones and Street", engine: "flite") == "Hermiones and Street")
    }

    @Test func longerKeysWinAndSpacesMatchAnyWhitespace() {
        #expect(lexicon.apply(to: "St John met St Paul.", engine: "flite") == "Sinjun met Saint Paul.")
        #expect(lexicon.apply(to: "St\nJohn", engine: "flite") == "Sinjun")
    }

    @Test func keysAreCaseInsensitiveAndEditable() {
        var edited = lexicon
        edited["HERMIONE"] = "her-MY-oh-nee"
        #expect(edited.entries.count == lexicon.entries.count)
        #expect(edited["hermione"] == "her-MY-oh-nee")
        edited["cholmondeley"] = nil
        #expect(edited["Cholmondeley"] == nil)
        #expect(PronunciationLexicon().apply(to: "unchanged", engine: "flite") == "unchanged")
    }

    @Test func specialCharactersInKeysAreLiteral() {
        let lexicon = PronunciationLexicon(["C++": "see plus plus", "a.b": "a dot b"])
        #expect(lexicon.apply(to: "I like C++ and a.b, not axb.", engine: "flite") == "I like See plus plus and a dot b, not axb.")  // capital kept, as for any key
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
        #expect(PronunciationLexicon.affectedIndices(of: texts.map { ($0, "flite") }, from: lexicon, to: edited) == [0, 3, 5])

        var removal = lexicon
        removal["Cholmondeley"] = nil
        #expect(PronunciationLexicon.affectedIndices(of: texts.map { ($0, "flite") }, from: lexicon, to: removal) == [1])
        #expect(PronunciationLexicon.affectedIndices(of: texts.map { ($0, "flite") }, from: lexicon, to: lexicon).isEmpty)
        // Only the capitalisation of a key changed: the engine text is the same, nothing is stale.
        var recased = lexicon
        recased["Cholmondeley"] = nil
        recased["cholmondeley"] = "Chumley"
        #expect(PronunciationLexicon.affectedIndices(of: texts.map { ($0, "flite") }, from: lexicon, to: recased).isEmpty)
    }

    @Test func roundTripsThroughJSON() throws {
        let data = try JSONEncoder().encode(lexicon)
        #expect(try JSONDecoder().decode(PronunciationLexicon.self, from: data) == lexicon)
    }

    // MARK: Phonemes

    let phonemic = PronunciationLexicon(entries: [
        "Framton": PronunciationLexicon.Entry(respelling: "FRAM-tun", phonemes: ["espeak-ng": "fr'amt@n", "piper": "ˈfɹæmtən"]),
        "Vera": PronunciationLexicon.Entry(phonemes: ["espeak-ng": "v'i@r@"]),
        "Alice": PronunciationLexicon.Entry(phonemes: ["espeak-ng": "'alIs", "piper": "ˈælɪs"]),
        "Kate": PronunciationLexicon.Entry(phonemes: ["espeak-ng": "k'eIt", "piper": "kˈeɪt"]),
    ])

    @Test func phonemesGoToTheirEngineAndTheRespellingToTheRest() {
        let text = "framton met Vera."
        #expect(phonemic.apply(to: text, engine: "espeak-ng") == "[[fr'amt@n]] met [[v'i@r@]].")
        // No Piper phonemes for Vera and no respelling: the word as written.
        #expect(phonemic.apply(to: text, engine: "piper") == "[[ˈfɹæmtən]] met Vera.")
        #expect(phonemic.apply(to: text, engine: "flite") == "FRAM-tun met Vera.")
        #expect(phonemic.apply(to: [text, "Vera"], engine: "openai") == ["FRAM-tun met Vera.", "Vera"])
        // Kokoro reads IPA as Piper does: Piper's phonemes serve it unless it has its own.
        #expect(phonemic.apply(to: text, engine: "kokoro") == "[[ˈfɹæmtən]] met Vera.")
        var own = phonemic
        own["Framton"]?.phonemes["kokoro"] = "fɹˈæmtn"
        #expect(own.apply(to: text, engine: "kokoro") == "[[fɹˈæmtn]] met Vera.")
        #expect(own.apply(to: text, engine: "piper") == "[[ˈfɹæmtən]] met Vera.")
    }

    @Test func aPossessiveJoinsThePhonemesVoicedAsEnglishVoicesIt() {
        #expect(phonemic.apply(to: "Framton's nerves, Alice’s tea, Kate's hat.", engine: "espeak-ng")
                == "[[fr'amt@nz]] nerves, [['alIsI2z]] tea, [[k'eIts]] hat.")
        #expect(phonemic.apply(to: "Framton's nerves, Alice’s tea, Kate's hat.", engine: "piper")
                == "[[ˈfɹæmtənz]] nerves, [[ˈælɪsɪz]] tea, [[kˈeɪts]] hat.")
        // Not a possessive: left as written. A respelling keeps its 's as before.
        #expect(phonemic.apply(to: "Framton'st", engine: "espeak-ng") == "[[fr'amt@n]]'st")
        #expect(phonemic.apply(to: "Framton's", engine: "flite") == "FRAM-tun's")
    }

    @Test func aKeyWithNoFormForAnEngineStillShadowsShorterKeys() {
        let lexicon = PronunciationLexicon(entries: ["St John": PronunciationLexicon.Entry(phonemes: ["espeak-ng": "s'IndZ@n"]), "St": "Saint"])
        #expect(lexicon.apply(to: "St John met St Paul.", engine: "flite") == "St John met Saint Paul.")
        #expect(lexicon.apply(to: "St John met St Paul.", engine: "espeak-ng") == "[[s'IndZ@n]] met Saint Paul.")
    }

    @Test func anEditMarksStaleOnlyTheLinesOfEnginesWhoseTextChanges() {
        let lines: [(text: String, engine: String)] = [
            ("Framton waved.", "espeak-ng"),  // 0
            ("Framton waved.", "flite"),      // 1
            ("Framton waved.", "piper"),      // 2
            ("Vera sighed.", "espeak-ng"),    // 3
            ("Vera sighed.", "flite"),        // 4
        ]
        var espeak = phonemic
        espeak["Framton"]?.phonemes["espeak-ng"] = "fr'Amt0n"
        #expect(PronunciationLexicon.affectedIndices(of: lines, from: phonemic, to: espeak) == [0])
        // The respelling is heard only where no phonemes are given.
        var respelled = phonemic
        respelled["Framton"]?.respelling = "FRAMP-tun"
        #expect(PronunciationLexicon.affectedIndices(of: lines, from: phonemic, to: respelled) == [1])
        // New Piper phonemes for Vera: no Piper line says her name.
        var piper = phonemic
        piper["Vera"]?.phonemes["piper"] = "vˈɪɹə"
        #expect(PronunciationLexicon.affectedIndices(of: lines, from: phonemic, to: piper).isEmpty)
        var removed = phonemic
        removed["Vera"] = nil
        #expect(PronunciationLexicon.affectedIndices(of: lines, from: phonemic, to: removed) == [3])
    }

    @Test func entriesEncodeAsBeforeUnlessTheyHavePhonemes() throws {
        let data = try JSONEncoder().encode(phonemic)
        #expect(try JSONDecoder().decode(PronunciationLexicon.self, from: data) == phonemic)
        let old = Data(#"{"entries": {"Framton": "FRAM-tun"}}"#.utf8)
        #expect(try JSONDecoder().decode(PronunciationLexicon.self, from: old) == PronunciationLexicon(["Framton": "FRAM-tun"]))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(PronunciationLexicon(["Framton": "FRAM-tun"])), as: UTF8.self) == #"{"entries":{"Framton":"FRAM-tun"}}"#)
        let vera = try encoder.encode(PronunciationLexicon.Entry(respelling: "VEER-uh", phonemes: ["espeak-ng": "v'i@r@"]))
        #expect(String(decoding: vera, as: UTF8.self) == #"{"espeak-ng":"v'i@r@","say":"VEER-uh"}"#)
    }
}
