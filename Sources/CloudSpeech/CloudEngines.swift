import AsyncHTTPClient
import Foundation
import VendorHTTP
import Logging
import Speech

/// The cloud speech engines, configured from the environment and the user's stored keys.
public enum CloudEngines {
    /// OpenAI, ElevenLabs and Gemini engines, in that order. Each reads its key from `keys`
    /// (a key from Settings wins) or the environment (`OPENAI_API_KEY`, `ELEVENLABS_API_KEY`,
    /// `GEMINI_API_KEY`), and its endpoint from `OPENAI_BASE_URL`, `ELEVENLABS_BASE_URL`,
    /// `GEMINI_BASE_URL`. An engine without a key reports `installed: false` (with a hint) and
    /// offers no voices, so it is listed by `doctor` but never cast. Models come from
    /// `OPENAI_TTS_MODEL`, `ELEVENLABS_MODEL`, `GEMINI_TTS_MODEL` when set.
    ///
    /// - Parameters:
    ///   - concurrency: requests in flight at once per vendor (default ``CloudService/defaultConcurrency``).
    ///   - timeout: seconds for one request attempt.
    public static func configured(
        environment: [String: String] = ProcessInfo.processInfo.environment, keys: [CloudService: Secret] = [:],
        concurrency: [CloudService: Int] = [:], timeout: Double = 60, retry: RetryPolicy = .standard,
        httpClient: HTTPClient = .vendors, logger: Logger = Logger(label: "storyvoice.speech.cloud")
    ) -> [any SpeechSynthesizer] {
        func value(_ name: String) -> String? {
            environment[name].flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
        }
        func transport(_ service: CloudService) -> VendorTransport {
            let key = keys[service].flatMap { $0.value.isEmpty ? nil : $0 } ?? value(service.apiKeyVariable).map(Secret.init)
            let limiter = ConcurrencyLimiter(limit: concurrency[service] ?? service.defaultConcurrency)
            return VendorTransport(key: key, timeout: timeout, retry: retry, limiter: limiter, httpClient: httpClient)
        }
        func base(_ service: CloudService) -> String { value(service.baseURLVariable) ?? service.defaultBaseURL }

        let openai = transport(.openai)
        let elevenlabs = transport(.elevenlabs)
        let gemini = transport(.gemini)
        return [
            OpenAISpeechEngine(
                configuration: .init(model: value("OPENAI_TTS_MODEL") ?? "gpt-4o-mini-tts", baseURL: base(.openai)),
                transport: openai, logger: logger
            ),
            ElevenLabsEngine(
                configuration: .init(model: value("ELEVENLABS_MODEL") ?? "eleven_multilingual_v2", baseURL: base(.elevenlabs)),
                transport: elevenlabs, logger: logger
            ),
            GeminiSpeechEngine(
                configuration: .init(model: value("GEMINI_TTS_MODEL") ?? "gemini-2.5-flash-preview-tts", baseURL: base(.gemini)),
                transport: gemini, logger: logger
            ),
        ]
    }
}
