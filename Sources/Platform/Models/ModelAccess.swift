import Foundation
import LanguageModels
import Persistence
import VendorHTTP

/// A user's own language model on the server: the key from their Settings (never the server's
/// environment, so no account spends another's money), base URLs from the server's environment
/// (`OPENAI_BASE_URL`, `ANTHROPIC_BASE_URL`, `GEMINI_BASE_URL`), and one response cache.
public struct ModelAccess: Sendable {
    public var factory: LanguageModelFactory
    public var box: SecretBox
    /// Model answers, shared by every user: a request is keyed by its whole content.
    public var cacheDirectory: URL
    public var prices: PriceTable

    public init(factory: LanguageModelFactory, box: SecretBox, cacheDirectory: URL, prices: PriceTable = .builtIn) {
        self.factory = factory
        self.box = box
        self.cacheDirectory = cacheDirectory
        self.prices = prices
    }

    /// Base URLs from `environment`; keys deliberately not.
    /// - Parameter local: the model on this machine, free to every user; nil when this server has none.
    public static func make(
        environment: [String: String], secret: ServerSecret, dataDirectory: DataDirectory, local: (any LocalModelHost)? = nil
    ) -> ModelAccess {
        let baseURLs = environment.filter { name, _ in LanguageModels.Provider.allCases.contains { $0.baseURLVariable == name } }
        return ModelAccess(
            factory: LanguageModelFactory(environment: baseURLs, local: local), box: SecretBox(secret: secret),
            cacheDirectory: dataDirectory.url.appendingPathComponent("llm", isDirectory: true))
    }

    /// `openai:gpt-4o-mini` and the like; a base URL inside the spec (`…@URL`) is refused, so
    /// users cannot point the server at arbitrary hosts.
    public static func spec(_ text: String) throws -> ModelSpec {
        // "openai:gpt-4o-mini": a spec of kilobytes is refused before it is parsed or repeated.
        guard text.utf8.count <= 200 else {
            throw ServiceError(.invalid, code: "invalid_model", "A model is named in at most 200 characters (local, openai:MODEL, anthropic:MODEL, gemini:MODEL).")
        }
        let spec: ModelSpec
        do {
            spec = try ModelSpec(parsing: text)
        } catch {
            throw ServiceError(.invalid, code: "invalid_model", "\(error)")
        }
        guard spec.baseURL == nil, spec.provider != .openaiCompatible else {
            throw ServiceError(.invalid, code: "invalid_model",
                             "Choose the local model (local) or an OpenAI, Anthropic or Gemini model (openai:MODEL, anthropic:MODEL, gemini:MODEL).")
        }
        return spec
    }

    /// A client for `spec`: the model on this machine, or the provider's with the user's stored
    /// key. Throws the provider's `missingKey` error when there is none, so the message says
    /// where to add it.
    /// Every request it is asked carries the user as its owner, so that the model on this
    /// machine takes users' background work in turns (`ModelScheduler`).
    public func model(_ spec: ModelSpec, userID: UUID, database: AppDatabase) async throws -> any LanguageModel {
        try await unprioritized(spec, userID: userID, database: database).prioritized(.background(owner: userID.uuidString))
    }

    private func unprioritized(_ spec: ModelSpec, userID: UUID, database: AppDatabase) async throws -> any LanguageModel {
        if spec.provider == .local { return try factory.makeLocalModel() }
        // An OpenAI-compatible server has no stored key.
        guard spec.provider != .openaiCompatible,
              let stored = try await SettingsRepository(database: database, box: box).key(for: spec.provider.vendor, userID: userID) else {
            throw LanguageModelError(.missingKey, provider: spec.provider, model: spec.model, keyFromSettingsOnly: true)
        }
        return SettingsKeyedModel(try factory.makeModel(spec, key: Secret(stored)))
    }

    public func cache() throws -> ResponseCache {
        try ResponseCache(directory: cacheDirectory)
    }
}

