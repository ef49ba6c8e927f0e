import Audio
import Foundation
import Speech
import StoryModel
import Testing

/// An engine whose output is decided per (voice, text) by a closure: a tone of the given
/// length, near-silence, or an empty-audio error.
struct ScriptedEngine: SpeechSynthesizer {
    enum Output: Sendable { case speech(seconds: Double), silence, emptyAudio }
    let engineID = "scripted"
    let script: @Sendable (_ voice: String, _ text: String) -> Output

    func info() async -> EngineInfo { EngineInfo(id: engineID, name: "Scripted", version: "1", installed: true) }
    func voices() async throws -> [Voice] { [] }
    func synthesize(_ text: String, voice: Voice, settings: SpeechSettings) async throws -> PCMAudio {
        let rate = 16_000
        let lead = [Int16](repeating: 0, count: rate / 10)
        switch script(voice.engineVoice, text) {
        case .speech(let seconds):
            let tone = (0..<Int(seconds * Double(rate))).map { Int16(8000 * sin(Double($0) * 0.2)) }
            return PCMAudio(sampleRate: rate, samples: lead + tone + lead)
        case .silence:
            return PCMAudio(sampleRate: rate, samples: lead + [Int16](repeating: 50, count: rate / 5) + lead)
        case .emptyAudio:
            throw SpeechError.emptyAudio(engine: engineID, text: text)
        }
    }

    static func voice(_ name: String, gender: Gender = .female, pitch: Double = 0) -> Voice {
        Voice(id: "scripted:\(name)", engine: "scripted", engineVoice: name, displayName: name, gender: gender, accent: "en-US", pitch: pitch)
    }
}

@Suite struct ShortLinePolicyTests {
    let policy = ShortLinePolicy()

    @Test(arguments: [("Yes.", 1), ("Oh!", 1), ("Hello there.", 3), ("Really? Come here!", 4), ("Bye-bye", 2), ("Route 66", 3), ("the", 1), ("time", 1),
                            // Lexicon phonemes: espeak-ng mnemonics and Piper's IPA, diphthongs as one.
                            ("[[fr'amt@n]]!", 2), ("Mr. [[fɹˈæmtənz]]", 3), ("[[h@l'oU]] there", 3), ("[[ˈmaɪ]]", 1)])
    func countsSyllablesRoughly(text: String, syllables: Int) {
        #expect(ShortLinePolicy.syllables(in: text) == syllables)
    }

    @Test func judgesSpeechLengthAgainstTheText() async throws {
        let engine = ScriptedEngine { _, text in text == "cut" ? .speech(seconds: 0.03) : text == "ramble" ? .speech(seconds: 4) : .speech(seconds: 0.3) }
        let voice = ScriptedEngine.voice("a")
        let fine = try await engine.synthesize("Yes.", voice: voice, settings: SpeechSettings())
        #expect(policy.verdict(for: fine, text: "Yes.") == .plausible)
        let cut = try await engine.synthesize("cut", voice: voice, settings: SpeechSettings())
        guard case .tooShort = policy.verdict(for: cut, text: "Yes.") else { Issue.record("a 30 ms 'Yes' passed"); return }
        let ramble = try await engine.synthesize("ramble", voice: voice, settings: SpeechSettings())
        guard case .tooLong = policy.verdict(for: ramble, text: "Oh!") else { Issue.record("a 4 s 'Oh' passed"); return }
        let silent = try await ScriptedEngine { _, _ in .silence }.synthesize("x", voice: voice, settings: SpeechSettings())
        #expect(policy.verdict(for: silent, text: "Oh!") == .silent)
        // Faster delivery lowers the minimum.
        #expect(policy.verdict(for: PCMAudio(sampleRate: 1000, samples: [Int16](repeating: 5000, count: 70)), text: "Yes.", rate: 1) != .plausible)
        #expect(policy.verdict(for: PCMAudio(sampleRate: 1000, samples: [Int16](repeating: 5000, count: 70)), text: "Yes.", rate: 2) == .plausible)
    }

