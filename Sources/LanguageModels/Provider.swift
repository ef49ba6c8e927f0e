import VendorHTTP

/// The language-model vendors (and wire formats) StoryVoice can talk to: a subset of `Vendor`.
public enum Provider: String, Sendable, Hashable, Codable, CaseIterable {
    case openai
    case anthropic
    case gemini
    /// Any server speaking OpenAI's Chat Completions API: Ollama, llama.cpp, vLLM.
    case openaiCompatible = "openai-compatible"
    /// The model StoryVoice runs on this machine (`local:qwen2.5-coder-1.5b`): no key, no cost.
    case local

    /// The vendor it is (names, key and base-URL variables, endpoint).
    public var vendor: Vendor { Vendor(rawValue: rawValue) ?? .openaiCompatible }
    public var displayName: String { vendor.displayName }
    public var apiKeyVariable: String { vendor.apiKeyVariable }
    public var baseURLVariable: String? { vendor.baseURLVariable }
    public var defaultBaseURL: String? { vendor.defaultBaseURL }

    /// Whether a request without a key makes sense (local servers usually need none).
    public var requiresKey: Bool { self != .openaiCompatible && self != .local }

    /// Whether the model runs on this machine: free, private, and as fast as the machine is.
    public var isLocal: Bool { self == .local }
}
