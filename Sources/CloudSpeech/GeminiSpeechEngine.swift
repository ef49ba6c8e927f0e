import Audio
import Foundation
import VendorHTTP
import Logging
import Speech
import StoryModel

/// Gemini text to speech: `POST {base}/v1beta/models/{model}:generateContent` (header
/// `x-goog-api-key`) with `generationConfig.responseModalities: ["AUDIO"]` and
/// `speechConfig.voiceConfig.prebuiltVoiceConfig.voiceName`.
///
/// The answer's `candidates[0].content.parts[].inlineData` holds `mimeType`
/// (`audio/L16;codec=pcm;rate=24000`) and base64 `data`: mono 16-bit PCM at the rate the mime
/// type gives, little-endian as Gemini sends it (despite L16's big-endian convention; Google's
/// own samples write it into a WAV unchanged). Data that already starts with `RIFF` is read as
/// WAV rather than wrapped again; empty audio is an error.
public struct GeminiSpeechEngine: SpeechSynthesizer {
    public struct Configuration: Sendable {
        /// `gemini-2.5-flash-preview-tts` (default) or `gemini-2.5-pro-preview-tts`, or a newer TTS model.
        public var model: String
        public var baseURL: String

        public init(model: String = "gemini-2.5-flash-preview-tts", baseURL: String = CloudService.gemini.defaultBaseURL) {
            self.model = model
            self.baseURL = baseURL
            }
    }

    /// Gemini's speech output rate; other rates a reply declares are resampled to it.
    public static let sampleRate = 24_000

    public let configuration: Configuration
    let client: CloudSpeechClient

    public init(configuration: Configuration, transport: VendorTransport, logger: Logger = Logger(label: "storyvoice.speech.gemini")) {
        self.configuration = configuration
        self.client = CloudSpeechClient(service: .gemini, baseURL: configuration.baseURL, transport: transport, logger: logger)
    }

    public var engineID: String { CloudService.gemini.engineID }

    public func info() async -> EngineInfo {
        CloudService.gemini.engineInfo(model: configuration.model, hasKey: client.hasKey)
    }

    public func voices() async throws -> [Voice] {
        guard client.hasKey else { return [] }
        return Self.voices(model: configuration.model)
    }

    /// Gemini has no speed setting: `rate` is not applied, and a pitch shift changes the tempo with it.
    public func synthesize(_ text: String, voice: Voice, settings: SpeechSettings) async throws -> PCMAudio {
        let model = configuration.model
        let key = try client.requireKey(model: model)
        let modelPath = model.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/:"))) ?? model
        return try await client.synthesize(text, settings: settings, outputRate: Self.sampleRate, speedRange: nil) { piece, _ in
            let body: JSONValue = [
                "contents": [["role": "user", "parts": [["text": .string(piece)]]]],
                "generationConfig": [
                    "responseModalities": ["AUDIO"],
                    "speechConfig": ["voiceConfig": ["prebuiltVoiceConfig": ["voiceName": .string(voice.engineVoice)]]],
                ],
            ]
            let request = VendorRequest(
                url: client.baseURL + "/v1beta/models/\(modelPath):generateContent",
                headers: [("content-type", "application/json"), ("x-goog-api-key", key.value)],
                body: body.canonicalData
            )
            let reply = try await client.send(request, model: model)
            return try audio(fromReply: reply.body, text: piece, model: model)
        }
    }

    func audio(fromReply body: Data, text: String, model: String) throws -> PCMAudio {
        guard let json = JSONValue(parsing: body) else { throw client.unreadable("the reply is not JSON", model: model) }
        if let reason = json["promptFeedback"]?["blockReason"]?.stringValue {
            throw CloudSpeechError(.requestRejected(status: 200), service: .gemini, model: model, detail: "the text was blocked (\(reason))")
        }
        let parts = json["candidates"]?[0]?["content"]?["parts"]?.arrayValue ?? []
        guard let inline = parts.lazy.compactMap({ $0["inlineData"] ?? $0["inline_data"] }).first else {
            let finish = json["candidates"]?[0]?["finishReason"]?.stringValue.map { " (finishReason \($0))" } ?? ""
            throw client.unreadable("no candidates[0].content.parts[].inlineData\(finish)", model: model)
        }
        let encoded = inline["data"]?.stringValue ?? ""
        guard let data = Data(base64Encoded: encoded, options: .ignoreUnknownCharacters) else {
            throw client.unreadable("inlineData.data is not base64", model: model)
        }
        guard !data.isEmpty else { throw SpeechError.emptyAudio(engine: CloudService.gemini.displayName, text: text) }
        let mime = inline["mimeType"]?.stringValue ?? inline["mime_type"]?.stringValue ?? ""
        if data.starts(with: Array("RIFF".utf8)) { return try client.audio(from: data, rate: 0, model: model) }
        guard let rate = Self.sampleRate(mimeType: mime) else {
            throw client.unreadable("unsupported audio type “\(mime)” (expected audio/L16 or audio/pcm with a rate)", model: model)
        }
        return try client.audio(from: data, rate: rate, model: model)
    }

