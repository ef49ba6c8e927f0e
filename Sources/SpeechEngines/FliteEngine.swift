import Audio
import Foundation
import ProcessWorkers
import Speech
import StoryModel

/// CMU Flite with its three Clustergen voices: slt (US female), rms (US male), awb (Scottish male).
///
/// Each synthesis runs `flite` as its own process reading a temporary text file and writing a
/// temporary WAV. Rate uses flite's `duration_stretch`; pitch its `f0_shift`, which scales
/// the voice's own trained F0 mean (so no per-voice defaults need to be kept in step with flite).
public actor FliteEngine: SpeechSynthesizer {
    public nonisolated let engineID = "flite"
    public static let installHint = "Install it with 'sudo apt-get install flite' or run scripts/setup."

    /// The voices StoryVoice offers (all three trained on CMU Arctic speakers, whose names they
    /// keep: festival's HTS voice is the same "slt"), with their median F0 as measured here (slt 168 Hz,
    /// rms 98 Hz, awb 127 Hz) expressed against 180 Hz female / 100 Hz male references.
    static let catalogue: [(name: String, display: String, gender: Gender, accent: String, pitch: Double, style: [String])] = [
        ("slt", "Flite SLT", .female, "en-US", -1.2, ["clear"]),
        ("rms", "Flite RMS", .male, "en-US", -0.3, ["deep"]),
        ("awb", "Flite AWB", .male, "en-GB-scotland", 4.1, ["bright"]),
    ]

    private let executableName: String
    private let locator: ExecutableLocator

    public init(executable: String = "flite", locator: ExecutableLocator = ExecutableLocator()) {
        self.executableName = executable
        self.locator = locator
    }

    public func info() async -> EngineInfo {
        guard let process = process() else {
            return EngineInfo(id: engineID, name: "CMU Flite", version: nil, installed: false, installHint: Self.installHint)
        }
        let output = try? await process.run(["--version"], requireSuccess: false)
        return EngineInfo(
            id: engineID, name: "CMU Flite",
            version: output.flatMap { Self.version(fromVersionOutput: String(decoding: $0.standardOutput, as: UTF8.self)) },
            installed: true, installHint: Self.installHint)
    }

    public func voices() async throws -> [Voice] {
        guard let process = process() else { return [] }
        // `flite -lv` prints "Voices available: kal awb_time kal16 awb rms slt".
        let listing = String(decoding: try await process.run(["-lv"]).standardOutput, as: UTF8.self)
        let available = Set(listing.split(whereSeparator: { $0.isWhitespace || $0 == ":" }).map(String.init))
        return Self.catalogue.filter { available.contains($0.name) }.map { entry in
            Voice(
                id: "\(engineID):\(entry.name)", engine: engineID, engineVoice: entry.name, displayName: entry.display,
                gender: entry.gender, age: .adult, accent: entry.accent, pitch: entry.pitch,
                quality: VoiceQuality.clustergen.rawValue, style: entry.style,
                speaker: "cmu-arctic:\(entry.name)")
        }
    }

    public func synthesize(_ text: String, voice: Voice, settings: SpeechSettings) async throws -> PCMAudio {
        guard let process = process() else {
            throw SpeechError.engineNotInstalled(engine: engineID, hint: Self.installHint)
        }
        guard voice.engine == engineID, Self.catalogue.contains(where: { $0.name == voice.engineVoice }) else {
            throw SpeechError.unknownVoice(voice.id)
        }
        let engineID = engineID
        return try await TemporaryDirectory.with(prefix: engineID) { directory in
            let textPath = directory.path("text.txt"), wavPath = directory.path("speech.wav")
            try Data(EngineText.ascii(text).utf8).write(to: URL(fileURLWithPath: textPath))
            let output = try await process.run([
                "-voice", voice.engineVoice,
                "--setf", "duration_stretch=\(Self.format(1 / min(max(settings.rate, 0.25), 4)))",
                "--setf", "f0_shift=\(Self.format(pow(2, min(max(settings.pitch, -12), 12) / 12)))",
                "-f", textPath, "-o", wavPath,
            ])
            guard let data = FileManager.default.contents(atPath: wavPath), !data.isEmpty else {
                throw SpeechError.engineFailed(engine: engineID, status: "no audio file", message: EngineProcess.excerpt(output.standardError))
            }
            let audio: PCMAudio
            do {
                audio = try WAV.decode(data)
            } catch {
                throw SpeechError.engineFailed(engine: engineID, status: "unreadable audio", message: "\(error)")
            }
            try EngineProcess.requireSpeech(audio, engine: engineID, text: text)
            return AudioAdjustments.applyingGain(min(max(settings.volume, 0), 4), to: audio)
        }
    }

    /// "version: flite-2.2-current Sep 2018 (http://cmuflite.org)" → "2.2-current".
    static func version(fromVersionOutput output: String) -> String? {
        guard let range = output.range(of: "version:") else { return nil }
        guard let token = output[range.upperBound...].split(whereSeparator: \.isWhitespace).first else { return nil }
        return token.hasPrefix("flite-") ? String(token.dropFirst("flite-".count)) : String(token)
    }

    static func format(_ value: Double) -> String {
        String(format: "%.4f", value)
    }

    private func process() -> EngineProcess? {
        locator.locate(executableName).map { EngineProcess(engine: engineID, executable: $0) }
    }
}
