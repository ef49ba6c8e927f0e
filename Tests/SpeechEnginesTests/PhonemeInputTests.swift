import Audio
import Foundation
import Speech
@testable import SpeechEngines
import StoryModel
import Testing

/// The lexicon's phoneme entries through the real engines that read them.
@Suite struct PhonemeInputTests {
    /// "Cholmondeley" is said "Chumley": espeak-ng writes that `tS'Vmli`, Piper `tʃˈʌmli`.
    static let lexicon = PronunciationLexicon(entries: [
        "Cholmondeley": PronunciationLexicon.Entry(phonemes: ["espeak-ng": "tS'Vmli", "piper": "tʃˈʌmli"]),
        "Featherstonehaugh": PronunciationLexicon.Entry(respelling: "Fanshaw", phonemes: ["piper": "fˈænʃɔː"]),
    ])

    @Test func theEnginesThatReadPhonemesAreTheOnesTheLexiconNames() {
        #expect(PronunciationLexicon.phonemeEngines.keys.sorted() == [EspeakEngine().engineID, PiperEngine.id, KokoroEngine.id].sorted())
    }

    @Test func espeakSpeaksThePhonemesNotTheBracketsOrTheWord() async throws {
        try #require(Installed.espeak, "espeak-ng is not installed; run scripts/setup")
        let engine = EspeakEngine()
        let voice = try #require(try await engine.voices().first { $0.engineVoice == "en-us+m3" })
        func samples(_ text: String) async throws -> [Int16] {
            try await engine.synthesize(text, voice: voice, settings: SpeechSettings()).samples
        }
        let text = "Mr Cholmondeley's hat blew away."
        let given = Self.lexicon.apply(to: text, engine: engine.engineID)
        #expect(given == "Mr [[tS'Vmliz]] hat blew away.")
        // espeak-ng is deterministic: the phonemes sound exactly like the word it spells tS'Vmli,
        // possessive included, and nothing like its own reading of the word or the brackets as text.
        let phonemes = try await samples(given)
        #expect(phonemes == (try await samples("Mr Chumley's hat blew away.")))
        #expect(phonemes != (try await samples(text)))
        #expect(phonemes != (try await samples("Mr tS'Vmliz hat blew away.")))
    }

    @Test func piperPunctuationAfterAPhonemeBlockMovesInside() {
        #expect(PiperPhonemeBlocks.prepared("\"Hello,\" said [[tʃˈʌmli]], smiling.") == "\"Hello,\" said [[tʃˈʌmli,]] smiling.")
        #expect(PiperPhonemeBlocks.prepared("Hello [[tʃˈʌmli]]? Yes.") == "Hello [[tʃˈʌmli?]] Yes.")
        #expect(PiperPhonemeBlocks.prepared("said [[tʃˈʌmli]].") == "said [[tʃˈʌmli.]]")
        #expect(PiperPhonemeBlocks.prepared("\"[[tʃˈʌmli]]!\" she cried.") == "\" [[tʃˈʌmli!]] \" she cried.")
        #expect(PiperPhonemeBlocks.prepared("[[tʃˈʌmli]]—no.") == "[[tʃˈʌmli]] —no.")
        #expect(PiperPhonemeBlocks.prepared("No blocks, here.") == "No blocks, here.")
    }

    @Test func piperSpeaksThePhonemesNotTheBracketsOrTheWord() async throws {
        try #require(Installed.piper, "Piper is not installed; run scripts/setup")
        let engine = SharedPiper.engine
        let voice = try #require(try await engine.voices().first { $0.engineVoice == PiperEngine.modelName })
        func seconds(_ text: String) async throws -> Double {
            try await engine.synthesize(text, voice: voice, settings: SpeechSettings()).durationSeconds
        }
        let text = "Mr Featherstonehaugh, said Vera."
        let given = Self.lexicon.apply(to: text, engine: engine.engineID)
        #expect(given == "Mr [[fˈænʃɔː]], said Vera.")
        // Piper's durations vary by a few percent from run to run (noise_w), so lengths are
        // compared with margins far wider than that: the phonemes last as long as the word
        // spelled "Fanshaw" (the same phonemes), and the IPA read as text lasts about twice as long.
        let phonemes = try await seconds(given)
        let respelled = try await seconds("Mr Fanshaw, said Vera.")
        let literal = try await seconds("Mr fˈænʃɔː, said Vera.")
        #expect(abs(phonemes - respelled) / respelled < 0.2, "\(phonemes) s against \(respelled) s")
        #expect(phonemes < literal * 0.7, "\(phonemes) s against \(literal) s read as text")
        // On its own, the phonemes are shorter than Piper's reading of the five-syllable spelling.
        let word = try await seconds("Featherstonehaugh")
        #expect(try await seconds(Self.lexicon.apply(to: "Featherstonehaugh", engine: engine.engineID)) < word * 0.9)
    }

    @Test func enginesWithoutPhonemeInputGetTheRespelling() {
        #expect(Self.lexicon.apply(to: "Mr Featherstonehaugh, said Vera.", engine: "flite") == "Mr Fanshaw, said Vera.")
        #expect(Self.lexicon.apply(to: "Mr Cholmondeley's hat.", engine: "festival") == "Mr Cholmondeley's hat.")
    }
}
