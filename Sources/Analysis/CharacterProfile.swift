/// A label a model gave, with the passage it rests on. Only labels whose evidence was found,
/// word for word, in the story are kept.
public struct EvidencedLabel: Sendable, Hashable, Codable {
    public var value: String
    /// A quotation from the story that supports the label.
    public var evidence: String

    public init(value: String, evidence: String) {
        self.value = value
        self.evidence = evidence
    }
}

/// What the enrichment pass learned about one character.
public struct CharacterProfile: Sendable, Hashable, Codable {
    public var id: String
    public var gender: EvidencedLabel?
    public var ageRange: EvidencedLabel?
    public var accent: EvidencedLabel?
    public var personality: EvidencedLabel?
    /// One line for people choosing a voice: "Emma's anxious, talkative father".
    public var description: EvidencedLabel?

    public init(id: String, gender: EvidencedLabel? = nil, ageRange: EvidencedLabel? = nil, accent: EvidencedLabel? = nil, personality: EvidencedLabel? = nil, description: EvidencedLabel? = nil) {
        self.id = id
        self.gender = gender
        self.ageRange = ageRange
        self.accent = accent
        self.personality = personality
        self.description = description
    }
}
