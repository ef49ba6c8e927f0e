import Foundation
import NIOCore
import NIOPosix
import WebSocketKit

/// A Twilio Media Streams client that behaves as Twilio does on a bidirectional stream:
/// `connected`, then `start` (with the stream's custom parameters), then `media` frames of
/// 160 μ-law bytes (20 ms) with string counters; it plays the audio it is sent at the call's
/// pace (`playbackSpeed` times real time) and echoes each `mark` once the audio before it has
/// played; `clear` drops the audio not yet played and the marks after it without echoing them;
/// `stop` is sent before it closes. Now and then it sends an event no one knows, as Twilio
/// may add one.
public final class MediaStreamClient: Sendable {
    public struct Options: Sendable {
        public var streamSid: String
        /// Empty for a browser's call.
        public var callSid: String
        public var accountSid: String
        public var parameters: [String: String]
        /// 1 plays at the call's pace, 4 four times faster.
        public var playbackSpeed: Double
        /// Stop playing (and so echoing) after this many marks: the rest stays "unheard".
        public var echoLimit: Int?
        /// An unknown event after every this many media frames (nil: never).
        public var unknownEventEvery: Int?
        /// False: only `connected`, never `start` (a stranger holding a socket open).
        public var sendsStart = true

        public init(
            streamSid: String = "MZ" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased(),
            callSid: String = "CA" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased(),
            accountSid: String = "ACloopback", parameters: [String: String] = [:], playbackSpeed: Double = 1,
            echoLimit: Int? = nil, unknownEventEvery: Int? = 25
        ) {
            self.streamSid = streamSid
            self.callSid = callSid
            self.accountSid = accountSid
            self.parameters = parameters
            self.playbackSpeed = playbackSpeed
            self.echoLimit = echoLimit
            self.unknownEventEvery = unknownEventEvery
        }
    }

    /// One frame of agent audio as it arrived.
    public struct ReceivedFrame: Sendable {
        public var payload: [UInt8]
        public var at: ContinuousClock.Instant
    }

    private enum Queued: Sendable {
        case audio
        case mark(String)
    }

    private struct State: Sendable {
        var sequence = 0
        var chunk = 0
        var sentFrames = 0
        var frames: [ReceivedFrame] = []
        var marks: [String] = []
        var echoed: [String] = []
        var clears = 0
        var queue: [Queued] = []
        var other: [String] = []
    }

    public let options: Options
    private let socket: WebSocket
    private let state = LockedValue(State())
    private let startedAt = ContinuousClock.now
    private let player: LockedValue<Task<Void, Never>?> = LockedValue(nil)

    private init(socket: WebSocket, options: Options) {
        self.socket = socket
        self.options = options
    }

