/// A language-model vendor (or wire format) StoryVoice can talk to.
public enum Provider: String, Sendable, Hashable, Codable, CaseIterable {
    case openai
    case anthropic
    case gemini
    /// Any server speaking OpenAI's Chat Completions API: Ollama, llama.cpp, vLLM.
    case openaiCompatible = "openai-compatible"

    public var displayName: String {
        switch self {
        case .openai: "OpenAI"
        case .anthropic: "Anthropic"
        case .gemini: "Gemini"
        case .openaiCompatible: "OpenAI-compatible server"
        }
    }

    /// The environment variable holding the API key, as the vendors' own SDKs read it.
    public var apiKeyVariable: String {
        switch self {
        case .openai, .openaiCompatible: "OPENAI_API_KEY"
        case .anthropic: "ANTHROPIC_API_KEY"
        case .gemini: "GEMINI_API_KEY"
        }
    }

    /// The environment variable that overrides the base URL, as the vendors' SDKs read it.
    public var baseURLVariable: String? {
        switch self {
        case .openai: "OPENAI_BASE_URL"
        case .anthropic: "ANTHROPIC_BASE_URL"
        case .gemini: "GEMINI_BASE_URL"
        case .openaiCompatible: nil
        }
    }

    /// The public endpoint. OpenAI's includes `/v1`, as `OPENAI_BASE_URL` conventionally does.
    public var defaultBaseURL: String? {
        switch self {
        case .openai: "https://api.openai.com/v1"
        case .anthropic: "https://api.anthropic.com"
        case .gemini: "https://generativelanguage.googleapis.com"
        case .openaiCompatible: nil
        }
    }

    /// Whether a request without a key makes sense (local servers usually need none).
    public var requiresKey: Bool { self != .openaiCompatible }
}
