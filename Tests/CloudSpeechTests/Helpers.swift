import Audio
import CloudSpeech
import Foundation
import LanguageModels
import Logging
import Speech
import StoryModel
import TestSupport
import VendorHTTP

/// A key that must never show up anywhere but a request header.
let testKey = "xi-loopback-5c8e2a7f91d3b4066789"

/// Fast retries and generous timeouts: two shared cores make short timeouts flake.
func makeTransport(
    key: String? = testKey, retry: RetryPolicy = RetryPolicy(maxAttempts: 3, baseDelay: 0.01, maxDelay: 0.05),
    limiter: ConcurrencyLimiter = ConcurrencyLimiter(limit: 4),
    sleep: @escaping @Sendable (Double) async throws -> Void = { try await Task.sleep(for: .seconds($0)) }
) -> VendorTransport {
    VendorTransport(key: key.map(Secret.init), timeout: loopbackTimeout, retry: retry, limiter: limiter, sleep: sleep)
}

let quietLogger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

func openAI(_ server: LoopbackServer, model: String = "gpt-4o-mini-tts", format: String = "pcm", key: String? = testKey, logger: Logger = quietLogger,
            sleep: @escaping @Sendable (Double) async throws -> Void = { try await Task.sleep(for: .seconds($0)) }) -> OpenAISpeechEngine {
    OpenAISpeechEngine(configuration: .init(model: model, baseURL: server.baseURL + "/v1", responseFormat: format), transport: makeTransport(key: key, sleep: sleep), logger: logger)
}

func elevenLabs(_ server: LoopbackServer, key: String? = testKey, logger: Logger = quietLogger) -> ElevenLabsEngine {
    ElevenLabsEngine(configuration: .init(baseURL: server.baseURL), transport: makeTransport(key: key), logger: logger)
}

func gemini(_ server: LoopbackServer, key: String? = testKey, logger: Logger = quietLogger) -> GeminiSpeechEngine {
    GeminiSpeechEngine(configuration: .init(baseURL: server.baseURL), transport: makeTransport(key: key), logger: logger)
}

func voice(_ engine: CloudService, _ name: String, style: [String] = []) -> Voice {
    Voice(id: "\(engine.engineID):\(name)", engine: engine.engineID, engineVoice: name, displayName: name, gender: .female, style: style)
}

/// Answers every speech request with `samples` samples of tone at 24 kHz in the vendor's format.
func speaking(_ service: CloudService, samples: Int = 2400) -> LoopbackServer.Handler {
    { _ in
        let pcm = SpeechWire.pcm(samples: samples)
        return switch service {
        case .openai: SpeechWire.openAIAudio(pcm)
        case .elevenlabs: SpeechWire.elevenLabsAudio(pcm)
        case .gemini: SpeechWire.geminiAudio(pcm)
        }
    }
}

/// A story paragraph of about `characters` characters, sentences of varied length.
func longText(characters: Int) -> String {
    let sentences = [
        "The rain had not stopped for three days, and the river was climbing the steps of the old mill.",
        "Martha watched it from the window.",
        "“If it reaches the fourth step,” her father had said, “we leave, and we do not argue about the cat.”",
        "It was on the third step now, brown and quick and full of branches.",
        "She counted the stairs again, as if counting could hold the water back!",
        "Would the bridge hold?",
    ]
    var text = ""
    var index = 0
    while text.count < characters {
        text += (text.isEmpty ? "" : " ") + sentences[index % sentences.count]
        index += 1
    }
    return text
}
