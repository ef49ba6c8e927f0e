import Foundation

/// A user's own scenario as they send it, checked before it is kept: lengths, the voice, the
/// temperature, and a prompt that does not set the voice up to defraud, impersonate, threaten
/// or harass whoever answers. The house rules are appended to every prompt anyway; the check
/// tells the author at once instead of leaving the model to refuse on the call.
public struct CustomScenarioDraft: Codable, Equatable, Sendable {
    public var name: String
    public var description: String?
    public var icon: String?
    public var prompt: String
    public var voice: String
    public var temperature: Double?

    public static let nameLength = 1...60
    public static let descriptionLimit = 200
    public static let promptLength = 20...2_000
    public static let temperatureRange = 0.5...1.0

    public init(name: String, description: String? = nil, icon: String? = nil, prompt: String, voice: String, temperature: Double? = nil) {
        self.name = name
        self.description = description
        self.icon = icon
        self.prompt = prompt
        self.voice = voice
        self.temperature = temperature
    }

    /// The scenario this draft makes, with `id`; or why it cannot be one.
    public func scenario(id: String) throws(CallsError) -> CallScenario {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        let prompt = prompt.trimmingCharacters(in: .whitespacesAndNewlines)
        let description = (description ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard Self.nameLength.contains(name.count) else {
            throw .invalidScenario("A scenario needs a name of 1 to \(Self.nameLength.upperBound) characters.")
        }
        guard description.count <= Self.descriptionLimit else {
            throw .invalidScenario("The description is \(description.count) characters; keep it to \(Self.descriptionLimit).")
        }
        guard Self.promptLength.contains(prompt.count) else {
            throw .invalidScenario(
                "The prompt is \(prompt.count) characters; it needs \(Self.promptLength.lowerBound) to \(Self.promptLength.upperBound): who the voice is and what the call is about.")
        }
        guard let voice = RealtimeVoice(rawValue: voice.lowercased()) else {
            let names = RealtimeVoice.allCases.map(\.rawValue).joined(separator: ", ")
            throw .invalidScenario("\"\(self.voice)\" is not a voice; choose one of \(names).")
        }
        let temperature = temperature ?? 0.7
        guard Self.temperatureRange.contains(temperature) else {
            throw .invalidScenario("The temperature must be between 0.5 and 1.0 (\(temperature) given).")
        }
        if let concern = PromptScreen.concern(in: name + " " + description + " " + prompt) {
            throw .invalidScenario("This scenario can't be used: \(concern) Rewrite the prompt and try again.")
        }
        let icon = (icon?.isEmpty == false ? icon! : "🎭")
        return CallScenario(
            id: id, name: name, description: description.isEmpty ? "Your own scenario" : description,
            icon: String(icon.prefix(2)), category: .custom, isFamilyFriendly: false, voice: voice,
            temperature: temperature, instructions: prompt + "\n\n" + ScenarioCatalog.houseRules)
    }
}

/// Finds what a prompt must not ask of a voice that calls strangers. Phrases, not single words,
/// where a word alone is innocent ("police drama" in a story is fine; "say you are the police"
/// is not).
enum PromptScreen {
    private static let concerns: [(reason: String, patterns: [String])] = [
        ("it asks for secrets or money (passwords, codes, card or bank details, payments).", [
            #"\bpass(word|code)s?\b"#, #"\b(pin|cvv|ssn)\b"#, #"\b(credit|debit) card\b"#, #"\bcard (number|details)\b"#,
            #"\bbank (account|details|login)\b"#, #"\bsocial security\b"#, #"\b(verification|one[- ]time|security) code\b"#,
            #"\bgift ?cards?\b"#, #"\bwire (transfer|money)\b"#, #"\bsend (me |us )?(money|cash|bitcoin|crypto)\b"#,
        ]),
        ("it has the voice pose as an authority (police, tax office, a bank, a government body).", [
            #"\b(you are|you're|pretend to be|pose as|act as|claim to be|say you are)( an?| the)? (police|officer|detective|irs|fbi|tax|government|bank|hospital|doctor|lawyer)"#,
            #"\b(arrest )?warrant\b"#, #"\byou (will be|are being) arrested\b"#,
        ]),
        ("it aims to threaten, frighten or harass someone.", [
            #"\b(threaten|intimidate|harass|stalk|blackmail|extort)\w*\b"#, #"\b(kill|hurt|kidnap)\w* (you|him|her|them)\b"#,
            #"\bransom\b"#, #"\bbomb\b"#, #"\bscare (them|him|her) (badly|to death)\b"#,
        ]),
        ("it asks for sexual content.", [#"\b(sex|sexual|nude|naked|porn\w*|explicit)\b"#]),
    ]

    static func concern(in text: String) -> String? {
        let lowered = text.lowercased()
        for concern in concerns where concern.patterns.contains(where: { lowered.range(of: $0, options: .regularExpression) != nil }) {
            return concern.reason
        }
        return nil
    }
}
