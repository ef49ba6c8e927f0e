import Audio
import Foundation
import Journeys
import Platform
import StoryModel

/// Each voice's own pace, measured once a process by having it read `StorytellingPace.sample`,
/// and the rate that tells a journey's story at a storyteller's pace in it. Voices on this
/// machine only: a cloud voice would charge for the sample (and Gemini's has no rate), so it
/// keeps its own pace, and the teller's words follow whatever it measures on the parts.
public actor VoicePaces {
    public static let shared = VoicePaces()

    private var measured: [String: Task<Double?, Never>] = [:]

    public init() {}

    /// The rate for `voice`; `speakAtOwnRate` reads text at rate 1 as a WAV file's bytes. A
    /// voice that cannot read the sample keeps rate 1 (its failure shows on the story's first
    /// sentence, with the message the teller gives).
    public func rate(for voice: String, isCloud: Bool, target: Double = JourneyPlanner.defaultWordsPerMinute,
                     speakAtOwnRate: @escaping @Sendable (String) async throws -> Data) async -> Double {
        guard !isCloud else { return 1 }
        let task = measured[voice] ?? Task {
            guard let wav = try? await speakAtOwnRate(StorytellingPace.sample), let seconds = try? WAV.decode(wav).durationSeconds else { return nil }
            return StorytellingPace.wordsPerMinute(of: StorytellingPace.sample, seconds: seconds)
        }
        measured[voice] = task
        guard let natural = await task.value else {
            measured[voice] = nil
            return 1
        }
        return StorytellingPace.rate(naturalWordsPerMinute: natural, target: target)
    }
}

extension VoicePaces {
    /// `voice` slowed to `target` words a minute (the journey's plan), as `narration` speaks it.
    func paced(_ voice: VoiceAssignment, target: Double, narration: any NarrationService) async -> VoiceAssignment {
        var paced = voice
        paced.rate = voice.rate * (await rate(for: voice.voice, isCloud: Engines.isCloud(voice: voice.voice), target: target) { text in
            try await narration.preview(VoiceAssignment(voice: voice.voice), text: text)
        })
        return paced
    }
}
