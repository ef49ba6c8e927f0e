import LanguageModels
import StoryModel
import VendorHTTP

/// The character-enrichment request: for each character, a few of their lines; back come
/// labels (gender, age range, accent, personality, description), each with a quotation.
enum EnrichmentPrompt {
    static let system = """
        You describe characters of a novel for casting voices. For each character listed, give gender, age range, \
        accent, personality and a one-line description, each with "evidence": an exact quotation (at least a few words, \
        copied character for character) from the passages shown that supports it. If the passages do not support \
        a label, give the value "unknown" and empty evidence. Accent is a short tag like "en-GB" or "en-US-south".
        """

    static let labelSchema: JSONValue = [
        "type": "object",
        "properties": ["value": ["type": "string"], "evidence": ["type": "string"]],
        "required": ["value", "evidence"],
        "additionalProperties": false,
    ]

    static func enumLabelSchema(_ values: [String]) -> JSONValue {
        [
            "type": "object",
            "properties": ["value": ["type": "string", "enum": .array(values.map { .string($0) })], "evidence": ["type": "string"]],
            "required": ["value", "evidence"],
            "additionalProperties": false,
        ]
    }

    static let schema = ResponseSchema(name: "character_profiles", schema: [
        "type": "object",
        "properties": [
            "characters": [
                "type": "array",
                "items": [
                    "type": "object",
                    "properties": [
                        "id": ["type": "string"],
                        "gender": enumLabelSchema(Gender.allCases.map(\.rawValue)),
                        "ageRange": enumLabelSchema(AgeRange.allCases.map(\.rawValue)),
                        "accent": labelSchema,
                        "personality": labelSchema,
                        "description": labelSchema,
                    ],
                    "required": ["id", "gender", "ageRange", "accent", "personality", "description"],
                    "additionalProperties": false,
                ],
            ],
        ],
        "required": ["characters"],
        "additionalProperties": false,
    ])

    /// The characters worth enriching (most lines first), in groups of one request each.
    static func groups(_ characters: [Character], options: LabellingOptions) -> [[Character]] {
        let ranked = characters.enumerated()
            .sorted { $0.element.lines != $1.element.lines ? $0.element.lines > $1.element.lines : $0.offset < $1.offset }
            .map(\.element)
            .prefix(options.maxEnrichedCharacters)
        return stride(from: 0, to: ranked.count, by: options.charactersPerEnrichmentRequest).map {
            Array(ranked[ranked.startIndex + $0 ..< min(ranked.endIndex, ranked.startIndex + $0 + options.charactersPerEnrichmentRequest)])
        }
    }

    static func request(group: [Character], text: ScalarText, segments: [Segment], title: String, options: LabellingOptions) -> CompletionRequest {
        var sections: [String] = []
        for character in group {
            let lines = segments.filter { $0.kind == .dialogue && $0.speaker == character.id }.prefix(options.linesPerCharacter)
            let samples = lines.map { segment in
                let window = LabellingPlan.window(around: segment, in: text, within: 0..<text.count, context: 120)
                return "- " + text.string(window.lowerBound, window.upperBound).trimmingWhitespace.replacingNewlines
            }
            let aliases = character.aliases.filter { $0 != character.name }
            sections.append(
                "\(character.id): \(character.name)" + (aliases.isEmpty ? "" : " (also: \(aliases.joined(separator: ", ")))")
                    + (samples.isEmpty ? "\n(no lines found)" : "\n" + samples.joined(separator: "\n"))
            )
        }
        let user = """
            Story: \(title)

            Characters, each with passages where they speak:

            \(sections.joined(separator: "\n\n"))

            Describe each of these characters: \(group.map(\.id).joined(separator: ", "))
            """
        return CompletionRequest(system: system, user: user, schema: schema, temperature: 0, maxOutputTokens: 300 + 220 * group.count)
    }

    static func typicalAnswer(group: [Character]) -> String {
        let label: JSONValue = ["value": "a plausible label", "evidence": "a quotation of about ten words from the passage shown"]
        let characters: [JSONValue] = group.map {
            ["id": .string($0.id), "gender": ["value": "female", "evidence": "a quotation of about ten words from the passage shown"],
             "ageRange": ["value": "adult", "evidence": "a quotation of about ten words from the passage shown"],
             "accent": label, "personality": label, "description": label]
        }
        return JSONValue.object(["characters": .array(characters)]).canonicalText
    }

    /// Reads an answer; labels whose evidence is not in the story, or whose character is not
    /// in the group, are dropped (counted in `dropped`).
    static func parse(_ text: String, group: [Character], evidence: EvidenceIndex) -> Result<(profiles: [CharacterProfile], dropped: Int), AnswerProblem> {
        guard let json = JSONValue(parsing: text) else { return .failure(AnswerProblem("the answer is not valid JSON")) }
        guard let entries = json["characters"]?.arrayValue else { return .failure(AnswerProblem("the answer has no \"characters\" list")) }
        let ids = Set(group.map(\.id))
        var profiles: [CharacterProfile] = []
        var dropped = 0
        for entry in entries {
            guard let id = entry["id"]?.stringValue, ids.contains(id) else {
                dropped += 1
                continue
            }
            func label(_ key: String, allowed: Set<String>? = nil) -> EvidencedLabel? {
                guard let value = entry[key]?["value"]?.stringValue?.trimmingWhitespace, !value.isEmpty, value.lowercased() != "unknown" else { return nil }
                guard allowed.map({ $0.contains(value) }) ?? true else {
                    dropped += 1
                    return nil
                }
                guard let quote = entry[key]?["evidence"]?.stringValue, evidence.contains(quote) else {
                    dropped += 1
                    return nil
                }
                return EvidencedLabel(value: value, evidence: quote.trimmingWhitespace)
            }
            profiles.append(CharacterProfile(
                id: id,
                gender: label("gender", allowed: Set(Gender.allCases.map(\.rawValue))),
                ageRange: label("ageRange", allowed: Set(AgeRange.allCases.map(\.rawValue))),
                accent: label("accent"),
                personality: label("personality"),
                description: label("description")
            ))
        }
        return .success((profiles, dropped))
    }
}

extension String {
    var replacingNewlines: String {
        String(map { $0.isNewline ? " " : $0 })
    }
}
