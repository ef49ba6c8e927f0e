import LanguageModels
import VendorHTTP

/// "The model on this machine" answered by a loopback server in OpenAI's wire format, for tests
/// of what a server does with its own model (the real one takes a minute to load).
public struct LoopbackLocalModel: LocalModelHost {
    public let modelName = "loopback-local"
    public let baseURL: String

    /// `baseURL` is the loopback's, with `/v1`.
    public init(baseURL: String) {
        self.baseURL = baseURL
    }

    public func endpoint() async throws -> LocalEndpoint {
        LocalEndpoint(baseURL: baseURL, key: Secret("loopback-local-key"), model: modelName, contextTokens: 32_768)
    }

    public func serverFailed(_ endpoint: LocalEndpoint) async {}
}
