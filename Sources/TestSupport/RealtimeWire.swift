import Foundation
import NIOCore
import VendorHTTP
import WebSocketKit

/// The OpenAI Realtime API's server side on loopback: records what each connection sends
/// (`session.update`, `input_audio_buffer.append`, `conversation.item.truncate`,
/// `response.create`) and answers `response.create` with a reply: `replyDeltas` audio deltas of
/// `replyDeltaBytes` μ-law bytes each, then `response.done`. Tests push the rest themselves:
/// more audio, `input_audio_buffer.speech_started`, `error` events, a close.
public final class RealtimeWire: Sendable {
    public final class Connection: Sendable {
        public let request: WebSocketLoopback.Request
        public let socket: WebSocket
        /// Raw text, parsed when read: parsing 50 appends a second per call as they come
        /// would make the loopback server, not the bridge, what a bench measures.
        private let received = LockedValue<[String]>([])
        private let replies = LockedValue(0)
        let wire: RealtimeWire

        init(request: WebSocketLoopback.Request, socket: WebSocket, wire: RealtimeWire) {
            self.request = request
            self.socket = socket
            self.wire = wire
        }

        /// Every client event, in order.
        public var events: [JSONValue] { received.withLock { $0 }.compactMap { JSONValue(parsing: $0) } }

        public func events(_ type: String) -> [JSONValue] { events.filter { $0["type"]?.stringValue == type } }

        public var sessionUpdate: JSONValue? { events("session.update").last?["session"] }

        /// The caller audio appended so far, decoded.
        public var appendedAudio: [UInt8] {
            events("input_audio_buffer.append").flatMap { $0["audio"]?.stringValue.flatMap { Data(base64Encoded: $0) }.map { [UInt8]($0) } ?? [] }
        }

        public var truncates: [JSONValue] { events("conversation.item.truncate") }

        public var isClosed: Bool { socket.isClosed }

        public func send(_ event: JSONValue) async {
            try? await socket.send(event.canonicalText)
        }

        /// `response.audio.delta` (or the GA name) with these μ-law bytes.
        public func sendAudio(itemID: String, _ mulaw: [UInt8], type: String = "response.audio.delta") async {
            // Built by hand (ids here never need escaping): a bench sends 50 a second per call.
            try? await socket.send(#"{"type":"\#(type)","response_id":"resp_1","item_id":"\#(itemID)","output_index":0,"content_index":0,"delta":"\#(Data(mulaw).base64EncodedString())"}"#)
        }

        public func sendSpeechStarted(audioStartMilliseconds: Int = 0) async {
            await send(["type": "input_audio_buffer.speech_started", "audio_start_ms": .number(Double(audioStartMilliseconds)), "item_id": "item_caller"])
        }

        public func sendResponseDone() async {
            await send(["type": "response.done", "response": ["id": "resp_1", "status": "completed"]])
        }

        public func sendError(code: String, message: String) async {
            await send(["type": "error", "event_id": "event_1", "error": ["type": "invalid_request_error", "code": .string(code), "message": .string(message)]])
        }

        public func close() async {
            try? await socket.close(code: .goingAway)
        }

        /// A reply as the API streams one: deltas, then `response.done`.
        public func sendReply(itemID: String) async {
            for index in 0..<wire.replyDeltas {
                // A quiet ramp, so frames differ and the audio is not mistaken for silence.
                await sendAudio(itemID: itemID, (0..<wire.replyDeltaBytes).map { UInt8(truncatingIfNeeded: 0x10 + (index + $0) % 64) })
            }
            await sendResponseDone()
        }

        func receive(_ text: String) {
            received.withLock { $0.append(text) }
            guard text.contains("response.create"), JSONValue(parsing: text)?["type"]?.stringValue == "response.create" else { return }
            if wire.answersResponseCreate {
                let number = replies.withLock { $0 += 1; return $0 }
                Task { await self.sendReply(itemID: "item_reply_\(number)") }
            }
        }
    }

    public let replyDeltas: Int
    public let replyDeltaBytes: Int
    public let answersResponseCreate: Bool
    private let opened = LockedValue<[Connection]>([])
    private let portValue = LockedValue(0)

    /// - Parameters:
    ///   - replyDeltas, replyDeltaBytes: the reply to `response.create`, 10 × 800 bytes (1 s).
    public init(replyDeltas: Int = 10, replyDeltaBytes: Int = 800, answersResponseCreate: Bool = true) {
        self.replyDeltas = replyDeltas
        self.replyDeltaBytes = replyDeltaBytes
        self.answersResponseCreate = answersResponseCreate
    }

    /// Every connection made, in order.
    public var connections: [Connection] { opened.withLock { $0 } }

    /// The base URL to give the agent (`ws://127.0.0.1:PORT/v1/realtime`).
    public var baseURL: String { "ws://127.0.0.1:\(portValue.withLock { $0 })/v1/realtime" }

    /// Serves, runs `body`, stops.
    public func serve<T: Sendable>(_ body: (RealtimeWire) async throws -> T) async throws -> T {
        try await WebSocketLoopback.withServer(accept: { socket, request in
            let connection = Connection(request: request, socket: socket, wire: self)
            socket.onText { _, text in connection.receive(text) }
            self.opened.withLock { $0.append(connection) }
        }) { server in
            portValue.withLock { $0 = server.port }
            return try await body(self)
        }
    }
}
