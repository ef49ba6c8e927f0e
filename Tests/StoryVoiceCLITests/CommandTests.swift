import Audio
import Foundation
import ObjectStorage
import StoryModel
import Testing

@Suite struct CommandTests {
    static let sample = "examples/the-open-window.txt"

    @Test func analyzeJSONTilesTheTextAndNamesTheSpeakers() async throws {
        let result = try await CLI.run(["analyze", Self.sample, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let analysis = try JSONDecoder().decode(StoryAnalysis.self, from: Data(result.stdout.utf8))
        let text = try String(contentsOf: CLI.repositoryRoot.appendingPathComponent(Self.sample), encoding: .utf8)
        var position = 0
        for segment in analysis.segments {
            #expect(segment.start == position)
            #expect(segment.end > segment.start)
            position = segment.end
        }
        #expect(position == text.unicodeScalars.count)
        #expect(analysis.segments.contains { $0.kind == .dialogue && $0.speaker != nil })
        #expect(analysis.characters.contains { ([$0.name] + $0.aliases).contains { $0.contains("Framton") } })
        // The JSON shape promises an explicit null speaker on narration.
        #expect(result.stdout.contains("\"speaker\":null"))
    }

    @Test func analyzeTextPrintsTheCastAndTheScript() async throws {
        let result = try await CLI.run(["analyze", Self.sample])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Cast"))
        #expect(result.stdout.contains("Framton"))
        #expect(result.stdout.contains("(Narration)"))
    }

    @Test func badInputsFailClearlyAndWriteNothing() async throws {
        let scratch = try CLI.scratchDirectory()
        let empty = scratch.appendingPathComponent("empty.txt")
        try Data().write(to: empty)
        let binary = scratch.appendingPathComponent("photo.txt")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0, 1, 2, 3]).write(to: binary)
        for (file, word) in [(empty, "empty"), (binary, "png"), (scratch.appendingPathComponent("missing.txt"), "no file")] {
            let output = scratch.appendingPathComponent("out.m4b")
            let result = try await CLI.run(["narrate", file.path, "-o", output.path])
            #expect(result.status != 0)
            #expect(result.stderr.lowercased().contains(word), "stderr: \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output.path))
        }
        let tooBig = scratch.appendingPathComponent("big.txt")
        try Data(String(repeating: "All work and no play. ", count: 60_000).utf8).write(to: tooBig)
        let result = try await CLI.run(["analyze", tooBig.path, "--max-size", "1"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--max-size"), "stderr: \(result.stderr)")
    }

    @Test func narrateWritesAudiobookTimingCaptionsAndCastAndHonoursAnEditedCast() async throws {
        let scratch = try CLI.scratchDirectory()
        let cache = scratch.appendingPathComponent("cache")
        let output = scratch.appendingPathComponent("sample.m4b")
        let first = try await CLI.run(["narrate", Self.sample, "-o", output.path], cacheDirectory: cache)
        #expect(first.status == 0, "\(first.stderr)")
        for ext in ["m4b", "timing.json", "vtt", "cast.json"] {
            #expect(FileManager.default.fileExists(atPath: scratch.appendingPathComponent("sample.\(ext)").path), "missing .\(ext)")
        }
        let probe = try await AudioProber.probe(output)
        let timing = try TimingMapFile.read(scratch.appendingPathComponent("sample.timing.json"))
        #expect(abs(probe.durationSeconds - Double(timing.last!.endMs) / 1000) < 1.5)

        // Give one speaking character another voice: only their lines render again.
        let castURL = scratch.appendingPathComponent("sample.cast.json")
        var cast = try JSONDecoder().decode(Cast.self, from: Data(contentsOf: castURL))
        let speakers = Set(timing.compactMap(\.speaker))
        let target = try #require(speakers.sorted().first)
        let used = Set(cast.characters.values.map(\.voice) + [cast.narrator.voice])
        let spare = try #require(["flite:awb", "flite:rms", "flite:slt", "espeak-ng:en-gb-scotland+m7", "espeak-ng:en-us+f5"].first { !used.contains($0) })
        cast.characters[target]?.voice = spare
        try JSONEncoder().encode(cast).write(to: castURL)
        let again = try await CLI.run(["narrate", Self.sample, "-o", output.path, "--cast", castURL.path], cacheDirectory: cache)
        #expect(again.status == 0, "\(again.stderr)")
        let targetLines = timing.filter { $0.speaker == target }.count
        let synthesized = try #require(Self.synthesizedCount(again.stdout), "stdout: \(again.stdout)")
        #expect(synthesized > 0 && synthesized <= targetLines)
        #expect(first.stdout.contains("from cache") && Self.synthesizedCount(first.stdout)! > targetLines)
    }

    @Test func narrateTakesALexiconAndAnEditRerendersOnlyTheLinesWithTheWord() async throws {
        let scratch = try CLI.scratchDirectory()
        let cache = scratch.appendingPathComponent("cache")
        let story = scratch.appendingPathComponent("visit.txt")
        try "The Visit\n\nFramton came in at four.\n\nThe window stood open.\n\n\"Framton is late,\" said Vera.\n".write(to: story, atomically: true, encoding: .utf8)
        let lexicon = scratch.appendingPathComponent("lexicon.txt")
        try "# names\nVera = VEER-uh\n".write(to: lexicon, atomically: true, encoding: .utf8)
        let output = scratch.appendingPathComponent("visit.wav")
        let first = try await CLI.run(["narrate", story.path, "-o", output.path, "--lexicon", lexicon.path], cacheDirectory: cache)
        #expect(first.status == 0, "\(first.stderr)")
        try "# names\nVera = VEER-uh\nFramton = FRAM-tun\n".write(to: lexicon, atomically: true, encoding: .utf8)
        let again = try await CLI.run(["narrate", story.path, "-o", output.path, "--lexicon", lexicon.path], cacheDirectory: cache)
        #expect(again.status == 0, "\(again.stderr)")
        let synthesized = try #require(Self.synthesizedCount(again.stdout), "stdout: \(again.stdout)")
        #expect(synthesized >= 1 && synthesized <= 2)  // the lines with "Framton", nothing else
        #expect(Self.synthesizedCount(first.stdout)! > synthesized)

        try "Framton FRAM-tun\n".write(to: lexicon, atomically: true, encoding: .utf8)
        let bad = try await CLI.run(["narrate", story.path, "-o", output.path, "--lexicon", lexicon.path], cacheDirectory: cache)
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("lexicon.txt:1"), "stderr: \(bad.stderr)")
    }

    /// N in "N line(s) synthesized".
    static func synthesizedCount(_ stdout: String) -> Int? {
        guard let range = stdout.range(of: " line(s) synthesized") else { return nil }
        return Int(stdout[..<range.lowerBound].split(separator: " ").last ?? "")
    }

    @Test func sayWritesSpeechWithTheChosenVoice() async throws {
        let scratch = try CLI.scratchDirectory()
        let output = scratch.appendingPathComponent("hello.wav")
        let result = try await CLI.run(["say", "Hello there", "--voice", "flite:slt", "-o", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        let audio = try WAV.decode(Data(contentsOf: output))
        #expect(audio.durationSeconds > 0.3)
        #expect(Loudness.rmsDBFS(audio.samples) > -40)
        let unknown = try await CLI.run(["say", "Hello", "--voice", "nosuch:voice", "-o", output.path])
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("storyvoice voices"))
    }

    @Test("doctor checks the shared store by writing, reading and deleting, and never prints its secret",
          .enabled(if: ProcessInfo.processInfo.environment["STORYVOICE_TEST_S3_URL"] != nil, "STORYVOICE_TEST_S3_URL is not set (make test starts SeaweedFS)"))
    func doctorChecksTheSharedStore() async throws {
        let url = try #require(ProcessInfo.processInfo.environment["STORYVOICE_TEST_S3_URL"])
        let secret = try #require(URLComponents(string: url)?.password)
        let good = try await CLI.run(["doctor"], environment: ["STORYVOICE_S3_URL": url])
        #expect(good.stdout.contains("wrote, read and deleted a probe"), "\(good.stdout)")
        let wrong = try await CLI.run(["doctor"], environment: ["STORYVOICE_S3_URL": url.replacingOccurrences(of: ":\(secret)@", with: ":wrong\(secret)@")])
        #expect(wrong.stdout.contains("✗") && wrong.stdout.contains("SignatureDoesNotMatch"), "\(wrong.stdout)")
        #expect(!(good.stdout + good.stderr + wrong.stdout + wrong.stderr).contains(secret))
        let unset = try await CLI.run(["doctor"], environment: ["STORYVOICE_S3_URL": ""])
        #expect(unset.stdout.contains("stay in the data directory"), "\(unset.stdout)")

        // The same store in parts, as secret stores hand them out; half of it is refused by name.
        let location = try #require(S3Location(url: url))
        let parts = [
            "STORYVOICE_S3_URL": "", "STORYVOICE_S3_ENDPOINT": location.endpoint, "STORYVOICE_S3_BUCKET": location.bucket,
            "STORYVOICE_S3_ACCESS_KEY": location.accessKey, "STORYVOICE_S3_SECRET_KEY": location.secretKey, "STORYVOICE_S3_REGION": location.region,
        ]
        let split = try await CLI.run(["doctor"], environment: parts)
        #expect(split.stdout.contains("wrote, read and deleted a probe"), "\(split.stdout)")
        let half = try await CLI.run(["doctor"], environment: parts.merging(["STORYVOICE_S3_SECRET_KEY": ""]) { _, new in new })
        #expect(half.stdout.contains("✗ the store is half set: STORYVOICE_S3_SECRET_KEY missing"), "\(half.stdout)")
        #expect(!(split.stdout + split.stderr + half.stdout + half.stderr).contains(secret))
    }

    @Test func voicesAndDoctorReportTheInstalledEngines() async throws {
        let voices = try await CLI.run(["voices"])
        #expect(voices.status == 0)
        #expect(voices.stdout.contains("flite:slt"))
        #expect(voices.stdout.contains("espeak-ng:"))
        let doctor = try await CLI.run(["doctor"])
        #expect(doctor.status == 0, "\(doctor.stderr)")
        #expect(doctor.stdout.contains("ffmpeg"))
    }
}
