import Analysis
import Foundation
import LanguageModels
import StoryModel
import Testing
import TestSupport

/// What hybrid and full labelling would send for a whole novel (PDNC's Emma), from `estimate`
/// alone: nothing is sent. Skipped when the evaluation data is not beside the checkout.
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
        let text = try String(contentsOf: directory.appendingPathComponent("novel_text.txt"), encoding: .utf8)
        let roster = SyntheticAnalysis.roster(fromCharacterInfoCSV: try String(contentsOf: directory.appendingPathComponent("character_info.csv"), encoding: .utf8))
        let document = StoryDocument(title: "Emma", author: "Jane Austen", text: text)
        let analysis = SyntheticAnalysis.make(title: "Emma", text: text, characters: roster)
        let spec = ModelSpec(provider: .openai, model: "gpt-4o-mini")
        let options = LabellingOptions(enrichCharacters: false)
        let hybrid = HybridAnalyzer.estimate(document: document, analysis: analysis, mode: .hybrid, model: spec, options: options)
        let full = HybridAnalyzer.estimate(document: document, analysis: analysis, mode: .full, model: spec, options: options)
        let enrichment = HybridAnalyzer.estimate(document: document, analysis: analysis, mode: .hybrid, model: spec)
        let hybridTokens = hybrid.inputTokens + hybrid.outputTokens
        let fullTokens = full.inputTokens + full.outputTokens
        let ratio = Double(hybridTokens) / Double(fullTokens)
        print("""
            Emma (\(text.unicodeScalars.count) scalars, \(analysis.chapters.count) chapters, \(hybrid.dialogueSegments) dialogue segments, \(roster.count) characters)
              hybrid: \(hybrid.spansSent) spans, \(hybrid.requests) requests, \(hybrid.inputTokens) in + \(hybrid.outputTokens) out tokens, $\(String(format: "%.4f", hybrid.cost ?? -1))
              full:   \(full.spansSent) spans, \(full.requests) requests, \(full.inputTokens) in + \(full.outputTokens) out tokens, $\(String(format: "%.4f", full.cost ?? -1))
              hybrid / full tokens: \(String(format: "%.3f", ratio))
              enrichment adds \(enrichment.requests - hybrid.requests) requests, \(enrichment.inputTokens - hybrid.inputTokens) in + \(enrichment.outputTokens - hybrid.outputTokens) out tokens
            """)
        #expect(hybrid.dialogueSegments > 1000)
        #expect(ratio <= 0.25)
    }
}
