import Calls
import Foundation

/// What the `authorize` hook gives a stream whose `start` carried a valid call token: which
/// call it is, what the AI plays, and how long the call may last. No grant, no session.
public struct MediaStreamGrant: Sendable, Hashable {
    /// Our id for the call (the lead's call record), not Twilio's CallSid.
    public var callID: String
    public var scenario: CallScenario
    /// Seconds from the stream's `start` until the call is ended by us.
    public var durationLimit: Int

    public init(callID: String, scenario: CallScenario, durationLimit: Int) {
        self.callID = callID
        self.scenario = scenario
        self.durationLimit = durationLimit
    }
}

/// How a session ended, for the `ended` hook.
public struct MediaStreamSummary: Sendable, Hashable {
    public enum Reason: String, Sendable, Hashable {
        /// Twilio (or the browser) sent `stop`: the caller hung up or the call was ended.
        case stopped
        /// The media-stream socket closed without a `stop`.
        case socketClosed
        /// The call reached the grant's duration limit.
        case limitReached
        /// The voice agent's connection closed or failed.
        case agentClosed
        /// The voice agent could not be started.
        case agentFailed
        /// The caller sent nothing for the session's idle limit.
        case idle
    }

    public var callID: String
    public var streamSid: String
    /// Empty for a browser's call.
    public var callSid: String
    /// From `start` to the end of the session.
    public var secondsConnected: Double
    public var reason: Reason
    /// Reply audio sent to the caller, in 20 ms frames.
    public var framesSent: Int
    /// Times the caller spoke over the agent and its audio was cut.
    public var interruptions: Int

    public init(callID: String, streamSid: String, callSid: String, secondsConnected: Double, reason: Reason, framesSent: Int = 0, interruptions: Int = 0) {
        self.callID = callID
        self.streamSid = streamSid
        self.callSid = callSid
        self.secondsConnected = secondsConnected
        self.reason = reason
        self.framesSent = framesSent
        self.interruptions = interruptions
    }
}

/// Everything a media-stream session needs from the rest of the server, injected.
public struct MediaStreamHooks: Sendable {
    /// The `start` message's custom parameters (`call_token`) → a grant, or nil to refuse.
    public var authorize: @Sendable (_ start: MediaStreamStart) async -> MediaStreamGrant?
    /// The voice agent for a granted call (Realtime with an OpenAI key, else the local one).
    public var makeAgent: @Sendable (MediaStreamGrant) async throws -> any VoiceAgent
    /// Called once when a Twilio call reaches its limit, with its CallSid: end it through the
    /// REST API. Not called for a browser's call (it is simply closed).
    public var limitReached: @Sendable (MediaStreamGrant, _ callSid: String) async -> Void
    /// Called once per granted session when it has ended and released everything.
    public var ended: @Sendable (MediaStreamGrant, MediaStreamSummary) async -> Void

    public init(
        authorize: @escaping @Sendable (MediaStreamStart) async -> MediaStreamGrant?,
        makeAgent: @escaping @Sendable (MediaStreamGrant) async throws -> any VoiceAgent,
        limitReached: @escaping @Sendable (MediaStreamGrant, String) async -> Void = { _, _ in },
        ended: @escaping @Sendable (MediaStreamGrant, MediaStreamSummary) async -> Void = { _, _ in }
    ) {
        self.authorize = authorize
        self.makeAgent = makeAgent
        self.limitReached = limitReached
        self.ended = ended
    }
}
