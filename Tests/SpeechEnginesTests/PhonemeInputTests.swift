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
        #expect(PronunciationLexicon.phonemeEngines.keys.sorted() == [EspeakEngine().engineID, PiperEngine.id, KokoroEngine.id, HibariEngine.id].sorted())
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

    /// hibari reads the lexicon's IPA (Piper's) turned into its own alphabet, inline.
    @Test func hibariSpeaksThePhonemesNotTheBracketsOrTheWord() async throws {
        let engine = HibariEngine(configuration: .init(projectDirectory: Installed.projectDirectory, poolSize: 1))
        try #require(engine.isInstalled, "hibari is not installed; run scripts/setup")
        defer { Task { await engine.shutdown() } }
        let voice = try #require(HibariEngine.catalogue.first)
        func audio(_ text: String) async throws -> PCMAudio {
            try await engine.synthesize(text, voice: voice, settings: SpeechSettings())
        }
        let given = Self.lexicon.apply(to: "Mr Featherstonehaugh, said Vera.", engine: HibariEngine.id)
        #expect(given == "Mr [[fˈænʃɔː]], said Vera.")
        // hibari is deterministic (a fixed noise seed): the block is not its reading of the word,
        // nor the IPA read as text, and lasts about as long as the word spelled "Fanshaw".
        let phonemes = try await audio(given)
        #expect(phonemes.samples != (try await audio("Mr Featherstonehaugh, said Vera.")).samples)
        let respelled = try await audio("Mr Fanshaw, said Vera.").durationSeconds
        let literal = try await audio("Mr fˈænʃɔː, said Vera.").durationSeconds
        #expect(abs(phonemes.durationSeconds - respelled) / respelled < 0.2, "\(phonemes.durationSeconds) s against \(respelled) s")
        #expect(phonemes.durationSeconds < literal, "\(phonemes.durationSeconds) s against \(literal) s read as text")
    }

    @Test func enginesWithoutPhonemeInputGetTheRespelling() {
        #expect(Self.lexicon.apply(to: "Mr Featherstonehaugh, said Vera.", engine: "flite") == "Mr Fanshaw, said Vera.")
        #expect(Self.lexicon.apply(to: "Mr Cholmondeley's hat.", engine: "festival") == "Mr Cholmondeley's hat.")
    }
}
