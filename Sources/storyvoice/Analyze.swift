import ArgumentParser
import Foundation
import StoryModel
import StoryText
import Analysis

struct Analyze: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Find the characters and who speaks every line.",
        discussion: "Offsets in the JSON count Unicode scalars of the text as read.")

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

    @OptionGroup var input: StoryInput

    @Option(help: "text: a readable cast and script; json: the full analysis.")
    var format: OutputFormat = .text

    @Flag(help: "Indent the JSON.")
    var pretty = false

    @Flag(help: "With --format json, each line's evidence and features (for bench/attribution-learn.py).")
    var features = false

    @Option(help: "Script lines to show with --format text.")
    var lines = 20

    @OptionGroup(title: "Language model") var model: ModelOptions

    func run() async throws {
        let document = try input.load()
        let explanation = features ? StoryAnalyzer().explain(document) : (analysis: StoryAnalyzer().analyze(document), lines: [ExplainedLine]())
        var analysis = explanation.analysis
        if let spec = try model.spec() {
            let labelling = ModelLabelling(options: model, spec: spec)
            if model.estimate {
                print(try labelling.estimates(document: document, analysis: analysis), terminator: "")
                return
            }
            let labelled = try await labelling.label(document: document, analysis: analysis)
            analysis = labelled.analysis
            for note in labelled.notes { FileHandle.standardError.write(Data("note: \(note)\n".utf8)) }
        } else if model.estimate {
            throw ValidationError("--estimate needs --llm to know which model to price.")
        }
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
            FileHandle.standardOutput.write(features ? try encoder.encode(ExplainedAnalysis(analysis: analysis, lines: explanation.lines))
                                                     : try encoder.encode(analysis))
            FileHandle.standardOutput.write(Data("\n".utf8))
        case .text:
            print(AnalysisReport(analysis: analysis, text: document.text, scriptLines: lines).render())
        }
    }
}

/// The analysis with `lineFeatures` beside its own fields: the names of the features, and each
/// line's evidence and features.
struct ExplainedAnalysis: Encodable {
    var analysis: StoryAnalysis
    var lines: [ExplainedLine]

    private enum Keys: String, CodingKey { case lineFeatures, featureNames, candidateFeatureNames }

    func encode(to encoder: any Encoder) throws {
        try analysis.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(ExplainedLine.featureNames, forKey: .featureNames)
        try container.encode(ExplainedLine.candidateFeatureNames, forKey: .candidateFeatureNames)
        try container.encode(lines, forKey: .lineFeatures)
    }
}

/// The human-readable `analyze` output: the cast with each one's share of dialogue, then the script.
struct AnalysisReport {
    var analysis: StoryAnalysis
    var text: String
    var scriptLines: Int

    func render() -> String {
        var out = "\(analysis.title)"
        if let author = analysis.author { out += " — \(author)" }
        let dialogue = analysis.segments.filter { $0.kind == .dialogue }
        out += "\n\(analysis.chapters.count) chapter(s), \(analysis.characters.count) character(s), \(dialogue.count) line(s) of dialogue\n\n"
        out += "Cast\n"
        let total = max(1, dialogue.count)
        let nameWidth = min(28, analysis.characters.map(\.name.count).max() ?? 4)
        for character in analysis.characters.sorted(by: { ($0.lines, $1.id) > ($1.lines, $0.id) }) {
            let share = Double(character.lines) / Double(total)
            let bar = String(repeating: "▇", count: Int((share * 30).rounded(.up)))
            let name = character.name.count > nameWidth ? String(character.name.prefix(nameWidth - 1)) + "…" : character.name
            var line = "  \(name.padding(toLength: nameWidth, withPad: " ", startingAt: 0))  "
            line += "\(character.gender.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)) "
            line += "\(character.ageRange.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)) "
            line += String(format: "%5d lines %5.1f%% ", character.lines, share * 100) + bar
            out += line + "\n"
            let indent = "  \(String(repeating: " ", count: nameWidth))  "
            if !character.aliases.isEmpty { out += indent + "also: \(character.aliases.joined(separator: ", "))\n" }
            if let description = character.description { out += indent + description + "\n" }
        }
        out += "\nScript (first \(scriptLines) lines)\n"
        let scalars = ScalarText(text)
        var shown = 0
        for segment in analysis.segments where shown < scriptLines {
            let body = scalars.string(segment.start, segment.end)
                .split(whereSeparator: \.isWhitespace).joined(separator: " ")
            guard !body.isEmpty else { continue }
            let excerpt = body.count > 100 ? String(body.prefix(99)) + "…" : body
            if segment.kind == .dialogue {
                let who = segment.speaker.flatMap { analysis.character(id: $0)?.name } ?? "Unknown"
                let confidence = segment.confidence.map { String(format: " (%.2f)", $0) } ?? ""
                out += "  \(who)\(confidence): \(excerpt)\n"
            } else {
                out += "  (Narration) \(excerpt)\n"
            }
            shown += 1
        }
        return out
    }
}
