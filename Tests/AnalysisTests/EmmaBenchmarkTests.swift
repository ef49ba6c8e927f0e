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

    @Test("Hybrid sends at most a quarter of full's tokens", .enabled(if: emmaDirectory != nil))
    func hybridVersusFull() throws {
        let directory = try #require(Self.emmaDirectory)
        var document = try StoryImporter.load(contentsOf: directory.appendingPathComponent("novel_text.txt"))
        document.title = "Emma"
        let analysis = StoryAnalyzer().analyze(document)
        let ratio = report("real analyzer", document: document, analysis: analysis)
        #expect(analysis.segments.filter { $0.kind == .dialogue }.count > 1000)
        #expect(ratio <= 0.25)
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
    func report(_ label: String, document: StoryDocument, analysis: StoryAnalysis) -> Double {
        let spec = ModelSpec(provider: .openai, model: "gpt-4o-mini")
        let options = LabellingOptions(enrichCharacters: false)
        let hybrid = HybridAnalyzer.estimate(document: document, analysis: analysis, mode: .hybrid, model: spec, options: options)
        let full = HybridAnalyzer.estimate(document: document, analysis: analysis, mode: .full, model: spec, options: options)
        let enriched = HybridAnalyzer.estimate(document: document, analysis: analysis, mode: .hybrid, model: spec)
        let ratio = Double(hybrid.inputTokens + hybrid.outputTokens) / Double(full.inputTokens + full.outputTokens)
        print("""
            Emma, \(label): \(document.text.unicodeScalars.count) scalars, \(LabellingPlan.chapters(document: document, analysis: analysis, textLength: document.text.unicodeScalars.count).count) chapters, \(hybrid.dialogueSegments) dialogue segments, \(analysis.characters.count) characters
              hybrid: \(hybrid.spansSent) spans, \(hybrid.requests) requests, \(hybrid.inputTokens) in + \(hybrid.outputTokens) out tokens, $\(String(format: "%.4f", hybrid.cost ?? -1))
              full:   \(full.spansSent) spans, \(full.requests) requests, \(full.inputTokens) in + \(full.outputTokens) out tokens, $\(String(format: "%.4f", full.cost ?? -1))
              hybrid / full tokens: \(String(format: "%.3f", ratio))
              enrichment adds \(enriched.requests - hybrid.requests) requests, \(enriched.inputTokens - hybrid.inputTokens) in + \(enriched.outputTokens - hybrid.outputTokens) out tokens
            """)
        return ratio
    }
}
