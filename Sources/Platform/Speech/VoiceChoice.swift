import StoryModel

/// A voice and delivery as a client sends it, checked before use.
public struct VoiceChoice: Decodable, Sendable {
    public var voice: String
    public var rate: Double?
    public var pitch: Double?
    public var volume: Double?

    public static let rates = 0.5...2.0
    public static let pitches = -12.0...12.0
    public static let volumes = 0.0...2.0
    public static let maxIDLength = 200

    public init(voice: String, rate: Double? = nil, pitch: Double? = nil, volume: Double? = nil) {
        self.voice = voice
        self.rate = rate
        self.pitch = pitch
        self.volume = volume
    }

    public func validated(against narration: any NarrationService) async throws -> VoiceAssignment {
        // Voice ids are short ("piper:en_US-joe-medium"): a long one is refused unread and unrepeated.
        guard voice.utf8.count <= Self.maxIDLength else {
            throw ServiceError(.invalid, code: "unknown_voice", "A voice id is at most \(Self.maxIDLength) characters; pick one from GET /api/voices.")
        }
        guard await narration.voices().contains(where: { $0.id == voice }) else {
            throw ServiceError(.invalid, code: "unknown_voice", "No installed voice is called '\(voice)'; pick one from GET /api/voices.")
        }
        let assignment = VoiceAssignment(voice: voice, rate: rate ?? 1, pitch: pitch ?? 0, volume: volume ?? 1)
        guard Self.rates.contains(assignment.rate) else {
            throw ServiceError(.invalid, code: "out_of_range", "Rate must be between 0.5 and 2.")
        }
        guard Self.pitches.contains(assignment.pitch) else {
            throw ServiceError(.invalid, code: "out_of_range", "Pitch must be between -12 and 12 semitones.")
        }
        guard Self.volumes.contains(assignment.volume) else {
            throw ServiceError(.invalid, code: "out_of_range", "Volume must be between 0 and 2.")
        }
        return assignment
    }
}

extension VoiceSummary {
    /// Automatic casting and model suggestions keep to free voices: a paid voice is used only
    /// where the user chose it themselves.
    public var isFree: Bool { cost_per_1000_characters == 0 }
}
