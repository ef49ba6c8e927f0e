import Audio
import Foundation
import Logging
import Speech
import StoryModel
import VendorHTTP

/// OpenAI speech to text, `POST {base}/v1/audio/transcriptions`, and any server that speaks it.
///
/// Request: `multipart/form-data` with `file` (here a 16-bit WAV), `model` (`whisper-1`,
/// `gpt-4o-mini-transcribe`, `gpt-4o-transcribe`) and `response_format=json`, with
/// `Authorization: Bearer <key>`. Answer: `{"text": "…"}`. The API takes files up to 25 MB:
/// voice chat's two-minute limit keeps a 16 kHz recording under 4 MB.
public struct OpenAITranscriber: SpeechTranscriber {
    public static let defaultModel = "gpt-4o-mini-transcribe"

    public let model: String
    let client: CloudSpeechClient

    public init(model: String = defaultModel, baseURL: String = CloudService.openai.defaultBaseURL, transport: VendorTransport,
                logger: Logger = Logger(label: "storyvoice.transcription.openai")) {
        self.model = model
        client = CloudSpeechClient(service: .openai, baseURL: baseURL, transport: transport, logger: logger)
    }

    public func transcribe(_ audio: PCMAudio) async throws -> String {
        let key = try client.requireKey(model: model)
        let boundary = "storyvoice-\(UUID.random().uuidString)"
        var body = Data()
        func part(_ name: String, _ value: String) {
            body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8))
        }
        part("model", model)
        part("response_format", "json")
        body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"speech.wav\"\r\nContent-Type: audio/wav\r\n\r\n".utf8))
        body.append(WAV.encode(audio))
        body.append(Data("\r\n--\(boundary)--\r\n".utf8))
        let request = VendorRequest(
            url: client.url(versioned: "/audio/transcriptions"),
            headers: [("content-type", "multipart/form-data; boundary=\(boundary)"), ("authorization", "Bearer \(key.value)")],
            body: body)
        let reply = try await client.send(request, model: model)
        guard let text = JSONValue(parsing: reply.body)?["text"]?.stringValue else {
            throw client.unreadable(String(decoding: reply.body.prefix(200), as: UTF8.self), model: model)
        }
        return text
    }
}
