import Foundation

/// Energy-based turn detection, 20 ms at a time (a caller's 8 kHz line, a microphone's 16 kHz):
/// speech starts after a few loud frames in a row, and ends after enough quiet ones. The
/// threshold follows the line's noise floor (the quietest recent level, times a margin), so a
/// hissing line is not speech and a quiet speaker still is. Silence and noise found so never
/// reach the transcriber, which hears words in them ("you", "Thank you.").
public struct SpeechDetector: Sendable {
    public struct Settings: Sendable {
        /// Loud frames in a row that start speech (60 ms).
        public var startFrames = 3
        /// Quiet frames in a row that end it (700 ms: a breath between sentences is shorter).
        public var endFrames = 35
        /// Below this RMS nothing is speech, however quiet the line.
        public var minimumLevel = 400.0
        /// Speech is this many times louder than the noise floor.
        public var margin = 3.0
        /// Audio kept from before speech was detected, so its first syllable is not lost.
        public var prerollFrames = 10
        /// An utterance is cut here and answered (30 s).
        public var maxFrames = 1500
        /// Shorter utterances are noise (a cough, a click): 300 ms.
        public var minFrames = 15

        public init() {}
    }

    public enum Event: Equatable, Sendable {
        case started
        /// The utterance's samples, preroll included; empty when it was too short to be words.
        case ended([Int16])
    }

    public let settings: Settings
    /// Samples in one 20 ms frame.
    public let frameSamples: Int
    private var pending: [Int16] = []
    private var preroll: [[Int16]] = []
    private var utterance: [Int16] = []
    private var speaking = false
    private var loudRun = 0
    private var quietRun = 0
    private var frames = 0
    private var noiseFloor: Double

    /// - Parameter sampleRate: of the samples `add` is given (telephone audio: 8 kHz).
    public init(sampleRate: Int = 8_000, settings: Settings = Settings()) {
        self.settings = settings
        frameSamples = max(1, sampleRate / 50)
        noiseFloor = settings.minimumLevel / settings.margin
    }

    public var isSpeaking: Bool { speaking }

    /// Quiet frames at the end of the utterance in progress (0 when none is): a pause.
    public var trailingQuietFrames: Int { speaking ? quietRun : 0 }

    /// Quiet frames at the end of the last utterance that ended (its wait for the end).
    public private(set) var endedTrailingQuietFrames = 0

    /// Feeds samples (any count); returns what happened, in order.
    public mutating func add(_ samples: [Int16]) -> [Event] {
        pending += samples
        var events: [Event] = []
        var offset = 0
        while pending.count - offset >= frameSamples {
            if let event = frame(Array(pending[offset..<offset + frameSamples])) { events.append(event) }
            offset += frameSamples
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
            endedTrailingQuietFrames = quietRun
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

extension SpeechDetector {
    /// The speech in a whole recording: each utterance the detector finds (an utterance still
    /// going at the end counts if it is long enough to be words), joined; empty when the
    /// recording holds only silence or noise.
    public static func speech(in audio: PCMAudio, settings: Settings = Settings()) -> PCMAudio {
        var settings = settings
        settings.maxFrames = .max
        var detector = SpeechDetector(sampleRate: audio.sampleRate, settings: settings)
        var speech: [Int16] = []
        for event in detector.add(audio.samples) {
            if case .ended(let samples) = event { speech += samples }
        }
        speech += detector.unfinished()
        return PCMAudio(sampleRate: audio.sampleRate, samples: speech)
    }

    /// The utterance in progress, if it is long enough to be words (the recording ended
    /// mid-speech, as when a button is let go while still talking).
    public func unfinished() -> [Int16] {
        speaking && frames - quietRun >= settings.minFrames ? utterance : []
    }
}
