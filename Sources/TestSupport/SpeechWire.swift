import Foundation
import LanguageModels
import VendorHTTP

/// The server side of the cloud speech APIs, written from the vendors' references independently
/// of the engines: OpenAI `POST /v1/audio/speech`, ElevenLabs `GET /v1/voices` and
/// `POST /v1/text-to-speech/{voice_id}`, Gemini `generateContent` with audio output.
public enum SpeechWire {
    /// `count` samples of a 440 Hz tone at `rate`, as the little-endian 16-bit bytes vendors send.
    public static func pcm(samples count: Int, rate: Int = 24_000, amplitude: Double = 8000) -> Data {
        var data = Data(capacity: count * 2)
        for index in 0..<count {
            let value = Int16(amplitude * sin(2 * Double.pi * 440 * Double(index) / Double(rate)))
            withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
        }
        return data
    }

    /// A canonical mono 16-bit WAV file around `pcm`.
    public static func wav(_ pcm: Data, rate: Int) -> Data {
        func le<T: FixedWidthInteger>(_ value: T) -> Data { withUnsafeBytes(of: value.littleEndian) { Data($0) } }
        var data = Data("RIFF".utf8) + le(UInt32(36 + pcm.count)) + Data("WAVE".utf8)
        data += Data("fmt ".utf8) + le(UInt32(16)) + le(UInt16(1)) + le(UInt16(1)) + le(UInt32(rate)) + le(UInt32(rate * 2)) + le(UInt16(2)) + le(UInt16(16))
        data += Data("data".utf8) + le(UInt32(pcm.count)) + pcm
        return data
    }

    /// OpenAI's speech reply: the audio bytes themselves (`audio/pcm` or `audio/wav`).
    public static func openAIAudio(_ audio: Data, contentType: String = "audio/pcm") -> LoopbackReply {
        LoopbackReply(status: 200, headers: [("content-type", contentType)], body: audio)
    }

    /// ElevenLabs' speech reply: raw PCM for a `pcm_*` output format.
    public static func elevenLabsAudio(_ audio: Data) -> LoopbackReply {
        LoopbackReply(status: 200, headers: [("content-type", "audio/pcm")], body: audio)
    }

    /// ElevenLabs' error shape: `{"detail": {"status": "...", "message": "..."}}`.
    public static func elevenLabsError(status: Int, message: String, retryAfter: String? = nil) -> LoopbackReply {
        let code = switch status {
        case 401: "invalid_api_key"
        case 404: "voice_not_found"
        case 429: "too_many_concurrent_requests"
        default: "internal_error"
        }
        return LoopbackReply(
            status: status, json: ["detail": ["status": .string(code), "message": .string(message)]],
            headers: retryAfter.map { [("retry-after", $0)] } ?? []
        )
    }

    /// One voice of `GET /v1/voices`, as ElevenLabs lists premade voices.
    public static func elevenLabsVoice(id: String, name: String, labels: [String: String], category: String = "premade") -> JSONValue {
        [
            "voice_id": .string(id), "name": .string(name), "category": .string(category),
            "labels": .object(labels.mapValues { JSONValue.string($0) }),
            "description": nil, "preview_url": .string("https://storage.example/\(id).mp3"),
            "available_for_tiers": [], "settings": nil,
        ]
    }

    public static func elevenLabsVoices(_ voices: [JSONValue]) -> LoopbackReply {
        LoopbackReply(status: 200, json: ["voices": .array(voices)])
    }

    /// Gemini's generateContent reply carrying audio as base64 inline data.
    public static func geminiAudio(_ audio: Data, mimeType: String = "audio/L16;codec=pcm;rate=24000", model: String = "gemini-2.5-flash-preview-tts") -> LoopbackReply {
        LoopbackReply(status: 200, json: [
            "candidates": [[
                "content": ["role": "model", "parts": [["inlineData": ["mimeType": .string(mimeType), "data": .string(audio.base64EncodedString())]]]],
                "finishReason": "STOP", "index": 0,
            ]],
            "usageMetadata": ["promptTokenCount": 12, "candidatesTokenCount": .number(Double(audio.count / 1920)), "totalTokenCount": 40],
            "modelVersion": .string(model),
        ])
    }
}
