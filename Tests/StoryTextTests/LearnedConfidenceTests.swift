import StoryModel
@testable import StoryText
import Testing

@Suite("Analysis: the learned confidence (issue 48, item 2)")
struct LearnedConfidenceTests {
    @Test("the shipped weights are for the features the analysis computes, in their order")
    func weightsMatchTheFeatures() {
        // A feature added, removed or moved without `bench/attribution-learn.py --write` would
        // silently fall back to the kinds' values, or weigh one feature by another's weight.
        #expect(LearnedWeights.names == LineFeatures.names)
        #expect(LearnedWeights.weights.count == LineFeatures.names.count)
        #expect(ExplainedLine.featureNames == LineFeatures.names)
    }

    @Test("every spoken line is explained once, with a value for each feature; analyze and explain agree")
    func everyLineExplained() {
        let text = """
        "Is it far?" asked Anne.

        "Not very," said Matthew.

        "How far?"

        "Two miles," said Marilla.
        """
        let document = StoryDocument(title: "T", text: text)
        let (analysis, lines) = StoryAnalyzer().explain(document)
        #expect(analysis == StoryAnalyzer().analyze(document))
        let spoken = analysis.segments.indices.filter { analysis.segments[$0].kind == .dialogue && analysis.segments[$0].speaker != nil }
        #expect(lines.map(\.segment) == spoken)
        #expect(lines.allSatisfy { $0.features.count == LineFeatures.names.count && $0.features.allSatisfy(\.isFinite) })
        #expect(lines.map(\.evidence) == ["namedTag", "namedTag", "crowdedTurn", "namedTag"])
    }

    @Test("a crowd that speaks half the lines, each named by its tag, is still unsure: no reader counts a group as one voice")
    func groupsAreUnsure() {
        // Each tag names its speaker, and the crowd has far more than a minor speaker's share, so
        // the kinds alone would say 0.96 for every line; the model has learned that the scholars
        // never give a line to a group.
        let exchange = (1...20).map { n in "\"Speech \(n)!\" shouted the crowd.\n\n\"Thank you,\" said the Mayor.\n\n" }.joined()
        let passage = AnalyzedPassage(exchange)
        let crowd = passage.dialogue.indices.filter { passage.speakers[$0] == "the crowd" }
        // (The crowd's first line is taken by the turns: the role is known once its tag is read.)
        #expect(crowd.count == 20 && crowd.dropFirst().allSatisfy { passage.evidence[$0] == "namedTag" }, "\(passage.evidence)")
        #expect(crowd.allSatisfy { passage.confidences[$0] < hybridThreshold }, "\(passage.confidences)")
        let mayor = passage.dialogue.indices.filter { passage.speakers[$0] == "the Mayor" }
        #expect(mayor.allSatisfy { passage.confidences[$0] >= hybridThreshold }, "\(passage.confidences)")
    }
}
