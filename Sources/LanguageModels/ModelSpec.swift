/// Which model to use, as a user writes it: `provider:model[@baseURL]`.
///
/// `openai:gpt-4o-mini`, `anthropic:claude-3-5-haiku-latest`, `gemini:gemini-2.0-flash`,
/// `openai-compatible:llama3@http://localhost:11434/v1`. A base URL after `@` overrides the
/// provider's environment variable and default endpoint.
public struct ModelSpec: Sendable, Hashable, CustomStringConvertible {
    public var provider: Provider
    public var model: String
    public var baseURL: String?

    public init(provider: Provider, model: String, baseURL: String? = nil) {
        self.provider = provider
        self.model = model
        self.baseURL = baseURL
    }

    public enum ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        case missingProvider(String)
        case unknownProvider(String)
        case missingModel(String)
        case missingBaseURL(String)

        public var description: String {
            let forms = "local, openai:gpt-4o-mini, anthropic:claude-3-5-haiku-latest, gemini:gemini-2.0-flash or openai-compatible:llama3@http://localhost:11434/v1"
            switch self {
            case .missingProvider(let spec): return "“\(spec)” does not name a provider; write provider:model, for example \(forms)"
            case .unknownProvider(let name): return "unknown model provider “\(name)”; use local, openai, anthropic, gemini or openai-compatible"
            case .missingModel(let spec): return "“\(spec)” does not name a model; write provider:model, for example \(forms)"
            case .missingBaseURL(let spec): return "“\(spec)”: an OpenAI-compatible server needs its address, for example openai-compatible:llama3@http://localhost:11434/v1"
            }
        }
    }

    /// `baseURL`, when given (`--base-url`), wins over one written after `@` and serves an
    /// OpenAI-compatible server as well: `openai-compatible:llama3` plus `--base-url URL`.
    public init(parsing spec: String, baseURL override: String? = nil) throws(ParseError) {
        let trimmed = spec.strippingSpaces
        if trimmed.lowercased() == Provider.local.rawValue {
            self.init(provider: .local, model: Self.localModelName)
            return
        }
        guard let colon = trimmed.firstIndex(of: ":") else { throw .missingProvider(spec) }
        let name = String(trimmed[..<colon]).lowercased()
        guard let provider = Provider(rawValue: name) ?? (name == "ollama" ? .openaiCompatible : nil) else {
            throw .unknownProvider(name)
        }
        var rest = String(trimmed[trimmed.index(after: colon)...])
        var baseURL: String?
        if let at = rest.firstIndex(of: "@") {
            baseURL = String(rest[rest.index(after: at)...])
            rest = String(rest[..<at])
        }
        guard !rest.isEmpty else { throw .missingModel(spec) }
        if let override, !override.isEmpty { baseURL = override }
        if provider == .openaiCompatible, baseURL?.isEmpty ?? true { throw .missingBaseURL(spec) }
        self.init(provider: provider, model: rest, baseURL: baseURL?.isEmpty == true ? nil : baseURL)
    }

    public var description: String {
        "\(provider.rawValue):\(model)" + (baseURL.map { "@\($0)" } ?? "")
    }

    /// The name the local model goes by when none is given (`local`): the one setup installs.
    public static let localModelName = "qwen2.5-coder-1.5b"

    /// The model on this machine.
    public static let local = ModelSpec(provider: .local, model: localModelName)
}

extension String {
    fileprivate var strippingSpaces: String {
        var view = Substring(self)
        while let first = view.first, first.isWhitespace { view.removeFirst() }
        while let last = view.last, last.isWhitespace { view.removeLast() }
        return String(view)
    }
}
