/// A remote service StoryVoice talks to over HTTP with a user's or the server's key: the one
/// vendor id that keys, errors and transports share. Language-model providers
/// (`LanguageModels.Provider`) and cloud speech services (`CloudService`) are the subsets each
/// area supports, and take their names and variables from here.
public enum Vendor: String, Sendable, Hashable, Codable, CaseIterable {
    case openai
    case anthropic
    case gemini
    case elevenlabs
    /// Any server speaking OpenAI's API: Ollama, llama.cpp, vLLM.
    case openaiCompatible = "openai-compatible"
    /// StoryVoice's own language model on this machine (a llama.cpp server it starts, bound to
    /// 127.0.0.1 with a key of its own).
    case local

    public var displayName: String {
        switch self {
        case .openai: "OpenAI"
        case .anthropic: "Anthropic"
        case .gemini: "Gemini"
        case .elevenlabs: "ElevenLabs"
        case .openaiCompatible: "OpenAI-compatible server"
        case .local: "the local model"
        }
    }

    /// The environment variable holding the API key, as the vendors' own SDKs read it.
    public var apiKeyVariable: String {
        switch self {
        case .openai, .openaiCompatible: "OPENAI_API_KEY"
        case .anthropic: "ANTHROPIC_API_KEY"
        case .gemini: "GEMINI_API_KEY"
        case .elevenlabs: "ELEVENLABS_API_KEY"
        // Generated for each server start; never the user's to set.
        case .local: "STORYVOICE_LOCAL_MODEL_KEY"
        }
    }

    /// The environment variable that overrides the base URL, as the vendors' SDKs read it.
    public var baseURLVariable: String? {
        switch self {
        case .openai: "OPENAI_BASE_URL"
        case .anthropic: "ANTHROPIC_BASE_URL"
        case .gemini: "GEMINI_BASE_URL"
        case .elevenlabs: "ELEVENLABS_BASE_URL"
        case .openaiCompatible, .local: nil
        }
    }

    /// The public endpoint. OpenAI's includes `/v1`, as `OPENAI_BASE_URL` conventionally does.
    public var defaultBaseURL: String? {
        switch self {
        case .openai: "https://api.openai.com/v1"
        case .anthropic: "https://api.anthropic.com"
        case .gemini: "https://generativelanguage.googleapis.com"
        case .elevenlabs: "https://api.elevenlabs.io"
        case .openaiCompatible, .local: nil
        }
    }

    /// The vendors a user may store a key for in Settings (a compatible server needs none).
    public static let keyed: [Vendor] = [.openai, .anthropic, .gemini, .elevenlabs]
}
