import Audio
import Foundation
import Speech
import SpeechEngines
import StoryModel
import Testing

/// hibari through the real `scripts/hibari-worker.py`: its catalogue, speech Whisper understands,
/// pitch moved by the model's F0 (not by resampling: the length stays), the same line twice
/// giving the same audio, and a bad request answered without losing the worker.
@Suite(.serialized) struct HibariEngineTests {
    static let configuration = HibariEngine.Configuration(projectDirectory: Installed.projectDirectory, poolSize: 1)

    @Test func catalogueOffersTheVoiceAndItsVariantsThreeSemitonesApart() async throws {
        let engine = HibariEngine(configuration: Self.configuration)
        try #require(engine.isInstalled, "hibari is not installed; run scripts/setup")
        let voices = try await engine.voices()
        #expect(voices.map(\.id) == ["hibari:heart", "hibari:heart-low", "hibari:heart-bright", "hibari:heart-young"])
        #expect(voices.allSatisfy { $0.quality == VoiceQuality.neural.rawValue && $0.gender == .female && $0.speaker == "hibari:heart" })
        // One speaker: casting can use them side by side only because their pitches are apart.
        let pitches = voices.map(\.pitch).sorted()
        #expect(zip(pitches, pitches.dropFirst()).allSatisfy { $1 - $0 >= CastingDirector.minimumPitchSeparation })
        #expect(await engine.info().version?.hasPrefix("0.2.1") == true)
    }

    @Test func speaksWordsWhisperUnderstandsAndMovesPitchWithoutChangingLength() async throws {
        let engine = HibariEngine(configuration: Self.configuration)
        try #require(engine.isInstalled, "hibari is not installed; run scripts/setup")
        defer { Task { await engine.shutdown() } }
        let voices = try await engine.voices()
        let heart = try #require(voices.first { $0.engineVoice == "heart" })
        let low = try #require(voices.first { $0.engineVoice == "heart-low" })
        let sentence = "The lamps were lit along the harbour wall when Margaret reached the inn."
        let audio = try await engine.synthesize(sentence, voice: heart, settings: SpeechSettings())
        #expect(audio.sampleRate == 24_000)
        #expect(audio.durationSeconds > 2 && audio.durationSeconds < 8, "\(audio.durationSeconds) s for one sentence")
        // The same request is the same audio (the noise has a fixed seed), so the cache holds.
        #expect(try await engine.synthesize(sentence, voice: heart, settings: SpeechSettings()).samples == audio.samples)

        let transcriber = WhisperTranscriber(configuration: .init(projectDirectory: Installed.projectDirectory))
        if transcriber.isInstalled {
            let heard = try await transcriber.transcribe(audio)
            let wer = WordErrorRate.of(hypothesis: heard, reference: sentence)
            print("whisper heard \"\(heard)\" from hibari:heart: WER \(wer)")
            #expect(wer <= 0.25)
            await transcriber.shutdown()
        }

        // Four semitones up moves F0 about 26 % and leaves the length alone (no resampling trick).
        let raised = try await engine.synthesize(sentence, voice: heart, settings: SpeechSettings(pitch: 4))
        let (high, base) = (try #require(PitchEstimate.median(raised)), try #require(PitchEstimate.median(audio)))
        #expect(high > base * 1.15 && high < base * 1.4, "raised \(high) Hz, own \(base) Hz")
        #expect(abs(raised.durationSeconds - audio.durationSeconds) < 0.1 * audio.durationSeconds)
        // The low variant is lower (measured 148 Hz against 193 Hz).
        let lower = try #require(PitchEstimate.median(try await engine.synthesize(sentence, voice: low, settings: SpeechSettings())))
        #expect(lower < base * 0.9, "low \(lower) Hz, own \(base) Hz")
    }

    @Test func aBadRequestIsAnErrorAndTheWorkerCarriesOn() async throws {
        let engine = HibariEngine(configuration: Self.configuration)
        try #require(engine.isInstalled, "hibari is not installed; run scripts/setup")
        defer { Task { await engine.shutdown() } }
        let heart = try #require(try await engine.voices().first)
        let unknown = Voice(id: "hibari:fenrir", engine: "hibari", engineVoice: "fenrir", displayName: "Fenrir", gender: .male)
        await #expect(throws: SpeechError.self) { try await engine.synthesize("Hello.", voice: unknown, settings: SpeechSettings()) }
        #expect(try await engine.synthesize("Yes.", voice: heart, settings: SpeechSettings()).durationSeconds > 0.2)
        let worker = try #require(await engine.workerProcessIDs().idle.first)
        // Text that phonemizes to nothing is silence, not a dead worker.
        _ = try? await engine.synthesize("…", voice: heart, settings: SpeechSettings())
        #expect(try await engine.synthesize("No.", voice: heart, settings: SpeechSettings()).durationSeconds > 0.2)
        #expect(await engine.workerProcessIDs().idle.first == worker)
    }

    /// A cancelled line stops its work at once: the worker busy with it is killed rather than
    /// left to finish (a whole book's export waits on that), and the next line starts a new one.
    @Test func cancellingALineKillsItsWorkerAndTheNextLineStillSpeaks() async throws {
        let engine = HibariEngine(configuration: Self.configuration)
        try #require(engine.isInstalled, "hibari is not installed; run scripts/setup")
        defer { Task { await engine.shutdown() } }
        let heart = try #require(try await engine.voices().first)
        _ = try await engine.synthesize("Ready.", voice: heart, settings: SpeechSettings())
        // About ten minutes of speech: tens of seconds of work even at hibari's speed.
        let long = Array(repeating: "The morning was cold and grey, and a hard wind came in from the sea along the coast road.", count: 120)
            .joined(separator: " ")
        let line = Task { try await engine.synthesize(long, voice: heart, settings: SpeechSettings()) }
        var busy: Int32?
        for _ in 0..<3000 where busy == nil {
            busy = await engine.workerProcessIDs().busy.first
            if busy == nil { try await Task.sleep(for: .milliseconds(10)) }
        }
        let worker = try #require(busy, "the line never reached a worker")
        line.cancel()
        await #expect(throws: CancellationError.self) { _ = try await line.value }
        // Killed, not finishing the line in the background.
        var alive = true
        for _ in 0..<500 where alive {
            alive = KokoroEngineTests.isAlive(worker)
            if alive { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(!alive, "worker \(worker) still runs the cancelled line")
        #expect(await engine.workerProcessIDs().busy.isEmpty)
        #expect(try await engine.synthesize("Yes.", voice: heart, settings: SpeechSettings()).durationSeconds > 0.2)
    }

    @Test func withoutTheVenvItIsNotInstalledAndSaysHow() async throws {
        let engine = HibariEngine(configuration: .init(projectDirectory: URL(fileURLWithPath: "/nonexistent"), poolSize: 1))
        #expect(!engine.isInstalled)
        #expect(try await engine.voices().isEmpty)
        let voice = try #require(HibariEngine.catalogue.first)
        await #expect(throws: SpeechError.self) { try await engine.synthesize("Hello.", voice: voice, settings: SpeechSettings()) }
        #expect(await engine.info().installHint?.contains("scripts/setup") == true)
    }
}
