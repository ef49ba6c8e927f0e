import Analysis
import Foundation
import LanguageModels
import StoryModel
import StoryText
import Testing
import TestSupport

/// What hybrid and full labelling would send for a whole novel (PDNC's Emma), from `estimate`
/// alone: nothing is sent. Uses the real importer and offline analyzer (StoryText), and for
/// comparison the synthetic analysis. Skipped when the evaluation data is not beside the checkout.
@Suite("Benchmark: Emma")
struct EmmaBenchmarkTests {
    static var emmaDirectory: URL? {
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidates = [
            checkout.deletingLastPathComponent().appendingPathComponent("shared/eval/pdnc-dev/Emma"),
            URL(fileURLWithPath: "/work/shared/eval/pdnc-dev/Emma"),
        ]
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("novel_text.txt").path) }
    }

    /// The issue's goal is hybrid ≤ 25% of full. Hybrid's share is bounded below by the share
    /// of dialogue the offline analyzer is unsure of (docs/llm.md gives Emma's figures), so
    /// what is asserted here is what labelling controls:
    /// exactly the uncertain spans are sent, and each costs at most 1.5 times a span in full mode.
    @Test("Hybrid sends only the uncertain spans, at a per-span cost close to full's", .enabled(if: emmaDirectory != nil))
    func hybridVersusFull() throws {
        let directory = try #require(Self.emmaDirectory)
        var document = try StoryImporter.load(contentsOf: directory.appendingPathComponent("novel_text.txt"))
        document.title = "Emma"
        let analysis = StoryAnalyzer().analyze(document)
        let spec = ModelSpec(provider: .openai, model: "gpt-4o-mini")
        let options = LabellingOptions(enrichCharacters: false)
        let ratio = report("real analyzer", document: document, analysis: analysis)
        _ = report("real analyzer, threshold 0.65", document: document, analysis: analysis, options: LabellingOptions(confidenceThreshold: 0.65, enrichCharacters: false))
        let hybrid = HybridAnalyzer.estimate(document: document, analysis: analysis, mode: .hybrid, model: spec, options: options)
        let full = HybridAnalyzer.estimate(document: document, analysis: analysis, mode: .full, model: spec, options: options)
        let uncertain = analysis.segments.filter { $0.kind == .dialogue && ($0.confidence ?? 0) < options.confidenceThreshold }.count
        #expect(hybrid.dialogueSegments > 1000)
        #expect(hybrid.spansSent == uncertain)
        #expect(full.spansSent == hybrid.dialogueSegments)
        let perSpanHybrid = Double(hybrid.inputTokens + hybrid.outputTokens) / Double(hybrid.spansSent)
        let perSpanFull = Double(full.inputTokens + full.outputTokens) / Double(full.spansSent)
        #expect(perSpanHybrid <= 1.5 * perSpanFull)
        #expect(ratio < 1)
    }

    @Test("The same with the synthetic analysis (for comparison)", .enabled(if: emmaDirectory != nil))
    func synthetic() throws {
        let directory = try #require(Self.emmaDirectory)
        let text = try String(contentsOf: directory.appendingPathComponent("novel_text.txt"), encoding: .utf8)
        let roster = SyntheticAnalysis.roster(fromCharacterInfoCSV: try String(contentsOf: directory.appendingPathComponent("character_info.csv"), encoding: .utf8))
        let document = StoryDocument(title: "Emma", author: "Jane Austen", text: text)
        let analysis = SyntheticAnalysis.make(title: "Emma", text: text, characters: roster)
        let ratio = report("synthetic analysis", document: document, analysis: analysis)
        #expect(ratio < 1)
    }

    /// Prints the figures; returns hybrid's tokens as a fraction of full's.
    func report(_ label: String, document: StoryDocument, analysis: StoryAnalysis, options: LabellingOptions = LabellingOptions(enrichCharacters: false)) -> Double {
        let spec = ModelSpec(provider: .openai, model: "gpt-4o-mini")
        let hybrid = HybridAnalyzer.estimate(document: document, analysis: analysis, mode: .hybrid, model: spec, options: options)
        let full = HybridAnalyzer.estimate(document: document, analysis: analysis, mode: .full, model: spec, options: options)
        var enrichedOptions = options
        enrichedOptions.enrichCharacters = true
        let enriched = HybridAnalyzer.estimate(document: document, analysis: analysis, mode: .hybrid, model: spec, options: enrichedOptions)
        let ratio = Double(hybrid.inputTokens + hybrid.outputTokens) / Double(full.inputTokens + full.outputTokens)
        print("""
            Emma, \(label): \(document.text.unicodeScalars.count) scalars, \(LabellingPlan.chapters(document: document, analysis: analysis, textLength: document.text.unicodeScalars.count).count) chapters, \(hybrid.dialogueSegments) dialogue segments, \(analysis.characters.count) characters
              hybrid: \(hybrid.spansSent) spans, \(hybrid.requests) requests, \(hybrid.inputTokens) in + \(hybrid.outputTokens) out tokens, $\(String(format: "%.4f", hybrid.cost ?? -1))
              full:   \(full.spansSent) spans, \(full.requests) requests, \(full.inputTokens) in + \(full.outputTokens) out tokens, $\(String(format: "%.4f", full.cost ?? -1))
              hybrid / full tokens: \(String(format: "%.3f", ratio)); uncertain share of dialogue: \(String(format: "%.3f", Double(hybrid.spansSent) / Double(max(1, hybrid.dialogueSegments))))
              enrichment adds \(enriched.requests - hybrid.requests) requests, \(enriched.inputTokens - hybrid.inputTokens) in + \(enriched.outputTokens - hybrid.outputTokens) out tokens
            """)
        return ratio
    }
}
