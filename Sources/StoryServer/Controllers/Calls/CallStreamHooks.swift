import CallWorkflows
import Telephony
import Vapor

extension ServerConfig {
    /// The calls' agents with this server's voices, ears, models and openings.
    func callAgents(_ app: Application) -> CallAgents {
        CallAgents(
            database: app.appDatabase, services: calls, narration: narration, transcriber: transcriber, models: models, openings: callOpenings,
            logger: app.logger)
    }
}

/// The media stream's wiring: which call a stream is (the one-time token), what ends a call at
/// its limit, what is recorded when it ends, and which agent plays it (`CallAgents`).
enum CallStreamHooks {
    static func hooks(app: Application, config: ServerConfig) -> MediaStreamHooks {
        let calls: @Sendable () -> PhoneCalls = { PhoneCalls(database: app.appDatabase, services: config.calls, logger: app.logger) }
        let agents = config.callAgents(app)
        return MediaStreamHooks(
            authorize: { start in await calls().authorizeStream(token: start.customParameters["call_token"], callSid: start.callSid) },
            makeAgent: { grant in try await agents.agent(for: grant) },
            limitReached: { _, callSid in await calls().limitReached(callSid: callSid) },
            ended: { grant, summary in
                await calls().streamEnded(callID: grant.callID, secondsConnected: summary.secondsConnected, agentSpoke: summary.framesSent > 0)
            })
    }

    /// Voices the built-in scenarios' openings once the server runs, in the background (off in
    /// tests: `ServerConfig.warmsCallOpenings`).
    static func openingsWarmup(config: ServerConfig) -> LifecycleTask {
        LifecycleTask { application in
            let agents = config.callAgents(application)
            return Task.detached(priority: .background) { await agents.warmOpenings() }
        }
    }
}
