import Audio
import StoryModel

/// What an engine says about itself; `storyvoice doctor` prints these.
public struct EngineInfo: Codable, Sendable, Hashable {
    public var id: String
    public var name: String
    public var version: String?
    public var installed: Bool
    /// How to install it when it is missing.
    public var installHint: String?

    public init(id: String, name: String, version: String?, installed: Bool, installHint: String? = nil) {
        self.id = id
        self.name = name
        self.version = version
        self.installed = installed
        self.installHint = installHint
    }
}

/// Delivery settings for one synthesis.
public struct SpeechSettings: Codable, Sendable, Hashable {
    /// Rate multiplier, 1 = normal.
    public var rate: Double
    /// Pitch shift in semitones.
    public var pitch: Double
    /// Volume multiplier.
    public var volume: Double
    /// How to perform the line, in words ("weary, sardonic old sailor; slow"), for engines that
    /// take directions (OpenAI gpt-4o-mini-tts `instructions`); others ignore it.
    public var delivery: String?

    public init(rate: Double = 1, pitch: Double = 0, volume: Double = 1, delivery: String? = nil) {
        self.rate = rate
        self.pitch = pitch
        self.volume = volume
        self.delivery = delivery
    }

    public init(_ assignment: VoiceAssignment) {
        self.init(rate: assignment.rate, pitch: assignment.pitch, volume: assignment.volume)
    }
}

/// A text-to-speech engine.
public protocol SpeechSynthesizer: Sendable {
    /// The engine id that prefixes its voice ids (`espeak-ng`, `flite`, `festival`).
    var engineID: String { get }
    func info() async -> EngineInfo
    /// The voices this engine offers; empty when it is not installed.
    func voices() async throws -> [Voice]
    func synthesize(_ text: String, voice: Voice, settings: SpeechSettings) async throws -> PCMAudio
    /// Frees what the engine holds while idle (worker processes with a model loaded); the next
    /// synthesis takes it up again. Engines that hold nothing do nothing.
    func releaseIdleResources() async
}

extension SpeechSynthesizer {
    public func releaseIdleResources() async {}
}

public enum SpeechError: Error, Sendable, CustomStringConvertible {
    case engineNotInstalled(engine: String, hint: String)
    case unknownVoice(String)
    case engineFailed(engine: String, status: String, message: String)
    case emptyAudio(engine: String, text: String)

    public var description: String {
        switch self {
        case .engineNotInstalled(let engine, let hint):
            "The \(engine) speech engine is not installed. \(hint)"
        case .unknownVoice(let id):
            "There is no voice '\(id)'. Run 'storyvoice voices' to list the installed voices."
        case .engineFailed(let engine, let status, let message):
            "\(engine) failed (\(status)): \(message)"
        case .emptyAudio(let engine, let text):
            "\(engine) produced no audio for \"\(text.prefix(60))\"."
        }
    }
}
