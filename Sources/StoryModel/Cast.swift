/// A voice chosen for one role, with the delivery settings to use with it.
public struct VoiceAssignment: Codable, Sendable, Hashable {
    /// A catalogue voice id, `engine:voice` (for example `flite:slt`, `espeak-ng:en-gb+f3`).
    public var voice: String
    /// Speaking rate multiplier (1 = the engine's normal rate).
    public var rate: Double
    /// Pitch shift in semitones (0 = the voice's own pitch).
    public var pitch: Double
    /// Volume multiplier (1 = unchanged).
    public var volume: Double
    /// The role's name, written for people editing a cast file; ignored when reading.
    public var name: String?
    /// How the role speaks, in words ("stern and proud; an elderly man; a Scottish accent"), for
    /// engines that take a direction (OpenAI's gpt-4o-mini-tts `instructions`); others ignore it.
    public var delivery: String?

    public init(voice: String, rate: Double = 1, pitch: Double = 0, volume: Double = 1, name: String? = nil, delivery: String? = nil) {
        self.voice = voice
        self.name = name
        self.delivery = delivery
        self.rate = rate
        self.pitch = pitch
        self.volume = volume
    }
}

/// Who reads what: the narrator's voice and one voice per character, keyed by character id.
public struct Cast: Codable, Sendable, Hashable {
    public var narrator: VoiceAssignment
    public var characters: [String: VoiceAssignment]

    public init(narrator: VoiceAssignment, characters: [String: VoiceAssignment]) {
        self.narrator = narrator
        self.characters = characters
    }

    /// The assignment for a segment's speaker; the narrator's for narration or an unknown id.
    public func assignment(for speaker: String?) -> VoiceAssignment {
        speaker.flatMap { characters[$0] } ?? narrator
    }
}
