import Logging
import NIOCore
import NIOHTTP1

/// One HTTP/1 connection's deadlines (`ConnectionLimits`), placed right behind NIO's request
/// decoder: it sees each request head only once it is complete, the body as it comes, and the
/// answer's parts going out.
///
/// - Waiting for a request (just connected, or answered): its head must be complete by a
///   deadline (`requestHead`, then `keepAlive`). A client that trickles header bytes gets no
///   more time for them: only a complete head counts.
/// - Reading a body: the time allowed is `bodyGrace` plus a second per `bodyBytesPerSecond`
///   received, so a big upload on a slow line goes on while a body that stalls or trickles ends.
/// - While the server works on a request, nothing is limited.
///
/// Past a deadline the connection is closed. An upgrade to a WebSocket (101) removes this
/// handler: the socket has limits of its own. One timer at a time, re-armed when it fires
/// early (a body's deadline moves as bytes come), so a body's parts cost no timer each.
final class HTTPDeadlines: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private enum State {
        case awaitingHead(by: NIODeadline, after: String)
        case readingBody(since: NIODeadline, bytes: Int)
        case working
    }

    private let limits: ConnectionLimits
    private let logger: Logger
    private var state: State
    /// Requests whose answer has not been sent in full (pipelined requests can queue).
    private var unanswered = 0
    private var timer: Scheduled<Void>?

    init(limits: ConnectionLimits, logger: Logger) {
        self.limits = limits
        self.logger = logger
        state = .awaitingHead(by: .now() + TimeAmount(limits.requestHead), after: "connecting")
    }

    func handlerAdded(context: ChannelHandlerContext) {
        expire(context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            unanswered += 1
            state = .readingBody(since: .now(), bytes: 0)
            expire(context)
        case .body(let part):
            if case .readingBody(let since, let bytes) = state { state = .readingBody(since: since, bytes: bytes + part.readableBytes) }
        case .end:
            if unanswered == 0 { awaitNext(context) } else { working() }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head) where head.status == .switchingProtocols:
            context.write(data, promise: promise)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        case .end:
            unanswered = max(0, unanswered - 1)
            // An answer sent before its body was read (413) leaves the body's deadline running.
            if unanswered == 0, case .working = state { awaitNext(context) }
        case .head, .body:
            break
        }
        context.write(data, promise: promise)
    }

    private func awaitNext(_ context: ChannelHandlerContext) {
        state = .awaitingHead(by: .now() + TimeAmount(limits.keepAlive), after: "its last answer")
        expire(context)
    }

    private func working() {
        state = .working
        timer?.cancel()
        timer = nil
    }

    /// Closes the connection if its deadline has passed, else sets the timer for it.
    private func expire(_ context: ChannelHandlerContext) {
        let deadline: NIODeadline
        let why: String
        switch state {
        case .working:
            return
        case .awaitingHead(let by, let after):
            deadline = by
            why = "no complete request within \(Self.seconds(after == "connecting" ? limits.requestHead : limits.keepAlive)) of \(after)"
        case .readingBody(let since, let bytes):
            let allowed = TimeAmount(limits.bodyGrace) + .nanoseconds(Int64(Double(bytes) / Double(max(1, limits.bodyBytesPerSecond)) * 1e9))
            deadline = since + allowed
            why = "its request body came too slowly (\(bytes) bytes)"
        }
        timer?.cancel()
        guard deadline > .now() else {
            timer = nil
            logger.debug("closing a connection: \(why)", metadata: ["peer": "\(context.channel.remoteAddress.map { "\($0)" } ?? "?")"])
            context.close(mode: .all, promise: nil)
            return
        }
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            timer = nil
            expire(context)
        }
    }

    private static func seconds(_ duration: Duration) -> String {
        "\(Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18) s"
    }
}
