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

    public var port: Int { boundPort.withLock { $0 } }
    public var baseURL: String { "http://127.0.0.1:\(port)" }
    private let boundPort = Mutex(0)

    private let state = Mutex(State())
    private let handler: Handler

    private struct State {
        var requests: [RecordedRequest] = []
        var script: [LoopbackReply] = []
        var inFlight = 0
        var peakInFlight = 0
        var abandoned = 0
        var hungUp = 0
    }

    private init(port: Int, handler: @escaping Handler) {
        self.handler = handler
        boundPort.withLock { $0 = port }
    }

    /// Every request received so far, in arrival order.
    public var requests: [RecordedRequest] { state.withLock { $0.requests } }
    /// The most requests ever being answered at once.
    public var peakInFlight: Int { state.withLock { $0.peakInFlight } }
    /// Streamed replies the client hung up on before their end.
    public var abandoned: Int { state.withLock { $0.abandoned } }
    /// Replies whose client closed the connection before their end, counted as it happens (even
    /// while `beforePiece` holds the rest back, when `abandoned` cannot see it yet).
    public var hungUp: Int { state.withLock { $0.hungUp } }

    /// Queues replies to send, in order, before falling back to the handler.
    public func enqueue(_ replies: LoopbackReply...) {
        state.withLock { $0.script.append(contentsOf: replies) }
    }

    /// Starts a server, runs `body` with it, and stops it.
    ///
    /// Connections are served by a plain channel handler, not `NIOAsyncChannel`: an accepted
    /// child `NIOAsyncChannel` that is never handed out (the server stopped, or its accept loop
    /// ended, in the instant between accepting and yielding it) traps when it is freed ("Deinited
    /// NIOAsyncWriter without calling finish()", signal 4, swift-nio #3481). That killed `make
    /// test` on loaded machines in the vendor-retry tests, whose clients time out and reconnect.
    public static func withServer<T: Sendable>(
        handler: @escaping Handler = { _ in LoopbackReply(status: 500, json: ["error": ["message": "no reply scripted"]]) },
        _ body: (LoopbackServer) async throws -> T
    ) async throws -> T {
        let connections = Connections()
        let server = LoopbackServer(port: 0, handler: handler)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.configureHTTPServerPipeline()
                    try child.pipeline.syncOperations.addHandler(RequestHandler(server: server, connections: connections))
                    connections.opened(child)
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        guard let port = channel.localAddress?.port else {
            try? await channel.close()
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "the loopback server has no port"])
        }
        server.boundPort.withLock { $0 = port }
        // Stopped by closing the listening socket, then every connection: replies still being
        // sent are cut short, and the handlers' tasks are waited for.
        func stop() async {
            try? await channel.close()
            await connections.closeAll()
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

    /// The open connections and the tasks answering on them.
    final class Connections: Sendable {
        private let state = Mutex((channels: [ObjectIdentifier: any Channel](), tasks: [UUID: Task<Void, Never>](), closed: false))

        func opened(_ channel: any Channel) {
            let closeNow = state.withLock { state in
                state.channels[ObjectIdentifier(channel)] = channel
                return state.closed
            }
            if closeNow { channel.close(promise: nil) }
            channel.closeFuture.whenComplete { _ in
                _ = self.state.withLock { $0.channels.removeValue(forKey: ObjectIdentifier(channel)) }
            }
        }

        func run(_ work: @escaping @Sendable () async -> Void) {
            let id = UUID()
            state.withLock { state in
                state.tasks[id] = Task {
                    await work()
                    _ = self.state.withLock { $0.tasks.removeValue(forKey: id) }
                }
            }
        }

        func closeAll() async {
            let (channels, tasks) = state.withLock { state in
                state.closed = true
                return (Array(state.channels.values), Array(state.tasks.values))
            }
            for channel in channels { try? await channel.close() }
            // Replies still waiting (a delay past a client's timeout) are cut short.
            for task in tasks { task.cancel() }
            for task in tasks { await task.value }
        }
    }

    /// Collects a request's parts; its reply is made and written by a task of its own.
    private final class RequestHandler: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        // Touched only on the channel's event loop.
        private var head: HTTPRequestHead?
        private var body = Data()
        private let server: LoopbackServer
        private let connections: Connections

        init(server: LoopbackServer, connections: Connections) {
            self.server = server
            self.connections = connections
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let requestHead):
                head = requestHead
                body = Data()
            case .body(let buffer):
                body.append(contentsOf: buffer.readableBytesView)
            case .end:
                guard let requestHead = head else { return }
                head = nil
                let request = RecordedRequest(
                    method: requestHead.method.rawValue, uri: requestHead.uri,
                    headers: requestHead.headers.map { (name: $0.name, value: $0.value) }, body: body)
                let channel = context.channel, server = server
                connections.run { await server.reply(to: request, on: channel) }
            }
        }
    }

    /// Answers `request` on `channel`, then closes it (one request per connection keeps
    /// shutdown simple: nothing idles open).
    private func reply(to request: RecordedRequest, on channel: any Channel) async {
        let reply = await answer(request)
        if reply.delay > .zero { try? await Task.sleep(for: reply.delay) }
        var headers = HTTPHeaders(reply.headers.map { ($0.name, $0.value) })
        headers.replaceOrAdd(name: "content-length", value: "\(reply.body.count)")
        headers.replaceOrAdd(name: "connection", value: "close")
        let status = HTTPResponseStatus(statusCode: reply.status)
        let sent = LockedValue(false)
        channel.closeFuture.whenComplete { _ in
            if !sent.withLock({ $0 }) { self.state.withLock { $0.hungUp += 1 } }
        }
        do {
            try await channel.writeAndFlush(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))).get()
            for (index, piece) in (reply.pieces ?? [reply.body]).enumerated() {
                if index > 0, reply.pieceDelay > .zero { try await Task.sleep(for: reply.pieceDelay) }
                await reply.beforePiece?(index)
                try await channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: piece)))).get()
            }
            try await channel.writeAndFlush(HTTPServerResponsePart.end(nil)).get()
            sent.withLock { $0 = true }
        } catch {
            state.withLock { $0.abandoned += 1 }
        }
        try? await channel.close()
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
