/// A person (or speaking thing) in a story.
public struct Character: Codable, Sendable, Hashable, Identifiable {
    /// Stable within a story ("c1", "c2", ...); casts refer to characters by it.
    public var id: String
    public var name: String
    public var aliases: [String]
    public var gender: Gender
    public var ageRange: AgeRange
    public var accent: String?
    public var personality: String?
    /// One line on who they are ("Emma's anxious, kindly father"), from a model's enrichment
    /// pass or the user; nil when nobody has said.
    public var description: String?
    /// Number of dialogue segments attributed to this character.
    public var lines: Int
    /// How sure the analysis is of `gender` and `ageRange`, in [0, 1].
    public var genderConfidence: Double?
    public var ageConfidence: Double?
    /// The story's own words behind a model's label, keyed by the field it supports
    /// (`gender`, `ageRange`, `accent`, `personality`, `description`): why the model said so.
    /// A field the user edits loses its quotation, which no longer speaks for it.
    public var evidence: [String: String]

    /// The fields `evidence` can speak for, as they are named in JSON.
    public enum EvidencedField: String, CaseIterable, Sendable {
        case gender, ageRange, accent, personality, description
    }

    public init(
        id: String, name: String, aliases: [String] = [], gender: Gender = .unknown,
        ageRange: AgeRange = .unknown, accent: String? = nil, personality: String? = nil,
        lines: Int = 0, genderConfidence: Double? = nil, ageConfidence: Double? = nil, description: String? = nil,
        evidence: [String: String] = [:]
    ) {
        self.id = id
        self.name = name
        self.aliases = aliases
        self.gender = gender
        self.ageRange = ageRange
        self.accent = accent
        self.personality = personality
        self.description = description
        self.lines = lines
        self.genderConfidence = genderConfidence
        self.ageConfidence = ageConfidence
        self.evidence = evidence
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, aliases, gender, ageRange, accent, personality, description, lines, genderConfidence, ageConfidence, evidence
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            name: try container.decode(String.self, forKey: .name),
            aliases: try container.decode([String].self, forKey: .aliases),
            gender: try container.decode(Gender.self, forKey: .gender),
            ageRange: try container.decode(AgeRange.self, forKey: .ageRange),
            accent: try container.decodeIfPresent(String.self, forKey: .accent),
            personality: try container.decodeIfPresent(String.self, forKey: .personality),
            lines: try container.decode(Int.self, forKey: .lines),
            genderConfidence: try container.decodeIfPresent(Double.self, forKey: .genderConfidence),
            ageConfidence: try container.decodeIfPresent(Double.self, forKey: .ageConfidence),
            description: try container.decodeIfPresent(String.self, forKey: .description),
            // Analyses stored before evidence was kept have none.
            evidence: try container.decodeIfPresent([String: String].self, forKey: .evidence) ?? [:])
    }

    /// Sets `field` to what the user chose: its model quotation goes, whatever it said.
    public mutating func dropEvidence(for field: EvidencedField) {
        evidence[field.rawValue] = nil
    }

    // Written by hand so unknown accent and personality appear as null rather than vanish.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(aliases, forKey: .aliases)
        try container.encode(gender, forKey: .gender)
        try container.encode(ageRange, forKey: .ageRange)
        try container.encode(accent, forKey: .accent)
        try container.encode(personality, forKey: .personality)
        try container.encodeIfPresent(description, forKey: .description)
        try container.encode(lines, forKey: .lines)
        try container.encodeIfPresent(genderConfidence, forKey: .genderConfidence)
        try container.encodeIfPresent(ageConfidence, forKey: .ageConfidence)
        if !evidence.isEmpty { try container.encode(evidence, forKey: .evidence) }
    }
}
