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

@Suite("Analysis: the turn model (issue 48, item 2)")
struct TurnModelTests {
    @Test("the shipped weights are for the candidates' features, in their order")
    func weightsMatchTheFeatures() {
        #expect(LearnedSpeakerWeights.names == TurnCandidates.names)
        #expect(LearnedSpeakerWeights.weights.count == TurnCandidates.names.count)
    }

    @Test("only lines a turn rule attributed are weighed, each with the rules' choice among its candidates once")
    func candidatesOfTurnLines() {
        let passage = AnalyzedPassage("""
        "Is it far?" asked Anne.

        "Not very," said Matthew.

        "How far?"

        "Two miles," said Marilla.

        "Then we shall walk."
        """)
        let turnKinds = Set(TurnCandidates.kinds.map(\.name))
        for line in passage.explained {
            let candidates = line.candidates ?? []
            #expect(candidates.isEmpty != turnKinds.contains(line.evidence), "\(line.evidence)")
            #expect(candidates.isEmpty || candidates.filter { $0.features[0] == 1 }.count == 1)
            #expect(candidates.allSatisfy { $0.features.count == TurnCandidates.names.count })
        }
        #expect(passage.explained.contains { $0.candidates != nil })
    }

    @Test("a candidate the pronoun after the line contradicts is never chosen, unless the rules chose it")
    func pronounAfterBinds() {
        var features = Array(repeating: [Double](repeating: 0, count: TurnCandidates.names.count), count: 3)
        features[0][0] = 1  // the rules' choice
        features[0][TurnCandidates.pronounAfter] = -1
        features[1][TurnCandidates.pronounAfter] = -1  // "she cried", and a man
        features[2][TurnCandidates.pronounAfter] = 1
        let choice = TurnCandidates.Choice(line: 0, candidates: [0, 1, 2], features: features)
        #expect(choice.allowed(0) && !choice.allowed(1) && choice.allowed(2))
    }

    @Test("the turn model gives a line to a man the tag after it calls 'she' only if the rules did; 'she cried' stays off the Baron")
    func sheCriedIsNoMan() {
        // The Gambler's spa, as AnalysisUnseenNovelTests has it: the turns point to the Baron.
        let filler = String(repeating: "We walked on through the gardens and said little to one another, for the day was hot. ", count: 140)
        let passage = AnalyzedPassage("""
        "What may seem a small sum to a Rothschild may seem a large sum to me," I said. "At length there will \
        issue a Baron Rothschild, and the world will bow to him."

        \(filler)

        "Do you see that fat Baroness?" she cried. "It is the Baroness Burmergelm. She arrived three days ago."

        The German was the Baron Burmergelm, a most important personage. I walked past the Baron with a rude smile.

        "Hein!" growled the Baron as he turned towards me.

        "Hein!" the Baron vociferated again. Everybody stared at the Baron and the Baroness.
        """)
        let baroness = try? #require(passage.quotes.firstIndex { $0.contains("fat Baroness") })
        #expect(baroness.map { passage.speakers[$0] } != "The Baron", "\(passage.speakers)")
    }
}
