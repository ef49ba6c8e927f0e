import Foundation

/// Energy-based turn detection on 8 kHz telephone audio, 20 ms at a time: speech starts after
/// a few loud frames in a row, and ends after enough quiet ones. The threshold follows the
/// line's noise floor (the quietest recent level, times a margin), so a hissing line is not
/// speech and a quiet caller still is.
struct SpeechDetector: Sendable {
    struct Settings: Sendable {
        /// Loud frames in a row that start speech (60 ms).
        var startFrames = 3
        /// Quiet frames in a row that end it (700 ms: a breath between sentences is shorter).
        var endFrames = 35
        /// Below this RMS nothing is speech, however quiet the line.
        var minimumLevel = 400.0
        /// Speech is this many times louder than the noise floor.
        var margin = 3.0
        /// Audio kept from before speech was detected, so its first syllable is not lost.
        var prerollFrames = 10
        /// An utterance is cut here and answered (30 s).
        var maxFrames = 1500
        /// Shorter utterances are noise (a cough, a click): 300 ms.
        var minFrames = 15

        init() {}
    }

    enum Event: Equatable {
        case started
        /// The utterance's samples, preroll included.
        case ended([Int16])
    }

    static let frameSamples = 160

    let settings: Settings
    private var pending: [Int16] = []
    private var preroll: [[Int16]] = []
    private var utterance: [Int16] = []
    private var speaking = false
    private var loudRun = 0
    private var quietRun = 0
    private var frames = 0
    private var noiseFloor: Double

    init(settings: Settings = Settings()) {
        self.settings = settings
        noiseFloor = settings.minimumLevel / settings.margin
    }

    var isSpeaking: Bool { speaking }

    /// Feeds samples (any count); returns what happened, in order.
    mutating func add(_ samples: [Int16]) -> [Event] {
        pending += samples
        var events: [Event] = []
        var offset = 0
        while pending.count - offset >= Self.frameSamples {
            if let event = frame(Array(pending[offset..<offset + Self.frameSamples])) { events.append(event) }
            offset += Self.frameSamples
        }
        pending.removeFirst(offset)
        return events
    }

    private mutating func frame(_ frame: [Int16]) -> Event? {
        let level = (frame.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(frame.count)).squareRoot()
        let loud = level > max(settings.minimumLevel, noiseFloor * settings.margin)
        // The floor falls at once to a quieter frame and rises slowly: quickly enough to learn a
        // hissing line in a second or two, hardly at all during speech (a hum loud enough to
        // pass for speech is learnt in about half a minute). It starts low, so a caller who
        // speaks the moment the call connects is heard.
        if level < noiseFloor {
            noiseFloor = level
        } else {
            noiseFloor += (level - noiseFloor) * (loud ? 0.001 : 0.02)
        }
        if speaking {
            utterance += frame
            frames += 1
            quietRun = loud ? 0 : quietRun + 1
            guard quietRun >= settings.endFrames || frames >= settings.maxFrames else { return nil }
            let voiced = frames - quietRun
            speaking = false
            quietRun = 0
            let samples = utterance
            utterance = []
            return voiced >= settings.minFrames ? .ended(samples) : .ended([])
        }
        preroll.append(frame)
        if preroll.count > settings.prerollFrames { preroll.removeFirst() }
        loudRun = loud ? loudRun + 1 : 0
        guard loudRun >= settings.startFrames else { return nil }
        speaking = true
        loudRun = 0
        frames = settings.startFrames  // counts voiced frames; the preroll's quiet ones are not
        utterance = preroll.flatMap { $0 }
        preroll = []
        return .started
    }
}
