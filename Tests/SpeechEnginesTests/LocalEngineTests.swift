import Audio
import Foundation
import ProcessWorkers
import Speech
import SpeechEngines
import StoryModel
import Testing

@Suite struct LocalEngineTests {
    @Test(arguments: EngineCase.allCases)
    func synthesizesSpeechOfPlausibleLength(_ engineCase: EngineCase) async throws {
        try #require(engineCase.isInstalled, "\(engineCase) is not installed; run scripts/setup")
        let voice = try #require(try await engineCase.voice())
        let audio = try await engineCase.engine.synthesize("Hello there.", voice: voice, settings: SpeechSettings())
        #expect(audio.durationSeconds > 0.3 && audio.durationSeconds < 5, "\(audio.durationSeconds) s")
        #expect(audio.rms > 0.01, "rms \(audio.rms)")
        #expect([16000, 22050, 32000, 44100, 48000].contains(audio.sampleRate))
    }

    /// A listener who jumps cancels the lines rendered ahead: their engine runs are killed
    /// mid-way. That must never take the process down (swift-subprocess traps on a pipe writer
    /// left unfinished, so text never goes down a pipe) and the engine must go on working.
    @Test func cancelledSynthesesLeaveTheEngineWorking() async throws {
        try #require(Installed.espeak, "espeak-ng is not installed; run scripts/setup")
        let engine = EspeakEngine()
        let voice = try #require(try await engine.voices().first { $0.id == "espeak-ng:en-us+m3" })
        let long = String(repeating: "The lamps were lit along the harbour wall when Margaret reached the inn. ", count: 300)
        for attempt in 0..<20 {
            let run = Task { try await engine.synthesize(long, voice: voice, settings: SpeechSettings()) }
            try await Task.sleep(for: .milliseconds(attempt % 5 * 3))
            run.cancel()
            _ = await run.result
        }
        let audio = try await engine.synthesize("Still here.", voice: voice, settings: SpeechSettings())
        #expect(audio.durationSeconds > 0.3)
    }

    @Test(arguments: EngineCase.allCases)
    func fasterRateGivesShorterAudio(_ engineCase: EngineCase) async throws {
        try #require(engineCase.isInstalled, "\(engineCase) is not installed; run scripts/setup")
        let voice = try #require(try await engineCase.voice())
        let text = "The quick brown fox jumps over the lazy dog, and then it runs away."
        let normal = try await engineCase.engine.synthesize(text, voice: voice, settings: SpeechSettings(rate: 1))
        let fast = try await engineCase.engine.synthesize(text, voice: voice, settings: SpeechSettings(rate: 1.5))
        #expect(fast.durationSeconds < normal.durationSeconds * 0.85, "\(fast.durationSeconds) vs \(normal.durationSeconds)")
    }

