import Audio
import Foundation
import VendorHTTP
import Logging
import Speech
import StoryModel

/// ElevenLabs text to speech.
///
/// Voices: `GET {base}/v1/voices` (header `xi-api-key`) lists the account's voices with labels
/// (gender, age, accent, description, use case). Speech: `POST {base}/v1/text-to-speech/{voice_id}
/// ?output_format=pcm_24000` with `{text, model_id, voice_settings?}` answers raw mono 16-bit
/// little-endian PCM at 24 kHz (a WAV reply is read as WAV).
public struct ElevenLabsEngine: SpeechSynthesizer {
    public struct Configuration: Sendable {
        /// `eleven_multilingual_v2` (default), `eleven_flash_v2_5`, `eleven_turbo_v2_5`, ...
        public var model: String
        public var baseURL: String
        /// A `pcm_<rate>` output format; `pcm_24000` is on every plan (44.1 kHz needs Pro).
        public var sampleRate: Int
        /// US dollars per 1,000 characters, for `Voice.costPer1000Characters`.
        public var pricePer1000Characters: Double

        public init(
            model: String = "eleven_multilingual_v2", baseURL: String = CloudService.elevenlabs.defaultBaseURL,
            sampleRate: Int = 24_000, pricePer1000Characters: Double? = nil
        ) {
            self.model = model
            self.baseURL = baseURL
            self.sampleRate = sampleRate
            self.pricePer1000Characters = pricePer1000Characters ?? ElevenLabsEngine.price(model: model)
        }
    }

    /// The `voice_settings.speed` ElevenLabs accepts.
    public static let speedRange = 0.7...1.2

    public let configuration: Configuration
    let client: CloudSpeechClient

    public init(configuration: Configuration, transport: VendorTransport, logger: Logger = Logger(label: "storyvoice.speech.elevenlabs")) {
        self.configuration = configuration
        self.client = CloudSpeechClient(service: .elevenlabs, baseURL: configuration.baseURL, transport: transport, logger: logger)
    }

    public var engineID: String { CloudService.elevenlabs.engineID }

    public func info() async -> EngineInfo {
        CloudService.elevenlabs.engineInfo(model: configuration.model, hasKey: client.hasKey)
    }

    /// API list prices per 1,000 characters (pay-as-you-go): Flash and Turbo $0.05, the
    /// multilingual and v3 models $0.10. Subscriptions make it cheaper per character.
    public static func price(model: String) -> Double {
        model.contains("flash") || model.contains("turbo") ? 0.05 : 0.10
    }

    public func voices() async throws -> [Voice] {
        guard client.hasKey else { return [] }
        let key = try client.requireKey(model: configuration.model)
        let request = VendorRequest(method: .GET, url: client.baseURL + "/v1/voices", headers: [("accept", "application/json"), ("xi-api-key", key.value)])
        let reply = try await client.send(request, model: "voices")
        guard let json = JSONValue(parsing: reply.body), let list = json["voices"]?.arrayValue else {
            throw client.unreadable("the voices list is not {\"voices\": [...]}", model: "voices")
        }
        return list.compactMap { Self.voice(from: $0, price: configuration.pricePer1000Characters) }
    }

    public func synthesize(_ text: String, voice: Voice, settings: SpeechSettings) async throws -> PCMAudio {
        let model = configuration.model
        let key = try client.requireKey(model: model)
        let rate = configuration.sampleRate
        let voiceID = voice.engineVoice.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? voice.engineVoice
        return try await client.synthesize(text, settings: settings, outputRate: rate, speedRange: Self.speedRange) { piece, speed in
            var body: [String: JSONValue] = ["text": .string(piece), "model_id": .string(model)]
            if let speed { body["voice_settings"] = ["speed": .number(speed)] }
            let request = VendorRequest(
                url: client.baseURL + "/v1/text-to-speech/\(voiceID)?output_format=pcm_\(rate)",
                headers: [("content-type", "application/json"), ("accept", "audio/pcm"), ("xi-api-key", key.value)],
                body: JSONValue.object(body).canonicalData
            )
            let reply = try await client.send(request, model: voice.displayName)
            return try client.audio(from: reply.body, rate: rate, model: model)
        }
    }

    /// A catalogue voice from one entry of `GET /v1/voices`, nil without an id.
    static func voice(from entry: JSONValue, price: Double) -> Voice? {
        guard let id = entry["voice_id"]?.stringValue, !id.isEmpty else { return nil }
        let name = entry["name"]?.stringValue ?? id
        let labels = entry["labels"]
        func label(_ key: String) -> String? {
            labels?[key]?.stringValue?.trimmingCharacters(in: .whitespaces).lowercased().nonEmpty
        }
        let gender: Gender = switch label("gender") ?? "" {
        case "male": .male
        case "female": .female
        case "neutral", "non-binary", "nonbinary", "non_binary": .nonbinary
        default: .unknown
        }
        let age: AgeRange = switch label("age")?.replacingOccurrences(of: "_", with: " ") ?? "" {
        case "child", "kid": .child
        case "teen", "teenager": .teen
        case "old", "elderly", "senior": .elderly
        case "young", "middle aged", "middle-aged", "adult": .adult
        default: .adult
        }
        let accentWord = label("accent")
        let accent = accentWord.flatMap(Self.accentTag)
        var style: [String] = []
        for word in [label("description"), label("descriptive"), label("use_case"), label("use case")].compactMap({ $0 }) {
            for part in word.replacingOccurrences(of: "_", with: " ").split(whereSeparator: { $0 == "," || $0 == "/" }) {
                let trimmed = part.trimmingCharacters(in: .whitespaces)
                if !trimmed.isEmpty, !style.contains(trimmed) { style.append(trimmed) }
            }
        }
        if let accentWord, accent == nil { style.append("\(accentWord) accent") }
        if let category = entry["category"]?.stringValue, category != "premade" { style.append(category) }
        return Voice(
            id: "elevenlabs:\(id)", engine: CloudService.elevenlabs.engineID, engineVoice: id, displayName: name,
            gender: gender, age: age, accent: accent, pitch: 0, quality: VoiceQuality.studio.rawValue, style: style,
            speaker: "elevenlabs:\(id)", costPer1000Characters: price
        )
    }

    /// An accent tag for ElevenLabs' accent label ("american", "british", "australian" …).
    static func accentTag(_ word: String) -> String? {
        let extra = [
            "australian": "en-AU", "irish": "en-IE", "indian": "en-IN", "south african": "en-ZA", "canadian": "en-CA",
            "new zealand": "en-NZ", "american southern": "en-US-south", "southern": "en-US-south",
        ]
        if let tag = extra[word] { return tag }
        return AccentCatalog.tag(forDescription: word)
    }
}

extension String {
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
