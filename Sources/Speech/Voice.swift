import StoryModel

/// A voice in the catalogue, with the attributes casting matches on.
public struct Voice: Codable, Sendable, Hashable, Identifiable {
    /// `engine:name`, unique across engines, e.g. `espeak-ng:en-gb+f3`, `flite:slt`.
    public var id: String
    public var engine: String
    /// What the engine itself calls the voice (passed to the engine when synthesizing).
    public var engineVoice: String
    public var displayName: String
    public var gender: Gender
    public var age: AgeRange
    /// BCP-47-ish accent tag: `en-US`, `en-GB`, `en-GB-scotland`, `fr` ...
    public var accent: String?
    /// The voice's base pitch in semitones relative to a neutral voice of its gender;
    /// used to keep voices apart when casting.
    public var pitch: Double
    /// Higher is more pleasant over long listening (the narrator gets the best).
    public var quality: Int
    /// Free-form style words: "warm", "calm", "bright" ...
    public var style: [String]
    /// The recorded speaker the voice was built from, when known (`cmu-arctic:slt`, `piper:joe`).
    /// Voices of one speaker sound near-identical at the same pitch, across engines too:
    /// flite's `slt` and festival's `cmu_us_slt_arctic_hts` are both CMU Arctic "slt".
    /// Casting treats them as one voice unless their pitches are far apart.
    public var speaker: String?
    /// What the engine's vendor charges, in US dollars per 1,000 characters of text (0 for
    /// local engines). Cloud voices carry their list price so a render can be priced first.
    public var costPer1000Characters: Double
    /// Whether the engine performs `SpeechSettings.delivery` with this voice (OpenAI's
    /// gpt-4o-mini-tts reads it as `instructions`; tts-1, tts-1-hd, ElevenLabs, Gemini and the
    /// local engines ignore it). A line's cache key includes the delivery only when this is set,
    /// so an edited personality re-renders only lines whose audio it can change.
    public var readsDelivery: Bool
    /// The pitch shifts (semitones) casting may give this voice, when narrower than its usual
    /// range: a voice already moved from its model's own (hibari's variants) has less room left.
    public var pitchShifts: ClosedRange<Double>?

    public init(
        id: String, engine: String, engineVoice: String, displayName: String, gender: Gender,
        age: AgeRange = .adult, accent: String? = nil, pitch: Double = 0, quality: Int = 1, style: [String] = [],
        speaker: String? = nil, costPer1000Characters: Double = 0, readsDelivery: Bool = false, pitchShifts: ClosedRange<Double>? = nil
    ) {
        self.id = id
        self.engine = engine
        self.engineVoice = engineVoice
        self.displayName = displayName
        self.gender = gender
        self.age = age
        self.accent = accent
        self.pitch = pitch
        self.quality = quality
        self.style = style
        self.speaker = speaker
        self.costPer1000Characters = costPer1000Characters
        self.readsDelivery = readsDelivery
        self.pitchShifts = pitchShifts
    }

    /// Decodes catalogues and cast files written before a field existed: a missing
    /// `costPer1000Characters` is 0, a missing `readsDelivery` false, missing `age`, `pitch`, `quality`, `style` take the
    /// initializer's defaults.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            engine: try container.decode(String.self, forKey: .engine),
            engineVoice: try container.decode(String.self, forKey: .engineVoice),
            displayName: try container.decode(String.self, forKey: .displayName),
            gender: try container.decode(Gender.self, forKey: .gender),
            age: try container.decodeIfPresent(AgeRange.self, forKey: .age) ?? .adult,
            accent: try container.decodeIfPresent(String.self, forKey: .accent),
            pitch: try container.decodeIfPresent(Double.self, forKey: .pitch) ?? 0,
            quality: try container.decodeIfPresent(Int.self, forKey: .quality) ?? 1,
            style: try container.decodeIfPresent([String].self, forKey: .style) ?? [],
            speaker: try container.decodeIfPresent(String.self, forKey: .speaker),
            costPer1000Characters: try container.decodeIfPresent(Double.self, forKey: .costPer1000Characters) ?? 0,
            readsDelivery: try container.decodeIfPresent(Bool.self, forKey: .readsDelivery) ?? false,
            pitchShifts: try container.decodeIfPresent(ClosedRange<Double>.self, forKey: .pitchShifts)
        )
    }

    /// The list price of speaking `text` with this voice, in US dollars.
    public func cost(of text: String) -> Double {
        Double(text.count) * costPer1000Characters / 1000
    }

    /// The speaker family casting keeps apart: `speaker`, or the voice id when unknown.
    public var family: String { speaker ?? id }
}
