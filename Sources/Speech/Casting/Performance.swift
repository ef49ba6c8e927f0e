import StoryModel

/// A voice as a listener hears it in one role: the catalogue voice and the pitch shift applied.
struct Performance: Sendable, Hashable {
    var voiceID: String
    /// Nil when a cast file names a voice this catalogue lacks.
    var voice: Voice?
    var pitch: Double
    /// The timbre family: espeak-ng voices `en-gb+m3` and `en-us+m3` share the variant `m3`,
    /// and so sound alike apart from accent.
    let timbre: String
    /// The recorded speaker (`Voice.family`): voices of one speaker on different engines
    /// (flite slt, festival slt) are near-identical, so they count as one timbre.
    let family: String

    init(voiceID: String, voice: Voice?, pitch: Double) {
        self.voiceID = voiceID
        self.voice = voice
        self.pitch = pitch
        if let voice {
            let variant = voice.engineVoice.split(separator: "+").last.map(String.init) ?? voice.engineVoice
            timbre = "\(voice.engine):\(variant)"
            family = voice.family
        } else {
            timbre = voiceID
            family = voiceID
        }
    }

    /// The pitch a listener hears, in semitones against a neutral voice of the voice's gender.
    var heardPitch: Double { (voice?.pitch ?? 0) + pitch }

    /// Whether a listener could take the two for one voice: the same speaker within
    /// `CastingDirector.minimumPitchSeparation` semitones of heard pitch.
    func isConfusable(with other: Performance) -> Bool {
        family == other.family && abs(heardPitch - other.heardPitch) < CastingDirector.minimumPitchSeparation
    }

    /// How far apart two performances sound, about 0 (identical) to 6. Engine and timbre
    /// matter most, then accent and gender, then heard pitch (capped, so pitch alone never
    /// stands in for a different voice).
    func distance(to other: Performance) -> Double {
        var distance = 0.0
        if family == other.family {
            // The same speaker: only accent, gender and pitch can tell them apart.
        } else if voice?.engine != other.voice?.engine || (voice == nil && voiceID != other.voiceID) {
            distance += 2
        } else if timbre != other.timbre {
            distance += 1.5
        }
        if voice?.accent?.lowercased() != other.voice?.accent?.lowercased() { distance += 1 }
        if voice?.gender != other.voice?.gender { distance += 1 }
        distance += min(abs(heardPitch - other.heardPitch) / 3, 1.5)
        return distance
    }
}
