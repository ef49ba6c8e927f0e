import Audio
import Foundation
import ProcessWorkers
import Speech
import StoryModel

/// Festival with the HTS voice `cmu_us_slt_arctic_hts`: the best-sounding local voice.
///
/// Each synthesis runs `text2wave` as its own process on a temporary text file. Rate is the
/// HTS engine's own speed setting (`-r`). The HTS engine in Festival 2.5 ignores its
/// half-tone setting, so pitch is shifted here: the voice is synthesized at `rate / k` and
/// resampled by `k = 2^(semitones/12)`, which raises pitch by `k` and restores the duration.
/// Formants move with it, which for the few semitones casting uses reads as a younger or
/// older voice of the same speaker.
public actor FestivalEngine: SpeechSynthesizer {
    public nonisolated let engineID = "festival"
    public static let installHint =
        "Install it with 'sudo apt-get install festival festvox-us-slt-hts' or run scripts/setup."
    public static let voiceName = "cmu_us_slt_arctic_hts"

    private let text2wave: String
    private let festival: String
    private let locator: ExecutableLocator
    private var voiceInstalled: Bool?

    public init(text2wave: String = "text2wave", festival: String = "festival", locator: ExecutableLocator = ExecutableLocator()) {
        self.text2wave = text2wave
        self.festival = festival
        self.locator = locator
    }

    public func info() async -> EngineInfo {
        guard let festivalProcess = locator.locate(festival).map({ EngineProcess(engine: engineID, executable: $0) }),
              locator.locate(text2wave) != nil
        else {
            return EngineInfo(id: engineID, name: "Festival (HTS slt)", version: nil, installed: false, installHint: Self.installHint)
        }
        let output = try? await festivalProcess.run(["--version"])
        let version = output.flatMap { Self.version(fromVersionOutput: String(decoding: $0.standardOutput, as: UTF8.self)) }
        return EngineInfo(
            id: engineID, name: "Festival (HTS slt)", version: version.map { "\($0) \(Self.voiceName)" },
            installed: await hasVoice(), installHint: Self.installHint)
    }

    public func voices() async throws -> [Voice] {
        guard locator.locate(text2wave) != nil, await hasVoice() else { return [] }
        return [Self.voice]
    }

    /// The one voice; its median F0 measured here is 173 Hz (−0.7 semitones against 180 Hz).
    static let voice = Voice(
        id: "festival:\(voiceName)", engine: "festival", engineVoice: voiceName, displayName: "Festival SLT (HTS)",
        gender: .female, age: .adult, accent: "en-US", pitch: -0.7, quality: VoiceQuality.hts.rawValue, style: ["smooth", "calm"],
        speaker: "cmu-arctic:slt")

    public func synthesize(_ text: String, voice: Voice, settings: SpeechSettings) async throws -> PCMAudio {
        guard let path = locator.locate(text2wave) else {
            throw SpeechError.engineNotInstalled(engine: engineID, hint: Self.installHint)
        }
        guard voice.engine == engineID, voice.engineVoice == Self.voiceName else { throw SpeechError.unknownVoice(voice.id) }
        let process = EngineProcess(engine: engineID, executable: path)
        let pitchFactor = pow(2, min(max(settings.pitch, -12), 12) / 12)
        let speed = min(max(settings.rate, 0.25), 4) / pitchFactor
        let engineID = engineID
        return try await TemporaryDirectory.with(prefix: engineID) { directory in
            let textPath = directory.path("text.txt"), wavPath = directory.path("speech.wav")
            try Data(EngineText.ascii(text).utf8).write(to: URL(fileURLWithPath: textPath))
            let output = try await process.run([
                "-eval", "(voice_\(Self.voiceName))",
                "-eval", "(set! hts_engine_params (append hts_engine_params (list (list \"-r\" \(String(format: "%.4f", speed))))))",
                "-scale", String(format: "%.3f", min(max(settings.volume, 0), 4)),
                "-o", wavPath, textPath,
            ])
            guard let data = FileManager.default.contents(atPath: wavPath), !data.isEmpty else {
                throw SpeechError.engineFailed(engine: engineID, status: "no audio file", message: EngineProcess.excerpt(output.standardError))
            }
            var audio: PCMAudio
            do {
                audio = try WAV.decode(data)
            } catch {
                throw SpeechError.engineFailed(engine: engineID, status: "unreadable audio", message: "\(error)")
            }
            try EngineProcess.requireSpeech(audio, engine: engineID, text: text)
            if pitchFactor != 1 {
                let rate = Double(audio.sampleRate)
                audio.samples = AudioAdjustments.resample(audio.samples, from: rate * pitchFactor, to: rate)
            }
            return audio
        }
    }

    /// "festival: Festival Speech Synthesis System: 2.5.0:release December 2017" → "2.5.0".
    static func version(fromVersionOutput output: String) -> String? {
        guard let range = output.range(of: "System:") else { return nil }
        return output[range.upperBound...].split(whereSeparator: { $0.isWhitespace || $0 == ":" }).first.map(String.init)
    }

    /// Whether festival can load the HTS voice (the voice is a separate Debian package).
    private func hasVoice() async -> Bool {
        if let voiceInstalled { return voiceInstalled }
        guard let path = locator.locate(festival) else { return false }
        let output = try? await EngineProcess(engine: engineID, executable: path)
            .run(["--batch", "(print (member_string \"\(Self.voiceName)\" (voice.list)))"])
        let found = output.map { String(decoding: $0.standardOutput, as: UTF8.self).contains(Self.voiceName) } ?? false
        voiceInstalled = found
        return found
    }
}
