import Foundation

/// The calls in progress on this server, keyed by stream and by call: how many there are, and
/// a way to end one from outside (the status callback said the call is over). Each session's
/// state stays in the session; the registry only holds how to close it.
public actor MediaStreamRegistry {
    public struct Entry: Sendable {
        public var streamSid: String
        public var callSid: String
        public var callID: String
        let close: @Sendable () async -> Void
    }

    private var byStream: [String: Entry] = [:]
    private var streamByCall: [String: String] = [:]

    public init() {}

    func add(_ entry: Entry) {
        byStream[entry.streamSid] = entry
        if !entry.callSid.isEmpty { streamByCall[entry.callSid] = entry.streamSid }
    }

    func remove(streamSid: String) {
        guard let entry = byStream.removeValue(forKey: streamSid) else { return }
        if streamByCall[entry.callSid] == streamSid { streamByCall[entry.callSid] = nil }
    }

    public var count: Int { byStream.count }

    public var streamSids: [String] { Array(byStream.keys) }

    public func entry(streamSid: String) -> Entry? { byStream[streamSid] }

    public func entry(callSid: String) -> Entry? { streamByCall[callSid].flatMap { byStream[$0] } }

    /// Ends the session of this Twilio call, if it is on this server (its `ended` hook runs).
    public func end(callSid: String) async {
        guard let entry = entry(callSid: callSid) else { return }
        await entry.close()
    }
}
