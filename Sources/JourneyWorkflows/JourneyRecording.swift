import Audio
import Foundation
import Journeys
import LanguageModels
import Platform
import Speech
import StoryModel

/// A journey told whole and written as one audiobook with a chapter per part, away from any
/// server (`storyvoice journey tell`): the same teller the server's jobs run, its parts kept in
/// memory and a scratch folder instead of the database and the store.
public struct JourneyRecording: Sendable {
    public var plan: JourneyPlan
    public var style: StoryStyle
    public var voice: JourneyVoice
    public var model: any LanguageModel

    public init(plan: JourneyPlan, style: StoryStyle, voice: JourneyVoice, model: any LanguageModel) {
        self.plan = plan
        self.style = style
        self.voice = voice
        self.model = model
    }

    public enum Progress: Sendable {
        /// Part `part` of `parts` is being told.
        case telling(part: Int, of: Int)
        /// The audiobook is being written (0…1).
        case writing(Double)
    }

    public struct Result: Sendable {
        public var title: String
        public var parts: Int
        public var storySeconds: Double
        public var elapsedSeconds: Double
        /// Parts told from the outline after the model failed.
        public var fallbacks: Int
    }

    /// Tells every part and writes the audiobook to `output`; refusals are `JourneyTellError`.
    public func write(to output: URL, progress: @escaping @Sendable (Progress) -> Void = { _ in }) async throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("storyvoice-journey-\(UUID.random().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = MemoryJourneyStore(folder: folder)
        let (voice, plan) = (voice, plan)
        let teller = JourneyTeller(plan: plan, style: style, model: model, speak: { try await voice.speak($0, wordsPerMinute: plan.wordsPerMinute) }, store: store)
        let started = ContinuousClock.now
        for part in 1...plan.parts {
            progress(.telling(part: part, of: plan.parts))
            try await teller.tell(part: part)
        }
        let parts = await store.allParts
        let title = await store.outline().flatMap { $0.title.isEmpty ? nil : $0.title } ?? "\(plan.start.name) to \(plan.end.name)"
        try await JourneyAudiobook(title: title, parts: parts, folder: folder).write(to: output) { progress(.writing($0)) }
        return Result(
            title: title, parts: parts.count, storySeconds: parts.reduce(0) { $0 + $1.durationSeconds },
            elapsedSeconds: Self.seconds(ContinuousClock.now - started),
            fallbacks: parts.filter(\.fallback).count)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

/// The voice a journey is told in, from the installed engines.
public struct JourneyVoice: Sendable {
    public let voice: Voice
    let engine: any SpeechSynthesizer

    /// `id` from `storyvoice voices`, or the best installed voice that speaks faster than real time.
    public init(id: String?, engines: [any SpeechSynthesizer] = Engines.available()) async throws {
        let catalog = await VoiceCatalog.load(from: engines)
        if let id {
            guard let voice = catalog.voice(id: id), let engine = catalog.engine(for: voice) else {
                throw ServiceError(.invalid, code: "unknown_voice", "There is no installed voice '\(id)'. Run 'storyvoice voices' to list them.")
            }
            (self.voice, self.engine) = (voice, engine)
        } else {
            guard let best = CastableVoices.bestLive(catalog.voices), let engine = catalog.engine(for: best) else {
                throw ServiceError(.unavailable, code: "no_voices", "No voice is installed: run scripts/setup.")
            }
            (self.voice, self.engine) = (best, engine)
        }
    }

    /// `text` in this voice slowed to `wordsPerMinute`, the plan's pace (`VoicePaces`).
    func speak(_ text: String, wordsPerMinute: Double) async throws -> Data {
        let (voice, engine) = (voice, engine)
        let rate = await VoicePaces.shared.rate(for: voice.id, isCloud: Engines.isCloud(voice.engine), target: wordsPerMinute) { sample in
            WAV.encode(try await engine.synthesize(sample, voice: voice, settings: SpeechSettings()))
        }
        return WAV.encode(try await engine.synthesize(text, voice: voice, settings: SpeechSettings(rate: rate)))
    }
}
