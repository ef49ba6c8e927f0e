import Audio
import Foundation
import Speech
import Subprocess

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

    /// Most a single run may print: an hour of 48 kHz 16-bit audio, far beyond one segment.
    static let outputLimit = 400 * 1024 * 1024
    /// Engines can be chatty on stderr (festival warns per unknown word); keep enough to explain.
    static let errorLimit = 4 * 1024 * 1024

    /// Runs the executable with `arguments`, writing `input` (if any) to its standard input.
    /// A launch failure, or a non-zero exit when `requireSuccess` (flite exits 1 after printing
    /// its version), throws `SpeechError.engineFailed` with the tail of standard error.
    func run(_ arguments: [String], input: String? = nil, requireSuccess: Bool = true) async throws -> Output {
        let result: ExecutionResult<Void, BytesOutput, StringOutput<UTF8>>
        do {
            if let input {
                result = try await Subprocess.run(
                    .path(.init(executable)), arguments: Arguments(arguments), input: .string(input),
                    output: .bytes(limit: Self.outputLimit), error: .string(limit: Self.errorLimit))
            } else {
                result = try await Subprocess.run(
                    .path(.init(executable)), arguments: Arguments(arguments),
                    output: .bytes(limit: Self.outputLimit), error: .string(limit: Self.errorLimit))
            }
        } catch let error as SubprocessError {
            throw SpeechError.engineFailed(engine: engine, status: "could not run \(executable)", message: "\(error)")
        }
        let standardError = result.standardError
        guard result.terminationStatus.isSuccess || !requireSuccess else {
            throw SpeechError.engineFailed(
                engine: engine, status: result.terminationStatus.description,
                message: Self.excerpt(standardError))
        }
        return Output(standardOutput: result.standardOutput, standardError: standardError)
    }

    /// Checks that synthesized audio holds speech: an engine given nothing speakable returns
    /// a few hundred milliseconds of near-silence (flite's peaks at about 80), not an error.
    static func requireSpeech(_ audio: PCMAudio, engine: String, text: String) throws {
        let peak = audio.samples.lazy.map { Int($0).magnitude }.max() ?? 0
        guard peak >= 400 else { throw SpeechError.emptyAudio(engine: engine, text: text) }
    }

    /// The last few lines of an engine's complaint: where the real error usually is.
    static func excerpt(_ text: String, maxCharacters: Int = 600) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return "no message on standard error" }
        return trimmed.count <= maxCharacters ? trimmed : "…" + trimmed.suffix(maxCharacters)
    }
}
