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
        "turn.modelProbability",
        "turn.movedByModel",
    ]
    static let bias = 1.722398
    static let weights: [Double] = [
        -2.877038,  // evidence.guess
        -3.091133,  // evidence.crowdedTurn
        -3.189475,  // evidence.fallback
        -3.069564,  // evidence.turnTaking
        -2.513226,  // evidence.addressee
        0.480828,  // evidence.action
        -2.688025,  // evidence.continuation
        0.177782,  // evidence.pronounTagClose
        1.335548,  // evidence.pronounTag
        3.073438,  // evidence.namedTag
        0.928135,  // speaker.role
        -0.070228,  // speaker.narrator
        -6.535438,  // speaker.group
        0.200985,  // speaker.log10Share
        -2.714635,  // speaker.minorRole
        -0.371819,  // speaker.minorName
        0.061364,  // speaker.sharesSurname
        0.012007,  // speaker.sharesGivenName
        0.035929,  // speaker.log2Forms
        0.239569,  // speaker.titles
        -0.039039,  // speaker.genderConfidence
        0.000000,  // speaker.genderUnknown
        0.009008,  // line.log2Words
        0.136626,  // line.crowdedParagraph
        -0.172125,  // line.sameAsPrevious
        -0.223254,  // line.sameAsNext
        -1.649224,  // line.beforeFirstMention
        0.590684,  // book.log10Lines
        -0.305694,  // book.log2Speakers
        -1.130968,  // role.namedTag
        -0.277116,  // role.pronounTag
        0.212321,  // line.log2TagDistance
        -0.491594,  // line.nearbySpeakers
        0.169599,  // line.alternates
        -0.674958,  // turn.log2TagDistance
        0.327353,  // turn.nearbySpeakers
        0.219820,  // turn.alternates
        4.054141,  // turn.modelProbability
        -0.075593,  // turn.movedByModel
    ]
}
