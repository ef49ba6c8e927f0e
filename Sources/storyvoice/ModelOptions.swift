import Analysis
import ArgumentParser
import AsyncHTTPClient
import Foundation
import LanguageModels
import Narration
import StoryModel
import VendorHTTP

/// `--llm` and friends: the user's own model, used only where it helps and priced up front.
struct ModelOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Improve the analysis with a language model: local (on this machine), openai:MODEL, anthropic:MODEL, gemini:MODEL, or openai-compatible:MODEL@URL.",
        discussion: "Keys come from OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY; base URLs from OPENAI_BASE_URL, ANTHROPIC_BASE_URL, GEMINI_BASE_URL or --base-url."))
    var llm: String?

    @Option(help: "hybrid: only lines the offline analysis is unsure of; full: every line.")
    var mode: LabellingMode = .hybrid

    @Option(help: "The provider's base URL (a local server, a proxy).")
    var baseURL: String?

    @Option(help: "Hybrid mode sends lines whose confidence is below this (default: 0.85; 0 for the local model, which labels worse than the offline analysis and only describes characters).")
    var threshold: Double?

    @Option(help: "A JSON price table ({\"openai:gpt-4o-mini\": {\"input\": 0.15, \"output\": 0.6}}, USD per million tokens) over the built-in one (default: STORYVOICE_PRICES).")
    var prices: String?

    @Flag(help: "Print what each mode would send and cost, and send nothing.")
    var estimate = false

    func spec() throws -> ModelSpec? {
        guard let llm else { return nil }
        do {
            return try ModelSpec(parsing: llm, baseURL: baseURL)
        } catch {
            throw ValidationError("--llm \(llm): \(error)")
        }
    }

    /// The model's defaults, with `--threshold` over them.
    func labellingOptions(for provider: Provider) -> LabellingOptions {
        var options = LabellingOptions.defaults(for: provider)
        if let threshold { options.confidenceThreshold = threshold }
        return options
    }

    /// `--prices`, else `STORYVOICE_PRICES`, over the built-in table.
    func priceTable() throws -> PriceTable {
        do {
            return try PriceTable.configured(environment: prices.map { ["STORYVOICE_PRICES": $0] } ?? ProcessInfo.processInfo.environment)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// Model answers live beside rendered lines, under the same cache root.
    static var cacheDirectory: URL {
        SegmentCache.cacheRoot().appendingPathComponent("llm", isDirectory: true)
    }
}

extension LabellingMode: ExpressibleByArgument {}

/// Runs the model over an offline analysis, with a progress bar, or prints the estimate.
struct ModelLabelling {
    var options: ModelOptions
    var spec: ModelSpec

    func estimates(document: StoryDocument, analysis: StoryAnalysis) throws -> String {
        let prices = try options.priceTable()
        var out = "What \(spec) would be sent for \(document.title) (nothing has been sent):\n"
        for mode in LabellingMode.allCases {
            let estimate = HybridAnalyzer.estimate(document: document, analysis: analysis, mode: mode, model: spec, options: options.labellingOptions(for: spec.provider), prices: prices)
            let cost = estimate.cost.map { String(format: "$%.4f", $0) } ?? "unknown price (add it with --prices)"
            out += "  \(mode.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0)) \(estimate.spansSent) of \(estimate.dialogueSegments) lines, \(estimate.requests) request(s), ~\(estimate.inputTokens) input + ~\(estimate.outputTokens) output tokens, \(cost)\n"
        }
        return out
    }

    func label(document: StoryDocument, analysis: StoryAnalysis) async throws -> LabelledAnalysis {
        try await label(document: document, analysis: analysis, client: .vendors)
    }

    private func label(document: StoryDocument, analysis: StoryAnalysis, client: HTTPClient) async throws -> LabelledAnalysis {
        let factory = LocalModels.factory(httpClient: client)
        let model: any LanguageModel
        do {
            model = try factory.makeModel(spec)
        } catch let error as LanguageModelError {
            throw UserFacingError(error.message(step: "Speaker labelling", story: document.title))
        }
        let analyzer = HybridAnalyzer(
            model: model, cache: try ResponseCache(directory: ModelOptions.cacheDirectory), prices: try options.priceTable(),
            options: options.labellingOptions(for: spec.provider))
        let estimate = analyzer.estimate(document: document, analysis: analysis, mode: options.mode)
        let cost = estimate.cost.map { String(format: "~$%.4f", $0) } ?? "unknown cost"
        let lines = estimate.spansSent == 0 ? "no line (only the characters, to describe)" : "\(estimate.spansSent) line(s)"
        FileHandle.standardError.write(Data("Sending \(lines) in \(estimate.requests) request(s) to \(spec) (\(cost); \(estimate.cachedRequests) answer(s) already cached)\n".utf8))
        let bar = ProgressBar(enabled: Terminal.isStandardErrorInteractive, stream: .standardError)
        defer { bar.finish() }
        do {
            return try await analyzer.label(document: document, analysis: analysis, mode: options.mode) { progress in
                let fraction = progress.totalRequests > 0 ? Double(progress.completedRequests) / Double(progress.totalRequests) : 1
                bar.update(fraction: fraction, label: progress.step, detail: "\(progress.completedRequests)/\(progress.totalRequests) requests")
            }
        } catch let error as AnalysisError {
            throw UserFacingError(error.description)
        }
    }
}