    @Test(arguments: EngineCase.allCases)
    func higherPitchRaisesTheFundamental(_ engineCase: EngineCase) async throws {
        try #require(engineCase.isInstalled, "\(engineCase) is not installed; run scripts/setup")
        let voice = try #require(try await engineCase.voice())
        let text = "Hello there, how are you doing today?"
        let normal = try await engineCase.engine.synthesize(text, voice: voice, settings: SpeechSettings())
        let higher = try await engineCase.engine.synthesize(text, voice: voice, settings: SpeechSettings(pitch: 4))
        let (f0, raised) = (try #require(PitchEstimate.median(normal)), try #require(PitchEstimate.median(higher)))
        // 4 semitones is a factor of 1.26; allow for estimation error.
        #expect(raised / f0 > 1.12, "\(f0) Hz → \(raised) Hz")
        // Pitch must not change the duration much (festival shifts by resampling and compensates).
        // Piper's duration predictor is stochastic (noise_w): one line varies by up to ~15 % from
        // one synthesis to the next, so for Piper compare the mean of three of each.
        let runs = engineCase == .piper ? 3 : 1
        var normalTotal = normal.durationSeconds, higherTotal = higher.durationSeconds
        for _ in 1..<runs {
            normalTotal += try await engineCase.engine.synthesize(text, voice: voice, settings: SpeechSettings()).durationSeconds
            higherTotal += try await engineCase.engine.synthesize(text, voice: voice, settings: SpeechSettings(pitch: 4)).durationSeconds
        }
        #expect(abs(higherTotal - normalTotal) < normalTotal * 0.15, "\(normalTotal / Double(runs)) s → \(higherTotal / Double(runs)) s")
    }

    @Test(arguments: EngineCase.allCases)
    func lowerVolumeGivesQuieterAudio(_ engineCase: EngineCase) async throws {
        try #require(engineCase.isInstalled, "\(engineCase) is not installed; run scripts/setup")
        let voice = try #require(try await engineCase.voice())
        let normal = try await engineCase.engine.synthesize("Hello there.", voice: voice, settings: SpeechSettings())
        let quiet = try await engineCase.engine.synthesize("Hello there.", voice: voice, settings: SpeechSettings(volume: 0.5))
        #expect(quiet.rms < normal.rms * 0.7, "\(quiet.rms) vs \(normal.rms)")
        #expect(quiet.rms > normal.rms * 0.3)
    }

    @Test(arguments: EngineCase.allCases)
    func textStartingWithADashIsSpokenNotParsedAsAnOption(_ engineCase: EngineCase) async throws {
        try #require(engineCase.isInstalled, "\(engineCase) is not installed; run scripts/setup")
        let voice = try #require(try await engineCase.voice())
        let audio = try await engineCase.engine.synthesize("-v --help -5 degrees, she said.", voice: voice, settings: SpeechSettings())
        #expect(audio.durationSeconds > 1)
        #expect(audio.rms > 0.01)
    }

    @Test(arguments: EngineCase.allCases)
    func curlyQuotesAndAccentsAreSpoken(_ engineCase: EngineCase) async throws {
        try #require(engineCase.isInstalled, "\(engineCase) is not installed; run scripts/setup")
        let voice = try #require(try await engineCase.voice())
        let audio = try await engineCase.engine.synthesize("“It’s the café—again…” she said.", voice: voice, settings: SpeechSettings())
        #expect(audio.durationSeconds > 0.8 && audio.durationSeconds < 6)
    }

    @Test(arguments: EngineCase.allCases)
    func unknownVoiceIsAnError(_ engineCase: EngineCase) async throws {
        try #require(engineCase.isInstalled, "\(engineCase) is not installed; run scripts/setup")
        let engine = engineCase.engine
        let bogus = Voice(id: "\(engine.engineID):nobody", engine: engine.engineID, engineVoice: "nobody", displayName: "Nobody", gender: .male)
        await #expect(throws: SpeechError.self) {
            _ = try await engine.synthesize("Hello.", voice: bogus, settings: SpeechSettings())
        }
        let foreign = Voice(id: "other:slt", engine: "other", engineVoice: "slt", displayName: "Other", gender: .female)
        await #expect(throws: SpeechError.self) {
            _ = try await engine.synthesize("Hello.", voice: foreign, settings: SpeechSettings())
        }
    }

    @Test(arguments: EngineCase.allCases)
    func emptyTextIsAnErrorNotSilence(_ engineCase: EngineCase) async throws {
        try #require(engineCase.isInstalled, "\(engineCase) is not installed; run scripts/setup")
        let voice = try #require(try await engineCase.voice())
        await #expect(throws: SpeechError.self) {
            _ = try await engineCase.engine.synthesize("   ", voice: voice, settings: SpeechSettings())
        }
    }

    @Test(arguments: EngineCase.allCases)
    func reportsInstalledWithAVersion(_ engineCase: EngineCase) async throws {
        try #require(engineCase.isInstalled, "\(engineCase) is not installed; run scripts/setup")
        let info = await engineCase.engine.info()
        #expect(info.installed)
        #expect(info.id == engineCase.engine.engineID)
        let version = try #require(info.version)
        #expect(version.first?.isNumber == true, "\(version)")
    }

    @Test func missingEnginesSayHowToInstallThem() async throws {
        let nowhere = ExecutableLocator(searchPath: [FileManager.default.temporaryDirectory.appendingPathComponent("no-such-dir-\(UUID())").path])
        let noProject = PiperEngine.Configuration(projectDirectory: URL(fileURLWithPath: nowhere.searchPath[0]))
        let noKokoro = KokoroEngine.Configuration(projectDirectory: URL(fileURLWithPath: nowhere.searchPath[0]), environment: [:])
        let noHibari = HibariEngine.Configuration(projectDirectory: URL(fileURLWithPath: nowhere.searchPath[0]))
        for engine in LocalEngines.all(locator: nowhere, piper: noProject, kokoro: noKokoro, hibari: noHibari)
            + LocalEngines.all(locator: nowhere, piper: nil, kokoro: nil, hibari: nil).prefix(3) {
            let info = await engine.info()
            #expect(!info.installed)
            #expect(info.installHint?.contains("scripts/setup") == true)
            let voices = try await engine.voices()
            #expect(voices.isEmpty)
        }
        let voice = Voice(id: "espeak-ng:en-us+m3", engine: "espeak-ng", engineVoice: "en-us+m3", displayName: "m3", gender: .male)
        await #expect {
            _ = try await EspeakEngine(locator: nowhere).synthesize("Hello.", voice: voice, settings: SpeechSettings())
        } throws: { error in
            guard case SpeechError.engineNotInstalled(let engine, let hint) = error else { return false }
            return engine == "espeak-ng" && hint.contains("apt-get install espeak-ng")
        }
    }

    @Test func engineCrashIsReportedWithItsStandardError() async throws {
        // A stand-in "espeak-ng" that lists a voice, then fails the synthesis loudly.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sv-fake-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = """
            #!/bin/sh
            case "$1" in
              --voices=en) echo 'Pty Language Age/Gender VoiceName File Other'; echo ' 2  en-us --/M English_(America) gmw/en-US (en 3)' ;;
              --voices=variant) echo 'Pty Language Age/Gender VoiceName File Other'; echo ' 5  variant --/M male3 !v/m3' ;;
              --version) echo 'eSpeak NG text-to-speech: 9.99  Data at: /nonexistent' ;;
              *) cat >/dev/null; echo 'segmentation fault in phoneme table' >&2; exit 139 ;;
            esac
            """
        let path = directory.appendingPathComponent("espeak-ng").path
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        let engine = EspeakEngine(locator: ExecutableLocator(searchPath: [directory.path]))
        #expect(await engine.info().version == "9.99")
        let voice = try #require(try await engine.voices().first)
        #expect(voice.id == "espeak-ng:en-us+m3")
        await #expect {
            _ = try await engine.synthesize("Hello.", voice: voice, settings: SpeechSettings())
        } throws: { error in
            guard case SpeechError.engineFailed(let engine, let status, let message) = error else { return false }
            return engine == "espeak-ng" && status.contains("139") && message.contains("segmentation fault")
        }
    }
}

@Suite struct LocalCatalogueTests {
    @Test func catalogueListsEveryLocalEngineWithGenders() async throws {
        try #require(Installed.espeak && Installed.flite && Installed.festival, "local engines are not installed; run scripts/setup")
        let catalog = await VoiceCatalog.load(from: LocalEngines.all(
            piper: Installed.piperConfiguration(poolSize: 1), kokoro: KokoroEngine.Configuration(projectDirectory: Installed.projectDirectory),
            hibari: HibariEngine.Configuration(projectDirectory: Installed.projectDirectory, poolSize: 1)))
        #expect(catalog.engines.map(\.id) == ["piper", "hibari", "kokoro", "festival", "flite", "espeak-ng"])
        #expect(catalog.engines.allSatisfy { $0.installed || ["piper", "hibari", "kokoro"].contains($0.id) })
        #expect(catalog.engines[0].installed == Installed.piper)
        #expect(catalog.failures.isEmpty)

        let espeak = catalog.voices.filter { $0.engine == "espeak-ng" }
        #expect(espeak.count >= 30)
        #expect(espeak.contains { $0.gender == .female } && espeak.contains { $0.gender == .male })
        #expect(espeak.allSatisfy { $0.gender != .unknown })
        #expect(Set(espeak.compactMap(\.accent)).isSuperset(of: ["en-US", "en-GB", "en-GB-scotland"]))
        // Novelty variants stay out of the catalogue.
        #expect(!espeak.contains { $0.engineVoice.hasSuffix("+whisper") || $0.engineVoice.hasSuffix("+croak") })
        #expect(espeak.contains { $0.id == "espeak-ng:en-us+f3" && $0.gender == .female })

        #expect(catalog.voice(id: "flite:slt")?.gender == .female)
        #expect(catalog.voice(id: "flite:rms")?.gender == .male)
        #expect(catalog.voice(id: "flite:awb")?.accent == "en-GB-scotland")
        let festival = try #require(catalog.voice(id: "festival:slt"))
        #expect(festival.gender == .female)
        // Quality tiers: festival HTS > flite > espeak-ng.
        #expect(festival.quality > catalog.voice(id: "flite:slt")!.quality)
        #expect(catalog.voice(id: "flite:rms")!.quality > espeak[0].quality)
        #expect(catalog.engine(for: festival)?.engineID == "festival")

        // The same recorded speaker on two engines is one family.
        #expect(festival.family == catalog.voice(id: "flite:slt")?.family)
        #expect(festival.family != catalog.voice(id: "flite:rms")?.family)

        // Casting on the real catalogue gives the narrator the best voice: a neural one when
        // installed (hibari's Heart, then Piper's Joe, first by id among equals), else festival's
        // HTS voice. (Kokoro, slower than real time, is rationed by StoryWorkflows' time budget.)
        let realTime = catalog.voices.filter { $0.engine != KokoroEngine.id }
        let neural = realTime.filter { $0.quality >= VoiceQuality.neural.rawValue }
        let cast = CastingDirector().cast(
            StoryAnalysis(title: "T", characters: [Character(id: "c1", name: "A", gender: .male)], chapters: [], segments: []),
            voices: realTime)
        #expect(cast.narrator.voice == (neural.map(\.id).min() ?? festival.id))
        #expect(!Installed.piper || neural.contains { $0.id == "piper:en_US-joe-medium" })
        let withoutPiper = CastingDirector().cast(
            StoryAnalysis(title: "T", characters: [Character(id: "c1", name: "A", gender: .male)], chapters: [], segments: []),
            voices: realTime.filter { $0.quality < VoiceQuality.neural.rawValue })
        #expect(withoutPiper.narrator.voice == festival.id)
    }

    @Test func everyCataloguedEspeakVoiceSpeaks() async throws {
        try #require(Installed.espeak, "espeak-ng is not installed; run scripts/setup")
        let engine = EspeakEngine()
        let voices = try await engine.voices()
        // One voice per variant (accents share the variant file), concurrently as Narration would.
        let byVariant = Dictionary(voices.map { (String($0.engineVoice.split(separator: "+").last ?? ""), $0) }, uniquingKeysWith: { first, _ in first })
        let durations = try await withThrowingTaskGroup(of: (String, Double).self) { group in
            for voice in byVariant.values {
                group.addTask { (voice.id, try await engine.synthesize("Good morning.", voice: voice, settings: SpeechSettings()).durationSeconds) }
            }
            return try await group.reduce(into: [String: Double]()) { $0[$1.0] = $1.1 }
        }
        #expect(durations.count == byVariant.count)
        #expect(durations.values.allSatisfy { $0 > 0.3 && $0 < 4 })
    }
}

@Suite struct ShortLineEngineTests {
    /// Every engine, through the short-line policy, speaks interjections plausibly: not empty,
    /// not clipped, not rambling. Records which attempt succeeded, so a regression shows.
    @Test(arguments: EngineCase.allCases)
    func shortLinesComeOutPlausibly(_ engineCase: EngineCase) async throws {
        try #require(engineCase.isInstalled, "\(engineCase) is not installed; run scripts/setup")
        let engine = engineCase.engine
        let voices = try await engine.voices()
        let voice = try #require(voices.first { $0.id == engineCase.voiceID })
        let synthesizer = ShortLineSynthesizer(engine: engine)
        for line in ["Yes.", "Oh!", "No?", "Hm."] {
            let outcome = try await synthesizer.synthesize(
                line, voice: voice, settings: SpeechSettings(),
                alternates: ShortLineSynthesizer.alternates(for: voice, in: voices).prefix(2).map { $0 })
            #expect(synthesizer.policy.verdict(for: outcome.audio, text: line) == .plausible)
            #expect(outcome.audio.rms > 0.005)
            print("short line \(engineCase.rawValue) \(line): \(outcome.attempts) attempt(s), \(outcome.voice.id), text \(outcome.text), speech \(ShortLinePolicy.speechSeconds(outcome.audio, threshold: 600) ?? 0) s")
        }
    }
}
