import Audio
import Foundation
import VendorHTTP
import Logging
import Speech
import StoryModel

/// OpenAI text to speech, `POST {base}/v1/audio/speech`, and any server that speaks it.
///
/// Request: `{model, input, voice, response_format, speed?, instructions?}` with
/// `Authorization: Bearer <key>`. `response_format: "pcm"` answers raw 24 kHz mono 16-bit
/// little-endian samples; `"wav"` a RIFF file. A reply that starts with `RIFF` is read as WAV
/// whatever was asked (some compatible servers only make WAV), at whatever rate it declares.
public struct OpenAISpeechEngine: SpeechSynthesizer {
    public struct Configuration: Sendable {
        /// `tts-1`, `tts-1-hd` or `gpt-4o-mini-tts` (or a compatible server's model name).
        public var model: String
        /// Ends in `/v1` or not; `/v1/audio/speech` is appended accordingly.
        public var baseURL: String
        /// `pcm` (raw 24 kHz) or `wav`.
        public var responseFormat: String

        public init(model: String = "gpt-4o-mini-tts", baseURL: String = CloudService.openai.defaultBaseURL, responseFormat: String = "pcm") {
            self.model = model
            self.baseURL = baseURL
            self.responseFormat = responseFormat
        }
    }

    /// OpenAI's speech output rate (`pcm` is always 24 kHz).
    public static let sampleRate = 24_000
    /// The `speed` OpenAI accepts.
    public static let speedRange = 0.25...4.0

    public let configuration: Configuration
    let client: CloudSpeechClient

    public init(configuration: Configuration, transport: VendorTransport, logger: Logger = Logger(label: "storyvoice.speech.openai")) {
        self.configuration = configuration
        self.client = CloudSpeechClient(service: .openai, baseURL: configuration.baseURL, transport: transport, logger: logger)
    }

    public var engineID: String { CloudService.openai.engineID }

    public func info() async -> EngineInfo {
        CloudService.openai.engineInfo(model: configuration.model, hasKey: client.hasKey)
    }

    public func voices() async throws -> [Voice] {
        guard client.hasKey else { return [] }
        return Self.voices(model: configuration.model)
    }

    /// Whether `model` takes `instructions` (gpt-4o-mini-tts and its dated snapshots do; tts-1 and tts-1-hd do not).
    public static func takesInstructions(_ model: String) -> Bool {
        model.hasPrefix("gpt-4o-mini-tts")
    }

    public func synthesize(_ text: String, voice: Voice, settings: SpeechSettings) async throws -> PCMAudio {
        let model = configuration.model
        let key = try client.requireKey(model: model)
        let instructions = Self.takesInstructions(model) ? Self.instructions(for: voice, settings: settings) : nil
        return try await client.synthesize(text, settings: settings, outputRate: Self.sampleRate, speedRange: Self.speedRange) { piece, speed in
            var body: [String: JSONValue] = [
                "model": .string(model), "input": .string(piece), "voice": .string(voice.engineVoice),
                "response_format": .string(configuration.responseFormat),
            ]
            if let speed { body["speed"] = .number(speed) }
            if let instructions { body["instructions"] = .string(instructions) }
            let request = VendorRequest(
                url: client.url(versioned: "/audio/speech"),
                headers: [("content-type", "application/json"), ("authorization", "Bearer \(key.value)")],
                body: JSONValue.object(body).canonicalData
            )
            let reply = try await client.send(request, model: model)
            return try client.audio(from: reply.body, rate: Self.sampleRate, model: model)
        }
    }

    /// The delivery gpt-4o-mini-tts is asked for: the line's own direction when casting gave
    /// one, and the voice's character; always to read the text exactly as written.
    static func instructions(for voice: Voice, settings: SpeechSettings) -> String {
        var parts = ["Read the text exactly as written, as an audiobook performance."]
        if let delivery = settings.delivery?.trimmingCharacters(in: .whitespacesAndNewlines), !delivery.isEmpty {
            parts.append("Delivery: \(delivery).")
        }
        if !voice.style.isEmpty { parts.append("Voice: \(voice.style.joined(separator: ", ")).") }
        return parts.joined(separator: " ")
    }

