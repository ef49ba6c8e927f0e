import AsyncHTTPClient
import Foundation
import Logging
import VendorHTTP

/// Makes live clients from a ``ModelSpec``, reading keys and base URLs from the environment the
/// way the vendors' SDKs do, and sharing one concurrency limiter per provider.
public final class LanguageModelFactory: Sendable {
    /// Keys found in the environment, held as secrets (the environment itself is not kept,
    /// so no dump or description of the factory can show a key).
    private let environmentKeys: [Provider: Secret]
    private let environmentBaseURLs: [Provider: String]
    public let timeout: Double
    public let retry: RetryPolicy
    public let httpClient: HTTPClient
    public let logger: Logger
    /// The model on this machine, when this deployment has one.
    public let local: (any LocalModelHost)?
    private let limiters: [Provider: ConcurrencyLimiter]
    /// The order in which the model on this machine takes requests, shared by every user.
    public let localScheduler: ModelScheduler

    /// - Parameter concurrency: requests in flight at once, per provider.
    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment, concurrency: [Provider: Int] = [:],
        timeout: Double = 60, retry: RetryPolicy = .standard, httpClient: HTTPClient = .vendors,
        logger: Logger = Logger(label: "storyvoice.llm"), local: (any LocalModelHost)? = nil
    ) {
        self.local = local
        var keys: [Provider: Secret] = [:]
        var baseURLs: [Provider: String] = [:]
        for provider in Provider.allCases {
            if let key = environment[provider.apiKeyVariable], !key.isEmpty { keys[provider] = Secret(key) }
            if let variable = provider.baseURLVariable, let value = environment[variable], !value.isEmpty { baseURLs[provider] = value }
        }
        self.environmentKeys = keys
        self.environmentBaseURLs = baseURLs
        self.timeout = timeout
        self.retry = retry
        self.httpClient = httpClient
        self.logger = logger
        var limiters: [Provider: ConcurrencyLimiter] = [:]
        for provider in Provider.allCases {
            limiters[provider] = ConcurrencyLimiter(limit: concurrency[provider] ?? Self.defaultConcurrency(provider))
        }
        self.limiters = limiters
        self.localScheduler = ModelScheduler(capacity: concurrency[.local] ?? 1)
    }

    /// Cloud APIs take several requests at once; a local server is asked one at a time (the
    /// model on this machine has several slots, to keep several prompts cached, not to run them
    /// at once: on two cores with a voice speaking that oversubscribes the machine). The model on
    /// this machine takes them in the order `localScheduler` gives.
    public static func defaultConcurrency(_ provider: Provider) -> Int {
        provider == .openaiCompatible || provider == .local ? 1 : 4
    }

    public func limiter(for provider: Provider) -> ConcurrencyLimiter {
        limiters[provider]!
    }

    /// The base URL used for `spec`: the spec's own, else the provider's environment variable,
    /// else the provider's public endpoint.
    public func baseURL(for spec: ModelSpec) throws -> String {
        if let explicit = spec.baseURL { return explicit }
        if let value = environmentBaseURLs[spec.provider] { return value }
        guard let standard = spec.provider.defaultBaseURL else {
            throw LanguageModelError(.invalidConfiguration, provider: spec.provider, model: spec.model, detail: "no base URL; write openai-compatible:MODEL@http://HOST:PORT/v1")
        }
        return standard
    }

    /// A live client. `key` overrides the environment (for a key from Settings).
    public func makeModel(_ spec: ModelSpec, key: Secret? = nil) throws -> any LanguageModel {
        if spec.provider == .local { return try makeLocalModel() }
        return try makeRemoteModel(spec, key: key)
    }

    /// The model on this machine; its server starts on the first request.
    public func makeLocalModel() throws -> LocalLanguageModel {
        guard let local else {
            throw LanguageModelError(.invalidConfiguration, provider: .local, model: ModelSpec.localModelName,
                                     detail: "this program was started without it")
        }
        return LocalLanguageModel(host: local, scheduler: localScheduler, httpClient: httpClient, logger: logger)
    }

    /// A client of a remote provider's API.
    public func makeRemoteModel(_ spec: ModelSpec, key: Secret? = nil) throws -> RemoteLanguageModel {
        let base = try baseURL(for: spec)
        guard base.hasPrefix("http://") || base.hasPrefix("https://") else {
            throw LanguageModelError(.invalidConfiguration, provider: spec.provider, model: spec.model, detail: "the base URL must start with http:// or https://")
        }
        let key = key ?? environmentKeys[spec.provider]
        if spec.provider.requiresKey, key == nil {
            throw LanguageModelError(.missingKey, provider: spec.provider, model: spec.model)
        }
        return RemoteLanguageModel(
            provider: spec.provider, model: spec.model, baseURL: base, key: key, timeout: timeout, retry: retry,
            limiter: limiter(for: spec.provider), httpClient: httpClient, logger: logger
        )
    }
}
