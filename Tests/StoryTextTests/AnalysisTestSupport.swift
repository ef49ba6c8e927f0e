import StoryModel
import StoryText

/// Small helpers for the analysis tests: run the analyzer and read dialogue back as text.
struct AnalyzedPassage {
    let text: String
    let analysis: StoryAnalysis
    let explained: [ExplainedLine]
    let scalars: ScalarText

    init(_ text: String) {
        self.text = text
        (self.analysis, self.explained) = StoryAnalyzer().explain(StoryDocument(title: "Test", text: text))
        self.scalars = ScalarText(text)
    }

    var dialogue: [Segment] { analysis.segments.filter { $0.kind == .dialogue } }

    /// The kind of evidence that chose each dialogue segment's speaker ("none" when nothing did).
    var evidence: [String] {
        let bySegment = Dictionary(uniqueKeysWithValues: explained.map { ($0.segment, $0.evidence) })
        return analysis.segments.indices.filter { analysis.segments[$0].kind == .dialogue }.map { bySegment[$0] ?? "none" }
    }

    /// Each dialogue segment's confidence (0 when it has none).
    var confidences: [Double] { dialogue.map { $0.confidence ?? 0 } }

    /// Each dialogue segment's text, as written (quote marks included).
    var quotes: [String] { dialogue.map { scalars.string($0.start, $0.end) } }

    /// The speaker's name of each dialogue segment ("?" when unattributed).
    var speakers: [String] {
        dialogue.map { segment in segment.speaker.flatMap { analysis.character(id: $0)?.name } ?? "?" }
    }

    func character(named name: String) -> Character? {
        analysis.characters.first { $0.name == name || $0.aliases.contains(name) }
    }

    /// Segments must tile the text in order without gaps or overlaps.
    var tiles: Bool {
        var cursor = 0
        for segment in analysis.segments {
            guard segment.start == cursor, segment.end > segment.start else { return false }
            cursor = segment.end
        }
        return cursor == scalars.count
    }
}
