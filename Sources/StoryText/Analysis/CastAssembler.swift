import StoryModel

/// Turns entities and attributions into the public result: characters ordered by number of
/// lines (then first appearance), ids c1, c2 ..., and segments tiling the whole text.
enum CastAssembler {
    static func assemble(document: StoryDocument, text: AnalysisText, quotes: [QuoteSpan], attributions: [Attribution],
                         entities: [Entity], estimates: [GenderAgeInference.Estimate]) -> StoryAnalysis {
        var lines = Array(repeating: 0, count: entities.count)
        for a in attributions where a.entity >= 0 { lines[a.entity] += 1 }
        let speaking = entities.indices.filter { lines[$0] > 0 }.sorted { a, b in
            if lines[a] != lines[b] { return lines[a] > lines[b] }
            if entities[a].firstPosition != entities[b].firstPosition { return entities[a].firstPosition < entities[b].firstPosition }
            return a < b
        }
        var ids: [Int: String] = [:]
        var characters: [Character] = []
        for (rank, entity) in speaking.enumerated() {
            let id = "c\(rank + 1)"
            ids[entity] = id
            let e = entities[entity]
            let estimate = estimates[entity]
            let name = e.fullestName
            characters.append(Character(
                id: id, name: name, aliases: e.aliasNames.filter { $0 != name && $0 != "I" || e.kind == .narrator && $0 == "I" && name != "I" },
                gender: estimate.gender, ageRange: estimate.age, lines: lines[entity],
                genderConfidence: estimate.genderConfidence, ageConfidence: estimate.ageConfidence))
        }
        var segments: [Segment] = []
        var cursor = 0
        for (q, quote) in quotes.enumerated() {
            // Thoughts and quoted phrases stay in the narrator's voice (docs/analysis.md).
            guard quote.start >= cursor, quote.end > quote.start, attributions[q].evidence != .notSpeech else { continue }
            if quote.start > cursor { segments.append(Segment(start: cursor, end: quote.start, kind: .narration)) }
            let a = attributions[q]
            segments.append(Segment(start: quote.start, end: quote.end, kind: .dialogue, speaker: ids[a.entity],
                                    confidence: Confidence.value(for: a.evidence)))
            cursor = quote.end
        }
        if cursor < text.count { segments.append(Segment(start: cursor, end: text.count, kind: .narration)) }
        return StoryAnalysis(title: document.title, author: document.author, characters: characters,
                             chapters: document.chapters, segments: segments)
    }
}

/// Probability that a speaker is right, by the kind of evidence that chose it; measured on
/// the PDNC development novels (docs/analysis.md, "Accuracy by confidence band").
enum Confidence {
    static func value(for evidence: AttributionEvidence) -> Double {
        switch evidence {
        case .script: return 0.97
        case .namedTag: return 0.95
        case .pronounTag: return 0.8
        case .continuation: return 0.85
        case .action: return 0.65
        case .addressee: return 0.6
        case .turnTaking: return 0.5
        case .fallback: return 0.25
        case .none, .notSpeech: return 0
        }
    }
}
