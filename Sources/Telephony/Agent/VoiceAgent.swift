import Foundation

/// The other end of a call: hears the caller's 8 kHz μ-law audio and answers in the same.
/// `RealtimeAgent` (the OpenAI Realtime API) and `LocalVoiceAgent` (the voice loop on this
/// machine) are the two; a media-stream session drives either the same way.
public protocol VoiceAgent: Sendable {
    /// What the agent says and notices, in order. The stream finishing means the agent is gone
    /// (its socket closed, or it failed); the session then ends the call.
    var events: AsyncStream<VoiceAgentEvent> { get }
    /// Connects and configures the agent, and has it greet the caller (it speaks first).
    func start() async throws
    /// Caller audio, μ-law 8 kHz (one 20 ms frame at a time, usually). Never blocks on the
    /// agent: a slow agent drops the oldest audio (see each implementation).
    func listen(_ mulaw: [UInt8])
    /// The caller spoke over reply `itemID` after hearing its first `heardMilliseconds`: forget
    /// the rest (the Realtime API's `conversation.item.truncate`).
    func truncate(itemID: String, heardMilliseconds: Int) async
    /// Releases everything (socket, tasks); `events` finishes.
    func close() async
}

public enum VoiceAgentEvent: Sendable, Hashable {
    /// Reply audio, μ-law 8 kHz, of reply item `itemID` (any length; the session frames it).
    case audio(itemID: String, mulaw: [UInt8])
    /// The caller started speaking: cut the reply that is playing.
    case speechStarted
    /// A reply has been fully produced (it may still be playing).
    case replyDone
    /// Something went wrong that does not end the call (reported, logged).
    case problem(String)
}