    /// OpenAI's list price per 1,000 characters: tts-1 $0.015, tts-1-hd $0.030; gpt-4o-mini-tts
    /// is billed by tokens ($0.60/M text in, $12/M audio out), which OpenAI puts at about
    /// $0.015 a minute, about $0.017 per 1,000 characters of English. Unknown models: 0.
    public static func price(model: String) -> Double {
        if model.hasPrefix("tts-1-hd") { return 0.030 }
        if model.hasPrefix("tts-1") { return 0.015 }
        if model.hasPrefix("gpt-4o-mini-tts") { return 0.017 }
        return 0
    }

    /// tts-1-hd and gpt-4o-mini-tts are studio quality; tts-1 (made for low latency) is a tier below.
    public static func quality(model: String) -> VoiceQuality {
        model.hasPrefix("tts-1") && !model.hasPrefix("tts-1-hd") ? .neural : .studio
    }

    /// The built-in voices `model` offers, with attributes from OpenAI's descriptions and
    /// common listening notes. Pitch (semitones from a neutral voice of the gender) is a
    /// listening estimate. ballad and verse are gpt-4o-mini-tts only.
    public static func voices(model: String) -> [Voice] {
        let onlyNewModel: Set<String> = ["ballad", "verse"]
        return catalogue
            .filter { takesInstructions(model) || !model.hasPrefix("tts-1") || !onlyNewModel.contains($0.name) }
            .map { entry in
                Voice(
                    id: "openai:\(entry.name)", engine: CloudService.openai.engineID, engineVoice: entry.name,
                    displayName: "OpenAI \(entry.name.capitalized)", gender: entry.gender, age: .adult, accent: entry.accent,
                    pitch: entry.pitch, quality: quality(model: model).rawValue, style: entry.style,
                    speaker: "openai:\(entry.name)", costPer1000Characters: price(model: model),
                    readsDelivery: takesInstructions(model)
                )
            }
    }

    struct Entry: Sendable {
        var name: String
        var gender: Gender
        var accent: String
        var pitch: Double
        var style: [String]
    }

    static let catalogue: [Entry] = [
        Entry(name: "alloy", gender: .female, accent: "en-US", pitch: -1, style: ["neutral", "balanced", "androgynous"]),
        Entry(name: "ash", gender: .male, accent: "en-US", pitch: 0.5, style: ["confident", "clear", "energetic"]),
        Entry(name: "ballad", gender: .male, accent: "en-GB", pitch: 0, style: ["warm", "melodic", "emotive"]),
        Entry(name: "coral", gender: .female, accent: "en-US", pitch: 1, style: ["warm", "friendly", "cheerful"]),
        Entry(name: "echo", gender: .male, accent: "en-US", pitch: -0.5, style: ["smooth", "calm", "resonant"]),
        Entry(name: "fable", gender: .male, accent: "en-GB", pitch: 1, style: ["expressive", "storytelling", "animated"]),
        Entry(name: "nova", gender: .female, accent: "en-US", pitch: 2, style: ["bright", "energetic", "youthful"]),
        Entry(name: "onyx", gender: .male, accent: "en-US", pitch: -3, style: ["deep", "authoritative", "resonant"]),
        Entry(name: "sage", gender: .female, accent: "en-US", pitch: 0, style: ["calm", "wise", "measured"]),
        Entry(name: "shimmer", gender: .female, accent: "en-US", pitch: 1.5, style: ["soft", "gentle", "clear"]),
        Entry(name: "verse", gender: .male, accent: "en-US", pitch: 0, style: ["versatile", "expressive", "dramatic"]),
    ]
}
