import Foundation
import LanguageModels
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization
import VendorHTTP

/// A request as the loopback server received it.
public struct RecordedRequest: Sendable {
    public var method: String
    /// Path and query, e.g. `/v1/chat/completions`.
    public var uri: String
    public var headers: [(name: String, value: String)]
    public var body: Data

    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    public var json: JSONValue? { JSONValue(parsing: body) }
}

/// Seconds a test's client waits for a loopback server. The server answers in milliseconds,
/// but its handler runs on Swift's cooperative pool (two threads here), which CPU-bound tests
/// running in parallel can hold for a minute or more: a client giving up then fails a test for
/// what it does not test. Tests of timeouts set their own, short ones.
public let loopbackTimeout: Double = 600

/// What the loopback server sends back.
public struct LoopbackReply: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: Data
    /// Wait this long before answering (to run past a client's timeout).
    public var delay: Duration
    /// Send the body in these pieces, `pieceDelay` apart (a streamed answer); nil sends it whole.
    public var pieces: [Data]?
    public var pieceDelay: Duration = .zero
    /// Awaited before each piece with its index: a test holds the rest of a stream back until
    /// the client has shown what it does with the first pieces, instead of racing it.
    public var beforePiece: (@Sendable (Int) async -> Void)?

    public init(status: Int, headers: [(name: String, value: String)] = [("content-type", "application/json")], body: Data, delay: Duration = .zero) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delay = delay
    }

    public init(status: Int, json: JSONValue, headers: [(name: String, value: String)] = [], delay: Duration = .zero) {
        self.init(status: status, headers: [("content-type", "application/json")] + headers, body: json.canonicalData, delay: delay)
    }

    /// A 200 `text/event-stream` reply sent as `events`, one `data:` event each, `pause` apart.
    public static func events(_ events: [String], pause: Duration = .zero) -> LoopbackReply {
        let pieces = events.map { Data("data: \($0)\n\n".utf8) }
        var reply = LoopbackReply(status: 200, headers: [("content-type", "text/event-stream")], body: pieces.reduce(Data(), +))
        reply.pieces = pieces
        reply.pieceDelay = pause
        return reply
    }
}

/// An HTTP/1.1 server on 127.0.0.1 and an ephemeral port, for tests of clients that talk to
/// remote APIs. Each request is recorded, then answered by the next scripted reply, or by
/// the handler when the script is empty.
public final class LoopbackServer: Sendable {
    public typealias Handler = @Sendable (RecordedRequest) async -> LoopbackReply

    public let port: Int
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    private let state = Mutex(State())
    private let handler: Handler

    private struct State {
        var requests: [RecordedRequest] = []
        var script: [LoopbackReply] = []
        var inFlight = 0
        var peakInFlight = 0
        var abandoned = 0
    }

    private init(port: Int, handler: @escaping Handler) {
        self.port = port
        self.handler = handler
    }

    /// Every request received so far, in arrival order.
    public var requests: [RecordedRequest] { state.withLock { $0.requests } }
    /// The most requests ever being answered at once.
    public var peakInFlight: Int { state.withLock { $0.peakInFlight } }
    /// Streamed replies the client hung up on before their end.
    public var abandoned: Int { state.withLock { $0.abandoned } }

    /// Queues replies to send, in order, before falling back to the handler.
    public func enqueue(_ replies: LoopbackReply...) {
        state.withLock { $0.script.append(contentsOf: replies) }
    }

    /// Starts a server, runs `body` with it, and stops it.
    public static func withServer<T: Sendable>(
        handler: @escaping Handler = { _ in LoopbackReply(status: 500, json: ["error": ["message": "no reply scripted"]]) },
        _ body: (LoopbackServer) async throws -> T
    ) async throws -> T {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.configureHTTPServerPipeline()
                    return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(wrappingChannelSynchronously: child)
                }
            }
        guard let port = channel.channel.localAddress?.port else {
            try? await channel.channel.close()
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "the loopback server has no port"])
        }
        let server = LoopbackServer(port: port, handler: handler)
        // Handlers run on the cooperative pool, as the clients' own timers do: a loaded pool
        // delays both alike, so a test of a client's timeout stays one (a loopback on threads of
        // its own answered "slow" replies before a starved client's 0.3 s timer could fire).
        let serving = Task {
            try? await channel.executeThenClose { inbound in
                try await withThrowingDiscardingTaskGroup { group in
                    for try await connection in inbound {
                        group.addTask { await server.serve(connection) }
                    }
                    // The listening socket is closed: replies still being sent are cut short.
                    group.cancelAll()
                }
            }
        }
        // Stopped by closing the listening socket, never by cancelling the loop: a cancelled
        // loop left connections accepted but not yet read from `inbound`, whose writers NIO traps
        // on when they are freed unfinished ("Deinited NIOAsyncWriter without calling finish()",
        // signal 4, swift-nio #3481): seen once in `make test`, and stop 39's CI died of the same
        // signal with its message lost. Closed, `inbound` hands over every connection it holds,
        // and each is closed by `serve`.
        func stop() async {
            try? await channel.channel.close()
            await serving.value
        }
        do {
            let result = try await body(server)
            await stop()
            return result
        } catch {
            await stop()
            throw error
        }
    }

    private func serve(_ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>) async {
        try? await connection.executeThenClose { inbound, outbound in
            var head: HTTPRequestHead?
            var body = Data()
            for try await part in inbound {
                switch part {
                case .head(let requestHead):
                    head = requestHead
                    body = Data()
                case .body(let buffer):
                    body.append(contentsOf: buffer.readableBytesView)
                case .end:
                    guard let requestHead = head else { continue }
                    let request = RecordedRequest(
                        method: requestHead.method.rawValue, uri: requestHead.uri,
                        headers: requestHead.headers.map { (name: $0.name, value: $0.value) }, body: body
                    )
                    let reply = await answer(request)
                    if reply.delay > .zero { try? await Task.sleep(for: reply.delay) }
                    var headers = HTTPHeaders(reply.headers.map { ($0.name, $0.value) })
                    headers.replaceOrAdd(name: "content-length", value: "\(reply.body.count)")
                    // One request per connection keeps shutdown simple: nothing idles open.
                    headers.replaceOrAdd(name: "connection", value: "close")
                    let status = HTTPResponseStatus(statusCode: reply.status)
                    try await outbound.write(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers)))
                    do {
                        for (index, piece) in (reply.pieces ?? [reply.body]).enumerated() {
                            if index > 0, reply.pieceDelay > .zero { try await Task.sleep(for: reply.pieceDelay) }
                            await reply.beforePiece?(index)
                            try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: piece))))
                        }
                        try await outbound.write(.end(nil))
                    } catch {
                        state.withLock { $0.abandoned += 1 }
                        throw error
                    }
                    return
                }
            }
        }
    }

    private func answer(_ request: RecordedRequest) async -> LoopbackReply {
        let scripted: LoopbackReply? = state.withLock { state in
            state.requests.append(request)
            state.inFlight += 1
            state.peakInFlight = max(state.peakInFlight, state.inFlight)
            return state.script.isEmpty ? nil : state.script.removeFirst()
        }
        let reply: LoopbackReply
        if let scripted { reply = scripted } else { reply = await handler(request) }
        // Held "in flight" through the reply's delay too, as a slow server would be.
        if reply.delay > .zero { try? await Task.sleep(for: reply.delay) }
        state.withLock { $0.inFlight -= 1 }
        var sent = reply
        sent.delay = .zero
        return sent
    }
}
