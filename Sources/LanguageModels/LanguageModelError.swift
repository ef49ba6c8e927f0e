import VendorHTTP

/// Why a request to a language model failed, in words a user can act on.
///
/// The description never contains an API key: provider messages are scrubbed of the key
/// before they are kept.
public struct LanguageModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, in the words every vendor client shares (`VendorFailure.Kind`).
    public typealias Kind = VendorFailure.Kind

    public var kind: Kind
    public var provider: Provider
    public var model: String
    /// What the provider or transport said, scrubbed of secrets; for logs and `--verbose`.
    public var detail: String?
    /// Where the key comes from: Settings only (the server, which reads no key from its
    /// environment), or Settings or the provider's environment variable (the command line).
    public var keyFromSettingsOnly: Bool

    public init(_ kind: Kind, provider: Provider, model: String, detail: String? = nil, keyFromSettingsOnly: Bool = false) {
        self.kind = kind
        self.provider = provider
        self.model = model
        self.detail = detail
        self.keyFromSettingsOnly = keyFromSettingsOnly
    }

    /// Whether waiting and sending the same request again may succeed.
    public var isTransient: Bool { kind.isTransient }

    /// Whether the request was refused for being longer than the model reads (the local
    /// model's own check, or a provider's "maximum context length"): a shorter one may pass.
    public var isTooLong: Bool {
        guard case .requestRejected(let status) = kind, status == 400 || status == 413 else { return false }
        if status == 413 { return true }
        let said = (detail ?? "").lowercased()
        return ["context length", "context window", "maximum context", "too long", "too many tokens", "reads at most", "maximum number of tokens"]
            .contains { said.contains($0) }
    }

    /// What happened and what to do, without the step: "the OpenAI key was rejected — update it …".
    public var description: String {
        if provider == .local { return Self.explainLocal(kind, model: model, detail: detail) }
        return Self.explain(kind, service: provider.displayName, keyVariable: keyFromSettingsOnly ? nil : provider.apiKeyVariable, model: model, detail: detail)
    }

    /// The model on this machine has no key, network or bill: what goes wrong there is its
    /// installation, the machine's load, or the request.
    static func explainLocal(_ kind: Kind, model: String, detail: String?) -> String {
        let because = detail.map { ": \($0)" } ?? ""
        switch kind {
        case .timeout(let seconds):
            return "the local model (\(model)) did not finish within \(Int(seconds.rounded(.up))) s — the machine may be busy; try again, or ask for something shorter"
        case .requestRejected:
            return "the local model (\(model)) cannot take this request\(because)"
        case .unparseableAnswer:
            return "the local model (\(model)) gave an answer that could not be used\(because) — try again"
        case .providerError(let status):
            return "the local model (\(model)) failed (HTTP \(status)) — it is restarted on the next request"
        default:
            return "the local model (\(model)) is not available\(because) — run 'storyvoice doctor' to see what is missing; 'scripts/setup' installs it"
        }
    }

    /// The explanation for `kind` at a service named `name` (see `VendorFailure.explain`).
    public static func explain(_ kind: Kind, service name: String, keyVariable: String?, model: String, detail: String?) -> String {
        VendorFailure.explain(kind, service: name, keyVariable: keyVariable, model: model, detail: detail)
    }

    /// The full sentence for a user: "Character extraction failed for Emma: the OpenAI key was rejected — …".
    public func message(step: String, story: String) -> String {
        "\(step) failed for \(story): \(description)"
    }
}