    /// The rate of raw PCM from its mime type: `audio/L16;codec=pcm;rate=24000` → 24000. A raw
    /// PCM type without a rate is Gemini's 24 kHz; other types (mp3, ogg …) are nil.
    public static func sampleRate(mimeType: String) -> Int? {
        let fields = mimeType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard let type = fields.first, type == "audio/l16" || type == "audio/pcm" || type == "audio/raw" else { return nil }
        for field in fields.dropFirst() where field.hasPrefix("rate=") {
            guard let rate = Int(field.dropFirst(5)), rate > 0 else { return nil }
            return rate
        }
        return sampleRate
    }

    /// List price per 1,000 characters: Gemini bills text in ($0.50/M Flash, $1/M Pro) and
    /// audio out ($10/M Flash, $20/M Pro, 25 tokens a second); English speech runs about 15
    /// characters a second, so 1,000 characters ≈ 67 s ≈ 1,670 audio tokens.
    public static func price(model: String) -> Double {
        model.contains("pro") ? 0.034 : 0.017
    }

    /// The prebuilt voices, with Google's one-word characterisation of each as the style and the
    /// gender Google's voice list gives. They speak US English by default (any language on request).
    public static func voices(model: String) -> [Voice] {
        catalogue.map { entry in
            Voice(
                id: "gemini:\(entry.name)", engine: CloudService.gemini.engineID, engineVoice: entry.name,
                displayName: "Gemini \(entry.name)", gender: entry.gender, age: entry.age, accent: "en-US", pitch: entry.pitch,
                quality: VoiceQuality.studio.rawValue, style: entry.style, speaker: "gemini:\(entry.name)",
                costPer1000Characters: price(model: model)
            )
        }
    }

    struct Entry: Sendable {
        var name: String
        var gender: Gender
        var style: [String]
        var age: AgeRange = .adult
        var pitch: Double = 0
    }

    static let catalogue: [Entry] = [
        Entry(name: "Zephyr", gender: .female, style: ["bright"], pitch: 1),
        Entry(name: "Puck", gender: .male, style: ["upbeat"], pitch: 1),
        Entry(name: "Charon", gender: .male, style: ["informative"], pitch: -1),
        Entry(name: "Kore", gender: .female, style: ["firm"]),
        Entry(name: "Fenrir", gender: .male, style: ["excitable"], pitch: 0.5),
        Entry(name: "Leda", gender: .female, style: ["youthful"], pitch: 2),
        Entry(name: "Orus", gender: .male, style: ["firm"], pitch: -1.5),
        Entry(name: "Aoede", gender: .female, style: ["breezy"]),
        Entry(name: "Callirrhoe", gender: .female, style: ["easy-going"]),
        Entry(name: "Autonoe", gender: .female, style: ["bright"], pitch: 1),
        Entry(name: "Enceladus", gender: .male, style: ["breathy"], pitch: -0.5),
        Entry(name: "Iapetus", gender: .male, style: ["clear"]),
        Entry(name: "Umbriel", gender: .male, style: ["easy-going"]),
        Entry(name: "Algieba", gender: .male, style: ["smooth"], pitch: -1),
        Entry(name: "Despina", gender: .female, style: ["smooth"]),
        Entry(name: "Erinome", gender: .female, style: ["clear"]),
        Entry(name: "Algenib", gender: .male, style: ["gravelly"], pitch: -2),
        Entry(name: "Rasalgethi", gender: .male, style: ["informative"]),
        Entry(name: "Laomedeia", gender: .female, style: ["upbeat"], pitch: 1),
        Entry(name: "Achernar", gender: .female, style: ["soft"]),
        Entry(name: "Alnilam", gender: .male, style: ["firm"], pitch: -1),
        Entry(name: "Schedar", gender: .male, style: ["even"]),
        Entry(name: "Gacrux", gender: .female, style: ["mature"], pitch: -1.5),
        Entry(name: "Pulcherrima", gender: .female, style: ["forward"]),
        Entry(name: "Achird", gender: .male, style: ["friendly"]),
        Entry(name: "Zubenelgenubi", gender: .male, style: ["casual"]),
        Entry(name: "Vindemiatrix", gender: .female, style: ["gentle"]),
        Entry(name: "Sadachbia", gender: .male, style: ["lively"], pitch: 1),
        Entry(name: "Sadaltager", gender: .male, style: ["knowledgeable"]),
        Entry(name: "Sulafat", gender: .female, style: ["warm"]),
    ]
}
