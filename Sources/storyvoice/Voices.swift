import ArgumentParser
import Audio
import Foundation
import Platform
import Speech
import SpeechEngines
import StoryModel
import StoryWorkflows

struct Voices: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List installed engines and their voices.")

    @Option(help: "Only this engine's voices (espeak-ng, flite, festival).")
    var engine: String?

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        let catalog = await VoiceCatalog.load(from: Engines.available())
        let voices = catalog.voices.filter { engine == nil || $0.engine == engine }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            FileHandle.standardOutput.write(try encoder.encode(voices))
            print()
            return
        }
        for info in catalog.engines where engine == nil || info.id == engine {
            let status = info.installed ? "installed\(info.version.map { ", \($0)" } ?? "")" : "not installed — \(info.installHint ?? "run scripts/setup")"
            print("\(info.name) (\(info.id)): \(status)")
        }
        print()
        let idWidth = min(32, voices.map(\.id.count).max() ?? 10)
        print("\("VOICE".padding(toLength: idWidth, withPad: " ", startingAt: 0))  GENDER   AGE      ACCENT          QUALITY")
        for voice in voices {
            print("\(voice.id.padding(toLength: idWidth, withPad: " ", startingAt: 0))  \(voice.gender.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \(voice.age.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \((voice.accent ?? "-").padding(toLength: 15, withPad: " ", startingAt: 0)) \(voice.quality)")
        }
        print("\n\(voices.count) voice(s)")
    }
}

struct Say: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Speak a line with one voice, to a file.")

    @Argument(help: "What to say.")
    var text: String

    @Option(help: "A voice id from 'storyvoice voices', e.g. flite:slt or espeak-ng:en-gb+f3.")
    var voice: String = "flite:slt"

    @Option(name: .shortAndLong, help: "The audio file to write (.wav, .m4a, .mp3 ...).")
    var output: String

    @Option(help: "Speaking rate, 1 = normal.")
    var rate: Double = 1

    @Option(help: "Pitch shift in semitones.")
    var pitch: Double = 0

    func run() async throws {
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw ValidationError("There is nothing to say.") }
        let outputURL = URL(fileURLWithPath: output)
        guard let format = AudioFormat(fileExtension: outputURL.pathExtension) else {
            throw ValidationError("'\(output)': the output must end in .wav, .m4a, .m4b, .mp3 or .opus.")
        }
        // Only the engine the voice id names is asked for its voices: listing them all would
        // start festival and check every installation for one line.
        let engines = Engines.available()
        let named = engines.filter { voice.hasPrefix("\($0.engineID):") }
        let catalog = await VoiceCatalog.load(from: named.isEmpty ? engines : named)
        guard let chosen = catalog.voice(id: voice), let engine = catalog.engine(for: chosen) else {
            throw ValidationError("There is no installed voice '\(voice)'. Run 'storyvoice voices' to list them.")
        }
        let audio = try await engine.synthesize(text, voice: chosen, settings: SpeechSettings(rate: rate, pitch: pitch))
        if format == .wav {
            try WAV.encode(audio).write(to: outputURL, options: .atomic)
        } else {
            let wav = FileManager.default.temporaryDirectory.appendingPathComponent("storyvoice-say-\(UUID.random().uuidString).wav")
            defer { try? FileManager.default.removeItem(at: wav) }
            try WAV.encode(audio).write(to: wav)
            try await AudioEncoder().encode(wav: wav, to: outputURL, metadata: AudioMetadata(title: String(text.prefix(60)), author: nil, chapters: []))
        }
        print("Wrote \(outputURL.path) (\(String(format: "%.1f", audio.durationSeconds)) s, \(chosen.id))")
    }
}
