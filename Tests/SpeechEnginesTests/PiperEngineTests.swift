import Audio
import Foundation
import Speech
import SpeechEngines
import StoryModel
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct PiperEngineTests {
    static let longText = String(repeating: """
        The lamps were lit along the harbour wall when Margaret finally reached the inn. She set \
        her bag down by the fire and asked the landlord whether a letter had come for her. 
        """, count: 4)

    @Test func catalogueOffersJoeAndLabelledDerivedVoices() async throws {
        try #require(Installed.piper, "Piper is not installed; run scripts/setup")
        let voices = try await PiperEngine(configuration: Installed.piperConfiguration(poolSize: 1)).voices()
        let base = try #require(voices.first { $0.id == "piper:en_US-joe-medium" })
        #expect(base.gender == .male && base.accent == "en-US" && base.quality == VoiceQuality.neural.rawValue)
        #expect(!base.style.contains("derived"))
        let derived = voices.filter { $0.style.contains("derived") }
        #expect(derived.count == 2)
        #expect(voices.allSatisfy { $0.speaker == "piper:joe" })
        // Derived voices must be far enough apart in pitch for casting to use them side by side.
        let pitches = voices.map(\.pitch).sorted()
        #expect(zip(pitches, pitches.dropFirst()).allSatisfy { $1 - $0 >= CastingDirector.minimumPitchSeparation })
    }

    @Test func derivedVoiceSoundsLowerThanJoe() async throws {
        try #require(Installed.piper, "Piper is not installed; run scripts/setup")
        let engine = SharedPiper.engine
        let voices = try await engine.voices()
        let joe = try #require(voices.first { $0.engineVoice == "en_US-joe-medium" })
        let deep = try #require(voices.first { $0.engineVoice == "en_US-joe-medium+deep" })
        let text = "Hello there, how are you doing today?"
        let normal = try await engine.synthesize(text, voice: joe, settings: SpeechSettings())
        let lower = try await engine.synthesize(text, voice: deep, settings: SpeechSettings())
        let (f0, lowered) = (try #require(PitchEstimate.median(normal)), try #require(PitchEstimate.median(lower)))
        #expect(lowered / f0 < 0.9, "\(f0) Hz → \(lowered) Hz")
    }

    @Test func workerKilledMidRequestIsRestartedAndTheRequestSucceeds() async throws {
        try #require(Installed.piper, "Piper is not installed; run scripts/setup")
        // The kill has to land while the worker is still answering. On a loaded machine this
        // task is sometimes scheduled only as the answer completes; then the scenario is run
        // again on a new engine (at most three times), since a kill after the answer tests nothing.
        for attempt in 1...3 {
            let engine = PiperEngine(configuration: Installed.piperConfiguration(poolSize: 1))
            let voice = try #require(try await engine.voices().first)
            let request = Task { try await engine.synthesize(Self.longText, voice: voice, settings: SpeechSettings()) }
            // Wait until the worker is busy with the request (it first loads the model), then kill it.
            var victim: Int32?
            for _ in 0..<12_000 where victim == nil {
                victim = await engine.workerProcessIDs().busy.first
                if victim == nil { try await Task.sleep(for: .milliseconds(5)) }
            }
            let pid = try #require(victim, "the worker never became busy")
            #expect(kill(pid, SIGKILL) == 0)
            let audio = try await request.value
            #expect(audio.rms > 0.01)
            #expect(audio.durationSeconds > 10)
            let restarts = await engine.workerRestarts()
            let workers = await engine.workerProcessIDs()
            await engine.shutdown()
            if restarts == 0, attempt < 3 { continue }  // the answer was complete before the kill
            #expect(restarts == 1)
            #expect(workers.idle.count == 1 && !workers.idle.contains(pid))
            return
        }
    }

    /// Issue 47: a worker's memory grew with the longest sentence it was given (583 MB for this
    /// one, spoken whole; 2.2 GB for an export with every pool alive). Spoken in passes of at
    /// most 100 phonemes it stays near 240 MB, and no word is lost at the cuts.
    @Test func aLongSentenceIsSpokenInPassesThatKeepTheWorkerSmall() async throws {
        try #require(Installed.piper, "Piper is not installed; run scripts/setup")
        let sentence = """
            The old woman, who had sat all morning by the window of the hotel, watching the carriages come and go \
            along the avenue, turned at last to her nephew, and with a look that was half a smile and half a \
            reproach, told him that she had lost every rouble she had brought with her from Moscow, and that she \
            would now go home, whatever the general might say about it, and whatever the doctors in Berlin had \
            ordered her to do for the sake of her health and her temper.
            """
        let engine = PiperEngine(configuration: Installed.piperConfiguration(poolSize: 1))
        let voice = try #require(try await engine.voices().first { $0.engineVoice == "en_US-joe-medium" })
        let audio = try await engine.synthesize(sentence, voice: voice, settings: SpeechSettings())
        let worker = try #require(await engine.workerProcessIDs().idle.first)
        let status = try String(contentsOfFile: "/proc/\(worker)/status", encoding: .utf8)
        let peakKilobytes = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
            .flatMap { $0.split(separator: " ").dropFirst().first.flatMap { Int($0) } })
        await engine.shutdown()
        #expect(peakKilobytes < 400 * 1_024, "the worker peaked at \(peakKilobytes / 1_024) MB")
        // 84 words at Joe's pace: every piece was spoken (about 22 s whole).
        #expect(audio.durationSeconds > 18 && audio.durationSeconds < 30, "\(audio.durationSeconds) s")
    }

    @Test func poolOfTwoServesConcurrentRequests() async throws {
        try #require(Installed.piper, "Piper is not installed; run scripts/setup")
        let engine = PiperEngine(configuration: Installed.piperConfiguration(poolSize: 2))
        let voice = try #require(try await engine.voices().first)
        let lines = ["One, said the first.", "Two, said the second.", "Three, said the third.", "Four, said the fourth."]
        let durations = try await withThrowingTaskGroup(of: Double.self) { group in
            for line in lines {
                group.addTask {
                    let audio = try await engine.synthesize(line, voice: voice, settings: SpeechSettings())
                    #expect(audio.rms > 0.01)
                    return audio.durationSeconds
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(durations.count == 4 && durations.allSatisfy { $0 > 0.5 })
        let workers = await engine.workerProcessIDs()
        #expect(workers.idle.count == 2 && workers.busy.isEmpty)
        #expect(await engine.workerRestarts() == 0)
        await engine.shutdown()
    }

    @Test func missingInstallationIsReportedWithAHint() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("no-piper-\(UUID().uuidString)")
        for engine in [PiperEngine(configuration: nil), PiperEngine(configuration: .init(projectDirectory: directory, poolSize: 1))] {
            let info = await engine.info()
            #expect(!info.installed)
            #expect(info.installHint?.contains("scripts/setup") == true)
            #expect(try await engine.voices().isEmpty)
            let voice = PiperEngine.catalogue[0]
            await #expect(throws: SpeechError.self) { try await engine.synthesize("Hello.", voice: voice, settings: SpeechSettings()) }
        }
    }

    @Test func aWorkerThatCannotStartIsExplainedWithItsTraceback() async throws {
        try #require(Installed.piper, "Piper is not installed; run scripts/setup")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("broken-piper-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("piper-worker.py")
        try "raise SystemExit('model file is corrupt')\n".write(to: script, atomically: true, encoding: .utf8)
        let working = Installed.piperConfiguration(poolSize: 1)
        let engine = PiperEngine(configuration: .init(python: working.python, workerScript: script.path, poolSize: 1))
        await #expect {
            _ = try await engine.synthesize("Hello.", voice: PiperEngine.catalogue[0], settings: SpeechSettings())
        } throws: { error in
            guard case SpeechError.engineFailed(let engine, let status, let message) = error else { return false }
            return engine == "piper" && status.contains("did not start") && message.contains("model file is corrupt")
                && message.contains("scripts/setup")
        }
    }
}
