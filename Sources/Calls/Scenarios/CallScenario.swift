import Crypto
import Foundation

/// What the AI plays on a call: who it is (the system prompt), how it sounds (voice and
/// sampling temperature), and how the app lists it.
public struct CallScenario: Codable, Hashable, Sendable, Identifiable {
    public enum Category: String, CaseIterable, Codable, Sendable {
        case entertainment, professional, emergency, romantic, family, motivational, celebration, custom
    }

    /// A built-in scenario's id (`default`, `comedian`…) or `custom_<uuid>` for a user's own.
    public var id: String
    public var name: String
    public var description: String
    public var icon: String
    public var category: Category
    public var isFamilyFriendly: Bool
    public var voice: RealtimeVoice
    /// As the app's scenario table gives it (0.5–0.9); a Realtime session clamps it to the
    /// 0.6–1.2 that API accepts.
    public var temperature: Double
    /// The system prompt the voice agent plays: the character, the call's shape, the rules.
    public var instructions: String
    /// The agent's first words, written with the scenario (the built-in ones), so that a call
    /// opens at once without asking the model; nil: the model writes them (once, and they are
    /// kept: docs/calls.md, "The agent speaks first").
    public var opening: String?

    public init(
        id: String, name: String, description: String, icon: String, category: Category,
        isFamilyFriendly: Bool, voice: RealtimeVoice, temperature: Double, instructions: String, opening: String? = nil
    ) {
        self.id = id
        self.name = name
        self.description = description
        self.icon = icon
        self.category = category
        self.isFamilyFriendly = isFamilyFriendly
        self.voice = voice
        self.temperature = temperature
        self.instructions = instructions
        self.opening = opening
    }

    /// Names what the agent would open the call with: its character and its written opening.
    /// A change to either (an edited custom scenario) names another opening.
    public var fingerprint: String {
        let hashed = SHA256.hash(data: Data([id, instructions, opening ?? ""].joined(separator: "\u{0}").utf8))
        return hashed.prefix(16).map { String(format: "%02x", $0) }.joined()
    }
}
