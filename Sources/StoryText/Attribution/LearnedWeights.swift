// Written by bench/attribution-learn.py --write; do not edit. Fitted on the 13 development novels
// (24861 lines, L2 1.00); judged leave one novel out by the same script (docs/analysis.md).
enum LearnedWeights {
    static let names: [String] = [
        "evidence.guess",
        "evidence.crowdedTurn",
        "evidence.fallback",
        "evidence.turnTaking",
        "evidence.addressee",
        "evidence.action",
        "evidence.continuation",
        "evidence.pronounTagClose",
        "evidence.pronounTag",
        "evidence.namedTag",
        "speaker.role",
        "speaker.narrator",
        "speaker.group",
        "speaker.log10Share",
        "speaker.minorRole",
        "speaker.minorName",
        "speaker.sharesSurname",
        "speaker.sharesGivenName",
        "speaker.log2Forms",
        "speaker.titles",
        "speaker.genderConfidence",
        "speaker.genderUnknown",
        "line.log2Words",
        "line.crowdedParagraph",
        "line.sameAsPrevious",
        "line.sameAsNext",
        "line.beforeFirstMention",
        "book.log10Lines",
        "book.log2Speakers",
        "role.namedTag",
        "role.pronounTag",
        "line.log2TagDistance",
        "line.nearbySpeakers",
        "line.alternates",
        "turn.log2TagDistance",
        "turn.nearbySpeakers",
        "turn.alternates",
    ]
    static let bias = 3.561127
    static let weights: [Double] = [
        -1.594103,  // evidence.guess
        -1.268356,  // evidence.crowdedTurn
        -1.266431,  // evidence.fallback
        -0.725381,  // evidence.turnTaking
        -0.176700,  // evidence.addressee
        -1.137912,  // evidence.action
        -1.522649,  // evidence.continuation
        -1.361106,  // evidence.pronounTagClose
        -0.231161,  // evidence.pronounTag
        1.474342,  // evidence.namedTag
        0.725529,  // speaker.role
        -0.170434,  // speaker.narrator
        -6.851557,  // speaker.group
        0.426651,  // speaker.log10Share
        -2.245778,  // speaker.minorRole
        -0.548499,  // speaker.minorName
        0.016796,  // speaker.sharesSurname
        0.004221,  // speaker.sharesGivenName
        0.003048,  // speaker.log2Forms
        0.276775,  // speaker.titles
        0.131823,  // speaker.genderConfidence
        0.000000,  // speaker.genderUnknown
        -0.009993,  // line.log2Words
        0.548227,  // line.crowdedParagraph
        -0.368019,  // line.sameAsPrevious
        -0.589821,  // line.sameAsNext
        -1.374882,  // line.beforeFirstMention
        0.450212,  // book.log10Lines
        -0.241044,  // book.log2Speakers
        -1.180780,  // role.namedTag
        -0.238483,  // role.pronounTag
        0.276227,  // line.log2TagDistance
        -0.464234,  // line.nearbySpeakers
        0.187194,  // line.alternates
        -0.676313,  // turn.log2TagDistance
        -0.040170,  // turn.nearbySpeakers
        0.723731,  // turn.alternates
    ]
}
