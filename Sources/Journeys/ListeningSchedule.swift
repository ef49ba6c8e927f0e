import Foundation

/// Where the listener is: the part and the sentence playing (the player sends it as each
/// sentence starts). Parts and sentences as the API numbers them: parts from 1, sentences from 0.
public struct ListenerPosition: Sendable, Hashable {
    public var part: Int
    public var sentence: Int

    public init(part: Int, sentence: Int = 0) {
        self.part = part
        self.sentence = sentence
    }
}

/// What is voiced of one part so far.
public struct PartAudio: Sendable, Hashable {
    public var isReady: Bool
    /// Each voiced sentence's seconds, in order.
    public var sentenceSeconds: [Double]

    public init(isReady: Bool, sentenceSeconds: [Double]) {
        self.isReady = isReady
        self.sentenceSeconds = sentenceSeconds
    }

    public var seconds: Double { sentenceSeconds.reduce(0, +) }
}

/// When the listener reaches each part: from the playhead, through the audio of the parts
/// before it. The model on this machine is shared, so each request for a part says when it is
/// due (`ModelPriority.due`), and the part a listener reaches first is written first.
///
/// Estimates err early: the sentence playing counts as heard to its end already (the playhead
/// says only which sentence started), and a part not yet ready lasts at least its planned minute
/// (the teller makes parts as long as that, and one that comes out short is made up by the next).
public struct ListeningSchedule: Sendable, Hashable {
    public var listener: ListenerPosition
    /// The parts begun so far, by number.
    public var parts: [Int: PartAudio]
    /// How long a part not yet ready is expected to last.
    public var partSeconds: Double

    public init(listener: ListenerPosition, parts: [Int: PartAudio], partSeconds: Double = JourneyPlanner.partSeconds) {
        self.listener = listener
        self.parts = parts
        self.partSeconds = partSeconds
    }

    /// Seconds from now until the listener reaches the start of `part`: 0 for the part they are
    /// in (it is due now: they are hearing it, or waiting for it) and for any behind them.
    public func secondsUntil(part: Int) -> Double {
        let current = max(1, listener.part)
        guard part > current else { return 0 }
        var seconds = remaining(inPart: current)
        for number in (current + 1)..<part { seconds += expectedSeconds(of: number) }
        return seconds
    }

    /// The audio of part `number` the listener has yet to hear after the sentence playing.
    func remaining(inPart number: Int) -> Double {
        let heard = (parts[number]?.sentenceSeconds.prefix(max(0, listener.sentence + 1)) ?? []).reduce(0, +)
        return max(0, expectedSeconds(of: number) - heard)
    }

    /// A ready part's audio; a part still being made at least its planned length.
    func expectedSeconds(of number: Int) -> Double {
        guard let audio = parts[number] else { return partSeconds }
        return audio.isReady ? audio.seconds : max(audio.seconds, partSeconds)
    }
}
