import Foundation

/// What a model charges, in US dollars per million tokens.
public struct ModelPrice: Codable, Sendable, Hashable {
    public var input: Double
    public var output: Double

    public init(input: Double, output: Double) {
        self.input = input
        self.output = output
    }

    public func cost(of usage: TokenUsage) -> Double {
        (Double(usage.inputTokens) * input + Double(usage.outputTokens) * output) / 1_000_000
    }
}

/// Prices per model, to say what a run costs before and after it.
///
/// Keys are `provider:model` or a bare model name; a dated model (`gpt-4o-mini-2024-07-18`)
/// takes the price of the longest key it starts with. A JSON file of the same shape,
/// `{"openai:gpt-4o-mini": {"input": 0.15, "output": 0.6}}`, overrides or adds entries.
public struct PriceTable: Sendable, Hashable {
    public var prices: [String: ModelPrice]

    public init(prices: [String: ModelPrice]) {
        self.prices = prices
    }

    /// List prices for standard (non-batch) use, USD per 1M tokens, as published by the
    /// vendors in 2025. Prices change: override them with a price file.
    public static let builtIn = PriceTable(prices: [
        "openai:gpt-4o-mini": ModelPrice(input: 0.15, output: 0.60),
        "openai:gpt-4o": ModelPrice(input: 2.50, output: 10.00),
        "openai:gpt-4.1": ModelPrice(input: 2.00, output: 8.00),
        "openai:gpt-4.1-mini": ModelPrice(input: 0.40, output: 1.60),
        "openai:gpt-4.1-nano": ModelPrice(input: 0.10, output: 0.40),
        "anthropic:claude-3-5-haiku": ModelPrice(input: 0.80, output: 4.00),
        "anthropic:claude-3-haiku": ModelPrice(input: 0.25, output: 1.25),
        "anthropic:claude-3-5-sonnet": ModelPrice(input: 3.00, output: 15.00),
        "anthropic:claude-3-7-sonnet": ModelPrice(input: 3.00, output: 15.00),
        "anthropic:claude-sonnet-4": ModelPrice(input: 3.00, output: 15.00),
        "gemini:gemini-2.0-flash": ModelPrice(input: 0.10, output: 0.40),
        "gemini:gemini-2.0-flash-lite": ModelPrice(input: 0.075, output: 0.30),
        "gemini:gemini-1.5-flash": ModelPrice(input: 0.075, output: 0.30),
        "gemini:gemini-2.5-flash": ModelPrice(input: 0.30, output: 2.50),
        "gemini:gemini-2.5-pro": ModelPrice(input: 1.25, output: 10.00),
    ])

    /// The built-in table with the entries of the JSON file at `url` laid over it.
    public static func loading(overridesFrom url: URL, over base: PriceTable = .builtIn) throws -> PriceTable {
        let overrides = try JSONDecoder().decode([String: ModelPrice].self, from: Data(contentsOf: url))
        return PriceTable(prices: base.prices.merging(overrides) { _, override in override })
    }

    /// The table a deployment prices with: the built-in one, under the file `STORYVOICE_PRICES`
    /// names, else under `defaultFile` when it exists (the server's `<data dir>/prices.json`).
    /// A file that cannot be read or is not a price table is an error naming it, never ignored:
    /// a silently wrong price would misstate what a run costs.
    public static func configured(environment: [String: String], defaultFile: URL? = nil) throws(PriceFileError) -> PriceTable {
        let named = environment["STORYVOICE_PRICES"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
        guard let file = named ?? defaultFile.flatMap({ FileManager.default.fileExists(atPath: $0.path) ? $0 : nil }) else {
            return .builtIn
        }
        do {
            return try loading(overridesFrom: file)
        } catch {
            throw PriceFileError(path: file.path, reason: (error as? DecodingError).map { _ in "it is not a price table" }
                ?? "it cannot be read (\(error.localizedDescription))")
        }
    }

    /// The price of `model` at `provider`; local servers cost nothing; nil when unknown.
    public func price(provider: Provider, model: String) -> ModelPrice? {
        // The model on this machine is free whatever a price file says.
        if provider == .local { return ModelPrice(input: 0, output: 0) }
        for key in ["\(provider.rawValue):\(model)", model] {
            if let price = prices[key] { return price }
        }
        let candidates = prices.keys.filter { key in
            let bare = key.hasPrefix("\(provider.rawValue):") ? String(key.dropFirst(provider.rawValue.count + 1)) : key
            return !bare.contains(":") && model.hasPrefix(bare) && (key.contains(":") ? key.hasPrefix("\(provider.rawValue):") : true)
        }
        if let best = candidates.max(by: { $0.count < $1.count }) { return prices[best] }
        return provider == .openaiCompatible ? ModelPrice(input: 0, output: 0) : nil
    }

    public func cost(of usage: TokenUsage, provider: Provider, model: String) -> Double? {
        price(provider: provider, model: model)?.cost(of: usage)
    }
}

/// A price file that cannot be used, with what to write instead.
public struct PriceFileError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public var description: String {
        "The price table \(path) cannot be used: \(reason). Write JSON like "
            + #"{"openai:gpt-4o-mini": {"input": 0.15, "output": 0.6}} (US dollars per million tokens)."#
    }
}
