// Written by bench/attribution-learn.py --write speakers; do not edit. Fitted on the 13 development
// novels (8174 lines a turn rule attributed, L2 1.00); judged leave one novel out by the same script.
enum LearnedSpeakerWeights {
    static let names: [String] = [
        "rule",
        "rule.addressee",
        "rule.continuation",
        "rule.crowdedTurn",
        "rule.fallback",
        "rule.guess",
        "rule.turnTaking",
        "spoke.previousTagged",
        "spoke.previousUntagged",
        "spoke.twoBackTagged",
        "spoke.twoBackUntagged",
        "spoke.nextTagged",
        "spoke.nextUntagged",
        "spoke.twoOnTagged",
        "spoke.twoOnUntagged",
        "spoke.threeBack",
        "spoke.threeOn",
        "log2LinesSinceSpoke",
        "log2LinesSinceTagged",
        "log2LinesUntilSpeaks",
        "named.inLine",
        "named.inPreviousLine",
        "named.inNextLine",
        "named.inNarrationBefore",
        "named.inNarrationAfter",
        "log10Share",
        "female",
        "rule.candidates",
        "alternatesBack",
        "alternatesOn",
        "previousWithoutNarration",
        "named.inShortNarrationBefore",
        "recentShare",
        "pronoun.after",
        "pronoun.before",
        "address.previousLine",
        "address.nextLine",
    ]
    static let weights: [Double] = [
        0.261807,  // rule
        1.077733,  // rule.addressee
        1.111972,  // rule.continuation
        -0.170190,  // rule.crowdedTurn
        -0.298721,  // rule.fallback
        -0.934420,  // rule.guess
        0.337148,  // rule.turnTaking
        -1.860982,  // spoke.previousTagged
        0.102916,  // spoke.previousUntagged
        0.958180,  // spoke.twoBackTagged
        0.501017,  // spoke.twoBackUntagged
        -1.712257,  // spoke.nextTagged
        -0.992546,  // spoke.nextUntagged
        0.415323,  // spoke.twoOnTagged
        0.394438,  // spoke.twoOnUntagged
        -0.171466,  // spoke.threeBack
        -0.044857,  // spoke.threeOn
        -0.338551,  // log2LinesSinceSpoke
        -0.098758,  // log2LinesSinceTagged
        -0.378995,  // log2LinesUntilSpeaks
        -2.280135,  // named.inLine
        0.196837,  // named.inPreviousLine
        0.347116,  // named.inNextLine
        1.344123,  // named.inNarrationBefore
        0.018016,  // named.inNarrationAfter
        0.252207,  // log10Share
        0.036924,  // female
        0.125553,  // rule.candidates
        -0.458781,  // alternatesBack
        -0.563140,  // alternatesOn
        -1.709204,  // previousWithoutNarration
        -0.784009,  // named.inShortNarrationBefore
        0.428498,  // recentShare
        0.215782,  // pronoun.after
        0.273095,  // pronoun.before
        0.373813,  // address.previousLine
        0.884031,  // address.nextLine
    ]
}
