import LanguageModels
import StoryModel

/// An installed voice as the suggester sees it: plain values, so Analysis need not depend on Speech.
public struct VoiceOption: Sendable, Hashable, Codable {
    public var id: String
    public var gender: Gender
    public var age: AgeRange
    public var accent: String?
    public var style: [String]

    public init(id: String, gender: Gender, age: AgeRange = .adult, accent: String? = nil, style: [String] = []) {
        self.id = id
        self.gender = gender
        self.age = age
        self.accent = accent
        self.style = style
    }
}

/// A model's choice of voice for a character, checked against the installed voices.
public struct VoiceSuggestion: Sendable, Hashable, Codable {
    public var voice: String
    /// Speaking-rate multiplier, clamped to 0.7…1.4.
    public var rate: Double
    /// Pitch shift in semitones, clamped to −6…6.
    public var pitch: Double
    public var reason: String
}

/// Asks a model which installed voice suits a character. A voice id the model invents gives
/// nil, so the caller falls back to offline casting.
public struct VoiceSuggester: Sendable {
    public let model: MeteredModel

    public init(model: any LanguageModel, cache: ResponseCache? = nil, ledger: UsageLedger? = nil, prices: PriceTable = .builtIn) {
        self.model = MeteredModel(model, cache: cache, ledger: ledger, prices: prices)
    }

    static let schema = ResponseSchema(name: "voice_choice", schema: [
        "type": "object",
        "properties": [
            "voice": ["type": "string"],
            "rate": ["type": "number"],
            "pitch": ["type": "number"],
            "reason": ["type": "string"],
        ],
        "required": ["voice", "rate", "pitch", "reason"],
        "additionalProperties": false,
    ])

    /// A voice for `character` (its attributes and description) from `voices`; nil when the
    /// model names a voice that is not installed.
    public func suggest(for character: Character, story: String, voices: [VoiceOption]) async throws -> VoiceSuggestion? {
        guard !voices.isEmpty else { return nil }
        let voiceLines = voices.map { voice in
            "\(voice.id): \(voice.gender.rawValue), \(voice.age.rawValue)" + (voice.accent.map { ", \($0)" } ?? "")
                + (voice.style.isEmpty ? "" : ", " + voice.style.joined(separator: " "))
        }.joined(separator: "\n")
        let traits = [
            "gender: \(character.gender.rawValue)", "age: \(character.ageRange.rawValue)",
            character.accent.map { "accent: \($0)" }, character.personality.map { "personality: \($0)" },
            character.description.map { "description: \($0)" },
        ].compactMap { $0 }.joined(separator: "\n")
        let request = CompletionRequest(
            system: """
                You cast audiobook voices. Choose the one voice id from the list that best suits the character, \
                a speaking rate multiplier (0.7 to 1.4, 1 is normal) and a pitch shift in semitones (-6 to 6). \
                Answer only with an id from the list.
                """,
            user: "Character: \(character.name)\n\(traits)\n\nInstalled voices:\n\(voiceLines)",
            schema: Self.schema, temperature: 0, maxOutputTokens: 200
        )
        let response: CompletionResponse
        do {
            response = try await model.complete(request, step: Step.voice)
        } catch let error as LanguageModelError {
            if case .unparseableAnswer = error.kind { return nil }
            throw AnalysisError(step: Step.voice, story: story, underlying: error)
        }
        guard let json = response.json, let voice = json["voice"]?.stringValue, voices.contains(where: { $0.id == voice }) else {
            return nil
        }
        return VoiceSuggestion(
            voice: voice,
            rate: min(1.4, max(0.7, json["rate"]?.doubleValue ?? 1)),
            pitch: min(6, max(-6, json["pitch"]?.doubleValue ?? 0)),
            reason: json["reason"]?.stringValue ?? ""
        )
    }

    /// Suggestions for every speaking character not in `cast` (most talkative first), keyed by
    /// character id; characters whose suggestion named no installed voice are left out.
    /// `progress` gets (done, total, character) before each request.
    public func suggest(
        forUncast characters: [Character], cast: Set<String>, story: String, voices: [VoiceOption],
        progress: (Int, Int, Character) async throws -> Void = { _, _, _ in }
    ) async throws -> (suggestions: [String: VoiceSuggestion], asked: Int) {
        let speaking = characters.filter { $0.lines > 0 && !cast.contains($0.id) }
            .sorted { ($0.lines, $1.id) > ($1.lines, $0.id) }
        var suggestions: [String: VoiceSuggestion] = [:]
        for (done, character) in speaking.enumerated() {
            try await progress(done, speaking.count, character)
            if let suggestion = try await suggest(for: character, story: story, voices: voices) {
                suggestions[character.id] = suggestion
            }
        }
        return (suggestions, speaking.count)
    }
}