    @Test func onlyShortLinesAreChecked() {
        #expect(policy.applies(to: "Oh!"))
        #expect(policy.applies(to: "“Yes,” she said."))
        #expect(!policy.applies(to: "The lamps were lit along the harbour wall."))
        #expect(!policy.applies(to: "…"))
    }

    @Test func attemptsNormalizeTheEndingThenAddALeadIn() {
        #expect(policy.attempts(for: "Oh!") == ["Oh!", "Oh.", "... Oh."])
        #expect(policy.attempts(for: "Yes.") == ["Yes.", "... Yes."])
    }
}

@Suite struct ShortLineSynthesizerTests {
    @Test func aLineThatComesOutEmptyIsRetriedWithANormalizedEnding() async throws {
        let engine = ScriptedEngine { _, text in text == "Oh!" ? .emptyAudio : .speech(seconds: 0.3) }
        let outcome = try await ShortLineSynthesizer(engine: engine).synthesize("Oh!", voice: ScriptedEngine.voice("a"), settings: SpeechSettings())
        #expect(outcome.text == "Oh.")
        #expect(outcome.attempts == 2)
        #expect(outcome.voice.id == "scripted:a")
        // Padded with trailing silence so the last sound is not clipped.
        let expected: Int = 3_200 + 4_800 + 1_280  // lead-in and tail silence, 0.3 s of tone, 0.08 s of padding
        #expect(outcome.audio.samples.count == expected)
    }

    @Test func aVoiceThatClipsTheLineIsReplacedByAnotherOfItsEngine() async throws {
        let engine = ScriptedEngine { voice, _ in voice == "a" ? .speech(seconds: 0.02) : .speech(seconds: 0.25) }
        let (a, b) = (ScriptedEngine.voice("a"), ScriptedEngine.voice("b"))
        let outcome = try await ShortLineSynthesizer(engine: engine).synthesize("Yes.", voice: a, settings: SpeechSettings(), alternates: [b])
        #expect(outcome.voice.id == "scripted:b")
        #expect(outcome.text == "Yes.")
        #expect(outcome.attempts == 3)
    }

    @Test func longLinesPassStraightThrough() async throws {
        let engine = ScriptedEngine { _, _ in .speech(seconds: 0.05) }
        let text = "This line is far too long to be judged by its syllables."
        let outcome = try await ShortLineSynthesizer(engine: engine).synthesize(text, voice: ScriptedEngine.voice("a"), settings: SpeechSettings())
        #expect(outcome.attempts == 1)
        let expected: Int = 3_200 + 800  // silence either side and 0.05 s of tone, not padded
        #expect(outcome.audio.samples.count == expected)
    }

    @Test func whenEveryAttemptFailsTheErrorSaysWhatCameOut() async throws {
        let engine = ScriptedEngine { _, _ in .silence }
        do {
            _ = try await ShortLineSynthesizer(engine: engine).synthesize("Oh!", voice: ScriptedEngine.voice("a"), settings: SpeechSettings())
            Issue.record("silence was accepted")
        } catch let error as SpeechError {
            #expect(error.description.contains("silence"))
            #expect(error.description.contains("\"Oh!\""))
        }
    }

    @Test func alternatesAreTheSameEngineSameGenderNearestPitchFirst() {
        let voice = ScriptedEngine.voice("a", pitch: 0)
        let catalogue = [
            ScriptedEngine.voice("far", pitch: 5), ScriptedEngine.voice("near", pitch: 1),
            ScriptedEngine.voice("man", gender: .male, pitch: 0), voice,
            Voice(id: "other:x", engine: "other", engineVoice: "x", displayName: "x", gender: .female),
        ]
        #expect(ShortLineSynthesizer.alternates(for: voice, in: catalogue).map(\.engineVoice) == ["near", "far", "man"])
    }
}
