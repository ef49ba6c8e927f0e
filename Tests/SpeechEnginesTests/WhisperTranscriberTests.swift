import Audio
import Foundation
import Speech
import SpeechEngines
import Testing

/// The faster-whisper worker on real espeak-ng speech. Needs `.venv` from scripts/setup.
@Suite(.serialized) struct WhisperTranscriberTests {
    static let transcriber = WhisperTranscriber(configuration: .init(projectDirectory: Installed.projectDirectory))

    @Test func transcribesAnEspeakSentenceCloseToItsText() async throws {
        guard Self.transcriber.isInstalled else {
            print("skipped: faster-whisper is not in .venv — run scripts/setup to install it (requirements-whisper.txt)")
            return
        }
        guard Installed.espeak, let voice = try await EspeakEngine().voices().first(where: { $0.id == "espeak-ng:en-us+m3" }) else {
            print("skipped: espeak-ng is not installed (run scripts/setup)")
            return
        }
        let sentence = "The window was left open for twelve years."
        let audio = try await EspeakEngine().synthesize(sentence, voice: voice, settings: SpeechSettings())
        let transcript = try await Self.transcriber.transcribe(audio)
        let wer = WordErrorRate.of(hypothesis: transcript, reference: sentence)
        print("whisper heard \"\(transcript)\" for \"\(sentence)\": WER \(wer)")
        #expect(wer <= 0.25)
        // Same audio, same words (greedy decoding), from the same long-lived worker.
        #expect(try await Self.transcriber.transcribe(audio) == transcript)
        // Requests arriving together share one worker (the actor is re-entered while it starts).
        let fresh = WhisperTranscriber(configuration: .init(projectDirectory: Installed.projectDirectory))
        async let first = fresh.transcribe(audio)
        async let second = fresh.transcribe(audio)
        #expect(try await [first, second] == [transcript, transcript])
        #expect(await fresh.startedWorkers == 1)
        await fresh.shutdown()
        // Silence is heard as (almost) nothing.
        let silence = try await Self.transcriber.transcribe(PCMAudio(sampleRate: 16_000, samples: [Int16](repeating: 0, count: 16_000)))
        #expect(WordErrorRate.words(in: silence).count <= 2)
    }

    @Test func aMissingVenvIsExplained() async throws {
        let missing = WhisperTranscriber(configuration: .init(python: "/nonexistent/python", workerScript: "/nonexistent/w.py"))
        #expect(!missing.isInstalled)
        await #expect(throws: SpeechError.self) { _ = try await missing.transcribe(PCMAudio(sampleRate: 16_000, samples: [0])) }
    }
}
