import Audio
import Calls
import CallWorkflows
import Fluent
import Foundation
import LanguageModels
import Persistence
import Speech
import StoryModel
import StoryWorkflows
import Telephony
import Vapor

/// The media stream's wiring: which call a stream is (the one-time token), what ends a call at
/// its limit, what is recorded when it ends, and which voice agent plays the scenario: the
/// OpenAI Realtime API with the server's key, else the voice loop on this machine (the server's
/// transcriber, the local model, the installed voice closest to the scenario's).
enum CallAgents {
    static func hooks(app: Application, config: ServerConfig) -> MediaStreamHooks {
        let calls: @Sendable () -> PhoneCalls = { PhoneCalls(database: app.db, services: config.calls, logger: app.logger) }
        return MediaStreamHooks(
            authorize: { start in await calls().authorizeStream(token: start.customParameters["call_token"], callSid: start.callSid) },
            makeAgent: { grant in try await agent(for: grant, app: app, config: config) },
            limitReached: { _, callSid in await calls().limitReached(callSid: callSid) },
            ended: { grant, summary in
                await calls().streamEnded(callID: grant.callID, secondsConnected: summary.secondsConnected, agentSpoke: summary.framesSent > 0)
            })
    }

    static func agent(for grant: MediaStreamGrant, app: Application, config: ServerConfig) async throws -> any VoiceAgent {
        if let realtime = config.calls.realtime {
            return RealtimeAgent(scenario: grant.scenario, configuration: realtime, logger: app.logger)
        }
        guard let narration = config.narration, let transcriber = config.transcriber else {
            throw CallError(.unavailable, code: "no_local_agent", "This server has no voices for a call: its operator can install them (storyvoice doctor says how).")
        }
        guard let id = Int(grant.callID), let call = try await PhoneCallRecord.find(id, on: app.db) else {
            throw CallError(.notFound, code: "call_not_found", "The call is gone.")
        }
        let model = try await config.models.model(.local, userID: call.$user.id, database: app.db)
        let voice = try await localVoice(like: grant.scenario.voice, narration: narration)
        let effects = LocalVoiceAgent.Effects(
            transcribe: { recording in
                switch recording {
                case .samples(let audio): try await transcriber.transcribe(audio)
                case .file(let file): try await transcriber.transcribe(try await AudioDecoder(maxSeconds: 60).decode(file))
                }
            },
            model: model,
            speak: { text in try await narration.preview(voice, text: text) })
        return await LocalVoiceAgent.make(scenario: grant.scenario, effects: effects, openings: config.callOpenings, voice: voice.voice, logger: app.logger)
    }

    /// Makes the opening of `scenario` ahead of its call, in the background, for the agent on
    /// this machine (the Realtime API speaks its own): when a call is placed (the phone rings
    /// meanwhile), and when a scenario of one's own is made or changed. The scenario's written
    /// words are only voiced; a custom scenario's are written by the model first, as background
    /// work of `userID`'s. Failures are left for the call, which writes the greeting live.
    static func prepareOpening(of scenario: CallScenario, for userID: UUID, app: Application, config: ServerConfig) {
        let database = app.db, logger = app.logger
        Task.detached { await makeOpening(of: scenario, for: userID, database: database, config: config, logger: logger) }
    }

    /// Voices the built-in scenarios' openings once the server runs, one after another in the
    /// background, so that the first call of each opens at once too. They are kept on disk, so
    /// this costs once per installation and voice; a restart finds them made. Off in tests
    /// (`ServerConfig.warmsCallOpenings`).
    static func openingsWarmup(config: ServerConfig) -> LifecycleTask {
        LifecycleTask { application in
            let database = application.db, logger = application.logger
            return Task.detached(priority: .background) {
                for scenario in ScenarioCatalog.all where !Task.isCancelled {
                    await makeOpening(of: scenario, for: nil, database: database, config: config, logger: logger)
                }
            }
        }
    }

    /// Makes and keeps the opening of `scenario` if the local agent would play it and none is
    /// kept yet (see `prepareOpening`).
    static func makeOpening(of scenario: CallScenario, for userID: UUID?, database: any Database, config: ServerConfig, logger: Logger) async {
        guard config.calls.realtime == nil, let narration = config.narration else { return }
        let openings = config.callOpenings
        do {
            let voice = try await localVoice(like: scenario.voice, narration: narration)
            let key = CallOpenings.Key(scenario: scenario, voice: voice.voice)
            guard await openings.ready(key) == nil else { return }
            let write: @Sendable () async throws -> String
            if let words = scenario.opening {
                write = { words }
            } else if let userID {
                let model = try await config.models.model(.local, userID: userID, database: database)
                write = { try await LocalVoiceAgent.writeOpening(for: scenario, model: model, priority: .background(owner: userID.uuidString)) }
            } else {
                return
            }
            _ = try await openings.opening(key, write: write, speak: { text in try await narration.preview(voice, text: text) })
        } catch {
            logger.notice("a call's opening was not made ahead: \(error)", metadata: ["scenario": "\(scenario.id)"])
        }
    }

    /// The best live voice of the scenario voice's gender (any live voice if none is).
    static func localVoice(like voice: RealtimeVoice, narration: any NarrationService) async throws -> VoiceAssignment {
        let voices = await narration.voices()
        let gender: Gender = voice.gender == .female ? .female : .male
        if let match = CastableVoices.bestLive(voices.filter { $0.gender == gender }) { return VoiceAssignment(voice: match.id) }
        return try await CastableVoices.live(nil, narration: narration)
    }
}