    /// Connects to `url` (`ws://127.0.0.1:PORT/media-stream`), sends `connected` and `start`.
    public static func connect(to url: String, options: Options = Options()) async throws -> MediaStreamClient {
        // Waits for the upgrade callback itself: websocket-kit's connect future can complete a
        // moment before it runs.
        let done = LockedValue(false)
        let client: MediaStreamClient = try await withCheckedThrowingContinuation { continuation in
            WebSocket.connect(to: url, configuration: .init(maxFrameSize: 1 << 20), on: MultiThreadedEventLoopGroup.singleton) { socket in
                let client = MediaStreamClient(socket: socket, options: options)
                socket.onText { _, text in client.receive(text) }
                if done.withLock({ let first = !$0; $0 = true; return first }) { continuation.resume(returning: client) }
            }.whenFailure { error in
                if done.withLock({ let first = !$0; $0 = true; return first }) { continuation.resume(throwing: error) }
            }
        }
        let task = Task { await client.play() }
        client.player.withLock { $0 = task }
        try await client.sendJSON(#"{"event":"connected","protocol":"Call","version":"1.0.0"}"#)
        if options.sendsStart { try await client.sendStart() }
        return client
    }

    // MARK: What it has seen

    public var frames: [ReceivedFrame] { state.withLock { $0.frames } }
    public var audio: [UInt8] { frames.flatMap(\.payload) }
    /// Marks received, in order.
    public var marks: [String] { state.withLock { $0.marks } }
    /// Marks echoed back after their audio played.
    public var echoed: [String] { state.withLock { $0.echoed } }
    public var clears: Int { state.withLock { $0.clears } }
    /// Frames it could not read or did not expect.
    public var unexpected: [String] { state.withLock { $0.other } }
    public var sentFrames: Int { state.withLock { $0.sentFrames } }
    public var isClosed: Bool { socket.isClosed }

    // MARK: What it sends

    /// Caller audio, cut into 20 ms frames (the last padded with silence); `paced` sends one
    /// every 20 ms as a phone line does, else as fast as the socket takes them.
    public func sendAudio(_ mulaw: [UInt8], paced: Bool = false) async throws {
        var offset = 0
        while offset < mulaw.count {
            var frame = Array(mulaw[offset..<min(offset + 160, mulaw.count)])
            frame += [UInt8](repeating: 0xFF, count: 160 - frame.count)
            offset += 160
            let (sequence, chunk, unknown) = state.withLock { state -> (Int, Int, Bool) in
                state.sequence += 1
                state.chunk += 1
                state.sentFrames += 1
                return (state.sequence, state.chunk, options.unknownEventEvery.map { state.chunk % $0 == 0 } ?? false)
            }
            let timestamp = chunk * 20
            try await sendJSON(#"{"event":"media","sequenceNumber":"\#(sequence)","media":{"track":"inbound","chunk":"\#(chunk)","timestamp":"\#(timestamp)","payload":"\#(Data(frame).base64EncodedString())"},"streamSid":"\#(options.streamSid)"}"#)
            if unknown { try await sendUnknownEvent() }
            if paced { try await Task.sleep(for: .milliseconds(20)) }
        }
    }

    public func sendUnknownEvent() async throws {
        try await sendJSON(#"{"event":"transcription_preview","sequenceNumber":"\#(nextSequence())","streamSid":"\#(options.streamSid)","preview":{"text":"?"}}"#)
    }

    public func sendDTMF(_ digit: String) async throws {
        try await sendJSON(#"{"event":"dtmf","streamSid":"\#(options.streamSid)","sequenceNumber":"\#(nextSequence())","dtmf":{"track":"inbound_track","digit":"\#(digit)"}}"#)
    }

    /// `stop`, then closes the socket, as Twilio does when the call ends.
    public func stop() async {
        try? await sendJSON(#"{"event":"stop","sequenceNumber":"\#(nextSequence())","streamSid":"\#(options.streamSid)","stop":{"accountSid":"\#(options.accountSid)","callSid":"\#(options.callSid)"}}"#)
        await close()
    }

    /// Closes without `stop` (the connection dropped).
    public func close() async {
        player.withLock { $0 }?.cancel()
        try? await socket.close(code: .normalClosure)
    }

    // MARK: Inside

    private func sendStart() async throws {
        let parameters = String(decoding: try JSONEncoder().encode(options.parameters), as: UTF8.self)
        let sequence = nextSequence()
        try await sendJSON(#"{"event":"start","sequenceNumber":"\#(sequence)","start":{"accountSid":"\#(options.accountSid)","streamSid":"\#(options.streamSid)","callSid":"\#(options.callSid)","tracks":["inbound"],"mediaFormat":{"encoding":"audio/x-mulaw","sampleRate":8000,"channels":1},"customParameters":\#(parameters)},"streamSid":"\#(options.streamSid)"}"#)
    }

    private func nextSequence() -> Int {
        state.withLock { $0.sequence += 1; return $0.sequence }
    }

    private func sendJSON(_ text: String) async throws {
        try await socket.send(text)
    }

    private func receive(_ text: String) {
        guard let data = text.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let event = object["event"] as? String else {
            state.withLock { $0.other.append(text) }
            return
        }
        let now = ContinuousClock.now
        state.withLock { state in
            switch event {
            case "media":
                guard let media = object["media"] as? [String: Any], let payload = (media["payload"] as? String).flatMap({ Data(base64Encoded: $0) }) else {
                    state.other.append(text)
                    return
                }
                state.frames.append(ReceivedFrame(payload: [UInt8](payload), at: now))
                state.queue.append(.audio)
            case "mark":
                guard let name = (object["mark"] as? [String: Any])?["name"] as? String else {
                    state.other.append(text)
                    return
                }
                state.marks.append(name)
                state.queue.append(.mark(name))
            case "clear":
                state.clears += 1
                state.queue.removeAll()  // unplayed audio and its marks: never echoed
            default:
                state.other.append(text)
            }
        }
    }

    /// Plays the queue at the call's pace, echoing marks as they are reached.
    private func play() async {
        let frameTime = Duration.milliseconds(20) / max(options.playbackSpeed, 0.001)
        while !Task.isCancelled {
            let next = state.withLock { state -> Queued? in
                guard let head = state.queue.first else { return nil }
                if case .mark = head, let limit = options.echoLimit, state.echoed.count >= limit { return nil }
                state.queue.removeFirst()
                if case .mark(let name) = head { state.echoed.append(name) }
                return head
            }
            switch next {
            case nil:
                try? await Task.sleep(for: .milliseconds(5))
            case .audio:
                try? await Task.sleep(for: frameTime)
            case .mark(let name):
                try? await sendJSON(#"{"event":"mark","sequenceNumber":"\#(nextSequence())","streamSid":"\#(options.streamSid)","mark":{"name":"\#(name)"}}"#)
            }
        }
    }
}
