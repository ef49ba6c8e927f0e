/// Providers a user may store an API key for.
public enum Provider: String, Codable, Sendable, CaseIterable {
    case openai
    case anthropic
    case gemini
    case elevenlabs
}
