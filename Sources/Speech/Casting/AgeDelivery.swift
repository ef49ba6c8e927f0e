import StoryModel

/// How age colours delivery: children and teenagers higher and a little quicker, elderly
/// people lower and slower. Shifts are relative to an adult voice.
struct AgeDelivery: Sendable, Hashable {
    var pitch: Double
    var rate: Double

    init(_ age: AgeRange) {
        switch age {
        case .child: (pitch, rate) = (5, 1.08)
        case .teen: (pitch, rate) = (2, 1.04)
        case .elderly: (pitch, rate) = (-2, 0.9)
        case .adult, .unknown: (pitch, rate) = (0, 1)
        }
    }

    /// The delivery that turns a voice of age `voiceAge` into a character of age `age`:
    /// an elderly voice cast as an elderly character needs no further lowering.
    init(character age: AgeRange, voice voiceAge: AgeRange) {
        let wanted = AgeDelivery(age), own = AgeDelivery(voiceAge)
        self.init(pitch: wanted.pitch - own.pitch, rate: wanted.rate / own.rate)
    }

    init(pitch: Double, rate: Double) {
        self.pitch = pitch
        self.rate = rate
    }
}
