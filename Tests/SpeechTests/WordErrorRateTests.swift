import Foundation
import Speech
import Testing

@Suite struct WordErrorRateTests {
    @Test func normalizesCasePunctuationAndNumbers() {
        #expect(WordErrorRate.words(in: "“Who are you?” she asked.") == ["who", "are", "you", "she", "asked"])
        #expect(WordErrorRate.words(in: "Don’t—stop & go") == ["don't", "stop", "and", "go"])
        #expect(WordErrorRate.words(in: "Route 66, 1,200 and 105") == ["route", "sixty", "six", "one", "thousand", "two", "hundred", "and", "one", "hundred", "five"])
        #expect(WordErrorRate.words(in: "well-known 'quoted'") == ["well", "known", "quoted"])
    }

    @Test func countsSubstitutionsDeletionsAndInsertionsOverReferenceWords() {
        #expect(WordErrorRate.of(hypothesis: "Who are you?", reference: "“Who are you?”") == 0)
        // one substitution in four words
        #expect(WordErrorRate.of(hypothesis: "the cat sat down", reference: "The bat sat down.") == 0.25)
        // one deletion, one insertion: 2 / 3
        #expect(abs(WordErrorRate.of(hypothesis: "quick fox jumps", reference: "the quick fox") - 2.0 / 3) < 1e-9)
        // nothing heard: every reference word deleted
        #expect(WordErrorRate.of(hypothesis: "", reference: "Yes.") == 1)
        // a rambling engine can exceed 1
        #expect(WordErrorRate.of(hypothesis: "oh oh oh", reference: "Oh!") == 2)
        #expect(WordErrorRate.of(hypothesis: "", reference: "") == 0)
        #expect(WordErrorRate.of(hypothesis: "twelve apples", reference: "12 apples") == 0)
        #expect(WordErrorRate.editDistance(["a", "b", "c"], ["a", "c", "d"]) == 2)
    }

    @Test func summarizesADistribution() {
        let distribution = WERDistribution([0, 0, 0.1, 0.2, 0.25, 0.5, 0.6, 1.0, 0, 0.05], threshold: 0.5)
        #expect(distribution.count == 10)
        #expect(abs(distribution.mean - 0.27) < 1e-9)
        #expect(abs(distribution.median - 0.15) < 1e-9)
        #expect(abs(distribution.p90 - 0.64) < 1e-9)
        #expect(distribution.max == 1)
        #expect(abs(distribution.shareAbove - 0.2) < 1e-9)  // 0.6 and 1.0; 0.5 itself is not above
        #expect(WERDistribution([], threshold: 0.5).count == 0)
    }
}

@Suite struct PronunciationLexiconFileTests {
    @Test func readsWordEqualsRespellingLines() throws {
        let lexicon = try PronunciationLexicon.parse("""
            # names in this story
            Framton = FRAM-tun
            St John = Sinjun

            Vera=VEER-uh
            """)
        #expect(lexicon == PronunciationLexicon(["Framton": "FRAM-tun", "St John": "Sinjun", "Vera": "VEER-uh"]))
        #expect(lexicon.apply(to: "Framton met St  John.", engine: "flite") == "FRAM-tun met Sinjun.")
    }

    @Test func readsAJSONObject() throws {
        let lexicon = try PronunciationLexicon.parse(#" {"Sappleton": "SAP-ul-tun"} "#)
        #expect(lexicon["sappleton"] == "SAP-ul-tun")
    }

    @Test func explainsABadLine() throws {
        #expect(throws: PronunciationLexicon.FileError.self) { try PronunciationLexicon.parse("Framton FRAM-tun", path: "x.txt") }
        do {
            _ = try PronunciationLexicon.parse("ok = fine\n = nothing", path: "x.txt")
            Issue.record("a line without a word was accepted")
        } catch let error as PronunciationLexicon.FileError {
            #expect(error.line == 2)
            #expect(error.description.hasPrefix("x.txt:2:"))
        }
    }

    @Test func readsPhonemesForTheEnginesThatTakeThem() throws {
        let lexicon = try PronunciationLexicon.parse("""
            Framton = FRAM-tun | espeak-ng [[fr'amt@n]] | piper [[ˈfɹæmtən]]
            Vera = espeak-ng [[ v'i@r@ ]]
            # a '|' inside the brackets is espeak-ng's, not a separator
            Ruth = piper [[ɹˈuːθ]] | espeak-ng [[r'u:|T]] | ROOTH
            """)
        #expect(lexicon["framton"] == PronunciationLexicon.Entry(respelling: "FRAM-tun", phonemes: ["espeak-ng": "fr'amt@n", "piper": "ˈfɹæmtən"]))
        #expect(lexicon["Vera"] == PronunciationLexicon.Entry(phonemes: ["espeak-ng": "v'i@r@"]))
        #expect(lexicon["Ruth"] == PronunciationLexicon.Entry(respelling: "ROOTH", phonemes: ["espeak-ng": "r'u:|T", "piper": "ɹˈuːθ"]))
    }

    @Test func readsPhonemesFromJSONObjects() throws {
        let lexicon = try PronunciationLexicon.parse(#"""
            {"Framton": {"say": "FRAM-tun", "espeak-ng": "[[fr'amt@n]]", "piper": "ˈfɹæmtən"}, "Vera": "VEER-uh"}
            """#)
        #expect(lexicon == PronunciationLexicon(entries: [
            "Framton": PronunciationLexicon.Entry(respelling: "FRAM-tun", phonemes: ["espeak-ng": "fr'amt@n", "piper": "ˈfɹæmtən"]),
            "Vera": "VEER-uh",
        ]))
    }

    @Test(arguments: [
        ("Framton = FRAM-tun | flite [[f r a m]]", "does not read phonemes"),
        ("Framton = espeak-ng [[fr'amt@n", "without a closing ']]'"),
        ("Framton = FRAM-tun | FRAMP-tun", "two respellings"),
        ("Framton = espeak-ng [[a]] | espeak-ng [[b]]", "espeak-ng twice"),
        ("Framton = espeak-ng [[ ]]", "empty phonemes"),
        ("Framton = FRAM-tun |", "empty part"),
        ("Framton = [[fr'amt@n]]", "one engine name"),
    ])
    func explainsABadPhonemeLineWithItsNumber(line: String, problem: String) throws {
        do {
            _ = try PronunciationLexicon.parse("# names\nVera = VEER-uh\n\(line)\n", path: "names.txt")
            Issue.record("accepted: \(line)")
        } catch let error as PronunciationLexicon.FileError {
            #expect(error.line == 3)
            #expect(error.description.hasPrefix("names.txt:3: '\(line)'"))
            #expect(error.problem.contains(problem), "\(error.problem)")
        }
    }

    @Test func explainsABadJSONEntryByItsWord() throws {
        for (json, problem) in [(#"{"Framton": {"flite": "x"}}"#, "does not read phonemes"), (#"{"Framton": {}}"#, "neither")] {
            do {
                _ = try PronunciationLexicon.parse(json, path: "names.json")
                Issue.record("accepted: \(json)")
            } catch let error as PronunciationLexicon.FileError {
                #expect(error.problem.hasPrefix("'Framton'") && error.problem.contains(problem), "\(error.problem)")
            }
        }
    }

    @Test func loadsAFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lexicon-\(UUID().uuidString).txt")
        try "Nuttel = NUT-ul\n".write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try PronunciationLexicon.load(contentsOf: url)["nuttel"] == "NUT-ul")
    }
}
