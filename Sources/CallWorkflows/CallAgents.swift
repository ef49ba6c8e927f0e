import Audio
import Calls
import Foundation
import Logging
import Persistence
import Platform
import Speech
import StoryModel
import Telephony

/// Which voice agent plays a call, and the openings it says first, made ahead (issue 50: the
/// choice lives with the calls, below HTTP). The OpenAI Realtime API with the server's key when
/// it is set; else the voice loop on this machine: the transcriber, the local model and the
/// installed voice closest to the scenario's.
public struct CallAgents: Sendable {
    public var database: AppDatabase
    public var services: CallServices
    public var narration: (any NarrationService)?
    public var transcriber: (any SpeechTranscriber)?
    public var models: ModelAccess
    public var openings: CallOpenings
    public var logger: Logger

    public init(
        database: AppDatabase, services: CallServices, narration: (any NarrationService)?, transcriber: (any SpeechTranscriber)?,
        models: ModelAccess, openings: CallOpenings, logger: Logger
    ) {
        self.database = database
        self.services = services
        self.narration = narration
        self.transcriber = transcriber
        self.models = models
        self.openings = openings
        self.logger = logger
    }

    /// The agent for the call whose stream `grant` admitted.
    public func agent(for grant: MediaStreamGrant) async throws -> any VoiceAgent {
        if let realtime = services.realtime {
            return RealtimeAgent(scenario: grant.scenario, configuration: realtime, logger: logger)
        }
        guard let narration, let transcriber else {
            throw ServiceError(.unavailable, code: "no_local_agent", "This server has no voices for a call: its operator can install them (storyvoice doctor says how).")
        }
        guard let id = Int(grant.callID), let call = try await CallRepository(database: database).call(id: id) else {
            throw ServiceError(.notFound, code: "call_not_found", "The call is gone.")
        }
        let model = try await models.model(.local, userID: call.userID, database: database)
        let voice = try await Self.localVoice(like: grant.scenario.voice, narration: narration)
        let effects = LocalVoiceAgent.Effects(
            transcribe: { recording in
                let audio = switch recording {
                case .samples(let audio): audio
                case .file(let file): try await AudioDecoder(maxSeconds: 60).decode(file)
                }
                return TranscriptLoops.collapsed(try await transcriber.transcribe(audio))
            },
            model: model,
            speak: { text in try await narration.preview(voice, text: text) })
        return await LocalVoiceAgent.make(scenario: grant.scenario, effects: effects, openings: openings, voice: voice.voice, logger: logger)
    }

    /// Makes the opening of `scenario` ahead of its call, in the background, for the agent on
    /// this machine (the Realtime API speaks its own): when a call is placed (the phone rings
    /// meanwhile), and when a scenario of one's own is made or changed. The scenario's written
    /// words are only voiced; a custom scenario's are written by the model first, as background
    /// work of `userID`'s. Failures are left for the call, which writes the greeting live.
    public func prepareOpening(of scenario: CallScenario, for userID: UUID) {
        let agents = self
        Task.detached { await agents.makeOpening(of: scenario, for: userID) }
    }

    /// Voices the built-in scenarios' openings one after another, so that the first call of
    /// each opens at once too. They are kept on disk, so this costs once per installation and
    /// voice; a restart finds them made.
    public func warmOpenings() async {
        var voices: Set<String> = []
        for scenario in ScenarioCatalog.all where !Task.isCancelled {
            if let voice = await makeOpening(of: scenario, for: nil) { voices.insert(voice) }
        }
        // The openings are kept on disk; the workers that spoke them would otherwise sit idle
        // for minutes beside whatever the server does first (an export then peaked at 1.09 GB).
        await narration?.releaseIdleWorkers(voices: voices.sorted())
    }

    /// Makes and keeps the opening of `scenario` if the local agent would play it and none is
    /// kept yet (see `prepareOpening`); the voice that spoke it, if one did.
    @discardableResult
    func makeOpening(of scenario: CallScenario, for userID: UUID?) async -> String? {
        guard services.realtime == nil, let narration else { return nil }
        do {
            let voice = try await Self.localVoice(like: scenario.voice, narration: narration)
            let key = CallOpenings.Key(scenario: scenario, voice: voice.voice)
            guard await openings.ready(key) == nil else { return nil }
            let write: @Sendable () async throws -> String
            if let words = scenario.opening {
                write = { words }
            } else if let userID {
                let model = try await models.model(.local, userID: userID, database: database)
                write = { try await LocalVoiceAgent.writeOpening(for: scenario, model: model, priority: .background(owner: userID.uuidString)) }
            } else {
                return nil
            }
            _ = try await openings.opening(key, write: write, speak: { text in try await narration.preview(voice, text: text) })
            return voice.voice
        } catch {
            logger.notice("a call's opening was not made ahead: \(error)", metadata: ["scenario": "\(scenario.id)"])
            return nil
        }
    }

    /// The best live voice of the scenario voice's gender (any live voice if none is).
    public static func localVoice(like voice: RealtimeVoice, narration: any NarrationService) async throws -> VoiceAssignment {
        let voices = await narration.voices()
        let gender: Gender = voice.gender == .female ? .female : .male
        if let match = CastableVoices.bestLive(voices.filter { $0.gender == gender }) { return VoiceAssignment(voice: match.id) }
        return try await CastableVoices.live(nil, narration: narration)
    }
}
