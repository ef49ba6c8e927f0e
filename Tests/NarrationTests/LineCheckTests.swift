import Audio
import Foundation
import Speech
import SpeechEngines
import StoryModel
import StoryText
import Testing
@testable import Narration

/// Short lines, the pronunciation lexicon and the transcription check, through `Narrator`
/// with the real local engines and a real cache.
@Suite struct LineCheckTests {
    let scratch: URL

    init() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("line-check-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    static let text = """
        Mrs Sappleton came in. "Yes." "Oh!" "No?" "Hm."

        "Framton is late," said Vera. Framton came at last.

        The window stood open all afternoon.
        """

    /// Every quote is dialogue of c1, the rest narration, found by searching the text.
    static func analysis(of text: String = text) -> StoryAnalysis {
        let scalars = Array(text.unicodeScalars)
        var segments: [Segment] = []
        var cursor = 0, inQuote = false, start = 0
        for (index, scalar) in scalars.enumerated() where scalar == "\"" {
            if inQuote {
                segments.append(Segment(start: start, end: index + 1, kind: .dialogue, speaker: "c1", confidence: 1))
                cursor = index + 1
            } else {
                if index > cursor { segments.append(Segment(start: cursor, end: index, kind: .narration)) }
                start = index
            }
            inQuote.toggle()
        }
        if cursor < scalars.count { segments.append(Segment(start: cursor, end: scalars.count, kind: .narration)) }
        return StoryAnalysis(
            title: "Lines", characters: [Character(id: "c1", name: "Vera", gender: .female, lines: 5)],
            chapters: [Chapter(title: "One", start: 0, end: scalars.count)], segments: segments)
    }

    func narrator(transcriber: (any SpeechTranscriber)? = nil) async throws -> Narrator {
        let catalog = await VoiceCatalog.load(from: LocalEngines.all())
        return Narrator(catalog: catalog, cache: try SegmentCache(directory: scratch.appendingPathComponent("cache")), transcriber: transcriber)
    }

    var document: StoryDocument { StoryDocument(title: "Lines", author: "Tester", text: Self.text) }

    @Test(arguments: ["flite:slt", "espeak-ng:en-us+f3", "festival:cmu_us_slt_arctic_hts"])
    func shortLinesNarrateToAudibleSpeechOfPlausibleLength(voiceID: String) async throws {
        let narrator = try await narrator()
        guard narrator.catalog.voice(id: voiceID) != nil else {
            print("skipped: \(voiceID) is not installed (run scripts/setup)")
            return
        }
        let cast = Cast(narrator: VoiceAssignment(voice: "flite:rms"), characters: ["c1": VoiceAssignment(voice: voiceID)])
        let output = scratch.appendingPathComponent("short.wav")
        let first = try await narrator.narrate(document: document, analysis: Self.analysis(), cast: cast, to: output)
        let audio = try WAV.decode(Data(contentsOf: output))
        let scalars = Array(Self.text.unicodeScalars)
        var checked = 0
        for entry in first.timing where entry.kind == .dialogue {
            let line = String(String.UnicodeScalarView(scalars[entry.start..<entry.end]))
            guard ShortLinePolicy().applies(to: line), line.count <= 6 else { continue }
            let from = entry.startMs * audio.sampleRate / 1000, to = min(audio.samples.count, entry.endMs * audio.sampleRate / 1000)
            let slice = PCMAudio(sampleRate: audio.sampleRate, samples: Array(audio.samples[from..<to]))
            let speech = ShortLinePolicy.speechSeconds(slice, threshold: 600) ?? 0
            print("\(voiceID) \(line): \(String(format: "%.2f", speech)) s of speech in \(entry.endMs - entry.startMs) ms")
            #expect(Loudness.rmsDBFS(slice.samples) > -40, "\(line) is silent")
            #expect(speech >= 0.12 && speech <= 1.8, "\(line): \(speech) s of speech")
            checked += 1
        }
        #expect(checked == 4)
        // Where the audio came from is recorded, and a second run finds everything in the cache.
        let again = try await narrator.narrate(document: document, analysis: Self.analysis(), cast: cast, to: scratch.appendingPathComponent("again.wav"))
        #expect(again.synthesized == 0 && again.cacheHits == first.synthesized + first.cacheHits)
    }

    @Test func aShortLineKeysOnItsAlternatesAndALongLineDoesNot() async throws {
        let voice = Voice(id: "flite:slt", engine: "flite", engineVoice: "slt", displayName: "slt", gender: .female)
        let other = Voice(id: "flite:awb", engine: "flite", engineVoice: "awb", displayName: "awb", gender: .male)
        let options = NarrationOptions(), assignment = VoiceAssignment(voice: voice.id)
        func key(_ text: String, _ alternates: [Voice]) -> String {
            Narrator.cacheKey(text: text, voice: voice, assignment: assignment, engineVersion: "1", options: options, alternates: alternates)
        }
        #expect(key("Yes.", []) != key("Yes.", [other]))
        #expect(key("Yes.", [other]) == key("Yes.", [other]))
        let long = "The window stood open all through the long afternoon."
        #expect(key(long, []) == key(long, [other]))
    }

    @Test func aRolesDeliveryReachesTheEngineAndKeysOnlyLinesOfVoicesThatReadIt() async throws {
        let catalog = await VoiceCatalog.load(from: LocalEngines.all())
        let voice = try #require(catalog.voices.first)
        let renderer = LineRenderer(catalog: catalog, options: NarrationOptions(), engineVersions: [:])
        let plain = VoiceAssignment(voice: voice.id)
        var directed = plain
        directed.delivery = "stern, proud; an elderly man"
        let line = try #require(renderer.line(spokenText: "Silence in court.", assignment: directed))
        #expect(line.settings.delivery == "stern, proud; an elderly man")
        // A local engine ignores the direction: editing it re-renders nothing.
        #expect(line.key == renderer.line(spokenText: "Silence in court.", assignment: plain)?.key)

        // OpenAI's voices read it on gpt-4o-mini-tts, not on tts-1 (as `OpenAISpeechEngine.voices(model:)` marks them).
        let directable = Voice(id: "openai:fable", engine: "openai", engineVoice: "fable", displayName: "Fable", gender: .male, readsDelivery: true)
        var tts1 = directable
        tts1.readsDelivery = false
        func key(_ voice: Voice, _ delivery: String?) -> String {
            var assignment = VoiceAssignment(voice: voice.id)
            assignment.delivery = delivery
            return Narrator.cacheKey(text: "Silence in court.", voice: voice, assignment: assignment, engineVersion: "1", options: NarrationOptions())
        }
        #expect(key(directable, "stern") != key(directable, nil))
        #expect(key(directable, "stern") != key(directable, "jolly"))
        #expect(key(tts1, "stern") == key(tts1, nil))
        #expect(key(tts1, "stern") == key(tts1, "jolly"))
    }

    @Test func phonemesKeyOnlyTheLinesOfTheirEngine() {
        let espeak = Voice(id: "espeak-ng:en-us+m3", engine: "espeak-ng", engineVoice: "en-us+m3", displayName: "m3", gender: .male)
        let piper = Voice(id: "piper:en_US-joe-medium", engine: "piper", engineVoice: "en_US-joe-medium", displayName: "Joe", gender: .male)
        let flite = Voice(id: "flite:rms", engine: "flite", engineVoice: "rms", displayName: "rms", gender: .male)
        var options = NarrationOptions()
        options.lexicon["Framton"] = PronunciationLexicon.Entry(respelling: "FRAM-tun", phonemes: ["espeak-ng": "fr'amt@n", "piper": "fɹˈæmtən"])
        func keys(_ text: String) -> [String] {
            [espeak, piper, flite].map {
                Narrator.cacheKey(text: text, voice: $0, assignment: VoiceAssignment(voice: $0.id), engineVersion: "1", options: options)
            }
        }
        let line = "Framton came at last.", other = "The window stood open."
        let (before, otherBefore) = (keys(line), keys(other))

        options.lexicon["Framton"]?.phonemes["espeak-ng"] = "fr'Amt0n"
        let espeakEdited = keys(line)
        #expect(espeakEdited[0] != before[0])
        #expect(Array(espeakEdited[1...]) == Array(before[1...]))

        options.lexicon["Framton"]?.respelling = "FRAMP-tun"
        let respelled = keys(line)
        #expect(Array(respelled[..<2]) == Array(espeakEdited[..<2]))  // both have phonemes: the respelling is not theirs
        #expect(respelled[2] != espeakEdited[2])
        #expect(keys(other) == otherBefore)

        // The render job's engine text is what keyed it.
        let catalog = VoiceCatalog(voices: [espeak, piper, flite], engines: [], synthesizers: [])
        let renderer = LineRenderer(catalog: catalog, options: options, engineVersions: [:])
        #expect(renderer.line(spokenText: line, assignment: VoiceAssignment(voice: espeak.id))?.engineText == "[[fr'Amt0n]] came at last.")
        #expect(renderer.line(spokenText: line, assignment: VoiceAssignment(voice: piper.id))?.engineText == "[[fɹˈæmtən]] came at last.")
        #expect(renderer.line(spokenText: line, assignment: VoiceAssignment(voice: flite.id))?.engineText == "FRAMP-tun came at last.")
    }

    @Test func alternatesAreOtherVoicesOfTheSameEngineAndGender() async throws {
        let catalog = await VoiceCatalog.load(from: LocalEngines.all())
        guard let slt = catalog.voice(id: "espeak-ng:en-us+f3") else { print("skipped: espeak-ng is not installed"); return }
        let alternates = LineRenderer.alternates(for: slt, in: catalog.voices, limit: 2)
        #expect(alternates.count == 2)
        #expect(alternates.allSatisfy { $0.engine == slt.engine && $0.gender == slt.gender && $0.id != slt.id })
    }

    @Test func editingTheLexiconRerendersExactlyTheLinesWithThatWord() async throws {
        let narrator = try await narrator()
        let cast = Cast(narrator: VoiceAssignment(voice: "flite:slt"), characters: ["c1": VoiceAssignment(voice: "flite:rms")])
        let analysis = Self.analysis()
        var options = NarrationOptions()
        let first = try await narrator.narrate(document: document, analysis: analysis, cast: cast, to: scratch.appendingPathComponent("a.wav"), options: options)
        #expect(first.cacheHits == 0)
        let lines = options.planner.plan(text: Self.text, analysis: analysis, cast: cast).map(\.spokenText)
        let withWord = Set(lines.filter { $0.contains("Framton") }).count
        #expect(withWord == 2)

        options.lexicon["Framton"] = "Frampton"
        let edited = try await narrator.narrate(document: document, analysis: analysis, cast: cast, to: scratch.appendingPathComponent("b.wav"), options: options)
        #expect(edited.synthesized == withWord)
        #expect(edited.cacheHits == first.synthesized - withWord)
        // The story's text, and so the timing map's spans and the captions, are untouched.
        #expect(edited.timing.map(\.start) == first.timing.map(\.start))
        #expect(try String(contentsOf: edited.captions, encoding: .utf8).contains("Framton is late"))
        // The engine was given the respelling.
        let keys = try await narrator.renderJobs(for: options.planner.plan(text: Self.text, analysis: analysis, cast: cast), analysis: analysis, options: options)
        let respelled = keys.unique.filter { $0.spokenText.contains("Framton") }
        #expect(respelled.count == 2 && respelled.allSatisfy { $0.engineText.contains("Frampton") && !$0.engineText.contains("Framton") })
        #expect(respelled.allSatisfy { narrator.cache.record(for: $0.key)?.text.contains("Frampton") == true })

        // An entry for a word no line has re-renders nothing.
        options.lexicon["Zanzibar"] = "Zan-zi-bar"
        let unrelated = try await narrator.narrate(document: document, analysis: analysis, cast: cast, to: scratch.appendingPathComponent("c.wav"), options: options)
        #expect(unrelated.synthesized == 0)
    }

    /// A transcriber that always hears the same words, counting its calls.
    actor FixedTranscriber: SpeechTranscriber {
        let heard: String
        var calls = 0
        init(_ heard: String) { self.heard = heard }
        func transcribe(_ audio: PCMAudio) async throws -> String {
            calls += 1
            return heard
        }
    }

    @Test func verificationRetriesLinesThatTranscribeBadlyAndRemembersItsChecks() async throws {
        let transcriber = FixedTranscriber("yes")
        let narrator = try await narrator(transcriber: transcriber)
        let cast = Cast(narrator: VoiceAssignment(voice: "flite:slt"), characters: ["c1": VoiceAssignment(voice: "flite:rms")])
        var options = NarrationOptions()
        options.verify = true
        options.jobs = 1
        let first = try await narrator.narrate(document: document, analysis: Self.analysis(), cast: cast, to: scratch.appendingPathComponent("a.wav"), options: options)
        let report = try #require(first.verification)
        let lines = first.synthesized
        #expect(report.distribution.count == lines)
        #expect(report.perEngine.keys.sorted() == ["flite"])
        // Only "Yes." is heard right; every other line is retried once and none improves.
        #expect(report.retried == lines - 1 && report.improved == 0)
        #expect(report.distribution.median == 1)
        #expect(await transcriber.calls == 1 + 2 * (lines - 1))

        // The checks are kept with the audio: a second run transcribes nothing.
        let again = try await narrator.narrate(document: document, analysis: Self.analysis(), cast: cast, to: scratch.appendingPathComponent("b.wav"), options: options)
        #expect(again.synthesized == 0)
        #expect(again.verification?.distribution == report.distribution)
        #expect(await transcriber.calls == 1 + 2 * (lines - 1))
    }

    @Test func aRespelledLineIsJudgedAgainstWhicheverTextIsNearer() {
        let voice = Voice(id: "flite:slt", engine: "flite", engineVoice: "slt", displayName: "slt", gender: .female)
        let line = LineRenderer.Line(key: "k", spokenText: "said Framton.", engineText: "said FRAM-tun.", voice: voice, alternates: [],
                                     settings: SpeechSettings(), volume: 1)
        #expect(Verification.wordErrorRate(of: "Said Framton.", for: line) == 0)
        #expect(Verification.wordErrorRate(of: "said fram tun", for: line) == 0)
        #expect(Verification.wordErrorRate(of: "said Brompton", for: line) == 0.5)

        // Phonemes are no text to compare with: the story's words are the reference.
        let espeak = Voice(id: "espeak-ng:en", engine: "espeak-ng", engineVoice: "en", displayName: "en", gender: .male)
        let phonemes = LineRenderer.Line(key: "k", spokenText: "said Framton.", engineText: "said [[fr'amt@n]].", voice: espeak, alternates: [],
                                         settings: SpeechSettings(), volume: 1)
        #expect(Verification.wordErrorRate(of: "said Framton", for: phonemes) == 0)
        #expect(Verification.wordErrorRate(of: "said fr amt n", for: phonemes) == 1.5)
    }

    @Test func verificationWithoutATranscriberIsRefused() async throws {
        let narrator = try await narrator()
        var options = NarrationOptions()
        options.verify = true
        await #expect(throws: NarrationError.self) {
            _ = try await narrator.narrate(document: document, analysis: Self.analysis(), cast: NarrationPlannerTests.cast, to: scratch.appendingPathComponent("x.wav"), options: options)
        }
    }
}
