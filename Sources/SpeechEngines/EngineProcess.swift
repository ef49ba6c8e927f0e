import Audio
import Foundation
import Speech
import ProcessWorkers

/// Runs one engine process to completion and collects what it printed.
///
/// Every synthesis is its own process: espeak-ng's library keeps global state and is GPL,
/// flite and festival load a voice per run anyway, and a crash takes down one line, not
/// StoryVoice.
struct EngineProcess: Sendable {
    /// The engine id used in error messages.
    let engine: String
    /// The executable's absolute path.
    let executable: String

    struct Output: Sendable {
        var standardOutput: [UInt8]
        var standardError: String
    }

    /// Most a single run may print by default; syntheses pass a limit sized to their text (see
    /// `audioLimit(forText:)`).
    static let defaultOutputLimit = 1024 * 1024
    /// Room for the audio of `text` spoken at its slowest (espeak-ng's 80 words a minute with
    /// long pauses, about a quarter second per character) at 48 kHz, 16-bit.
    static func audioLimit(forText text: String) -> Int {
        1024 * 1024 + text.utf8.count * 24_000
    }

    /// Engines can be chatty on stderr (festival warns per unknown word); keep enough to explain.
    static let errorLimit = 256 * 1024

    /// Runs the executable with `arguments` and no standard input (text goes in files). A launch
    /// failure, or a non-zero exit when `requireSuccess` (flite exits 1 after printing its
    /// version), throws `SpeechError.engineFailed` with the tail of standard error.
    func run(_ arguments: [String], outputLimit: Int = defaultOutputLimit, requireSuccess: Bool = true) async throws -> Output {
        let result: ChildRun.Result
        do {
            result = try await ChildRun.run(executable, arguments, output: .collected(limit: outputLimit), errorLimit: Self.errorLimit)
        } catch let error as ChildProcess.Failure {
            // No descriptor left for its streams (EMFILE), say.
            throw SpeechError.engineFailed(engine: engine, status: "could not run \(executable)", message: "\(error)")
        } catch let error as ChildRun.OutputTooLong {
            throw SpeechError.engineFailed(engine: engine, status: "too much output", message: "\(error)")
        }
        guard result.status.isSuccess || !requireSuccess else {
            throw SpeechError.engineFailed(
                engine: engine, status: result.status.description,
                message: Self.excerpt(result.errorText))
        }
        return Output(standardOutput: result.output, standardError: result.errorText)
    }

    /// Checks that synthesized audio holds speech: an engine given nothing speakable returns
    /// a few hundred milliseconds of near-silence (flite's peaks at about 80), not an error.
    static func requireSpeech(_ audio: PCMAudio, engine: String, text: String) throws {
        // Speech crosses the threshold within its first syllable, so this rarely scans far.
        guard audio.samples.contains(where: { $0 >= 400 || $0 <= -400 }) else {
            throw SpeechError.emptyAudio(engine: engine, text: text)
        }
    }

    /// The last few lines of an engine's complaint: where the real error usually is.
    static func excerpt(_ text: String, maxCharacters: Int = 600) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return "no message on standard error" }
        return trimmed.count <= maxCharacters ? trimmed : "…" + trimmed.suffix(maxCharacters)
    }
}
