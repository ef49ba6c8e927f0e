import Logging
import NIOCore
import NIOHTTP1
import NIOWebSocket
import Vapor

/// Upgrades to a WebSocket whose messages and close are bounded (`ConnectionLimits`).
///
/// Vapor's own upgrader bounds a single frame but lets fragments add up without limit
/// (websocket-kit's aggregator defaults to `Int.max`), and a protocol error (a frame over the
/// limit) only sends a close frame: the socket then stayed open for as long as the peer chose
/// not to answer, after the call had ended and been billed (issue 46). Here a message's
/// fragments together are held to the limit too, any error closes the socket, and every close
/// we send is followed by closing the socket if the peer has not answered within the grace.
struct LimitedWebSocketUpgrader: Upgrader {
    let limits: ConnectionLimits
    let logger: Logger
    let onUpgrade: @Sendable (WebSocket) -> Void

    func applyUpgrade(req: Request, res: Response) -> any HTTPServerProtocolUpgrader {
        let limits = limits, logger = logger, onUpgrade = onUpgrade
        return NIOWebSocketServerUpgrader(
            maxFrameSize: limits.webSocketMaxMessageBytes, automaticErrorHandling: false,
            shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture([:]) },
            upgradePipelineHandler: { channel, _ in
                var configuration = WebSocket.Configuration()
                configuration.maxAccumulatedFrameSize = limits.webSocketMaxMessageBytes
                configuration.maxAccumulatedFrameCount = 64
                return WebSocket.server(on: channel, config: configuration) { socket in
                    // On the channel's event loop, before the socket is handed out: every close
                    // the session sends passes this handler.
                    do {
                        try channel.pipeline.syncOperations.addHandler(WebSocketDeadlines(closeGrace: limits.webSocketCloseGrace, logger: logger))
                    } catch {
                        logger.warning("A WebSocket could not be given its limits: \(error)")
                        channel.close(promise: nil)
                    }
                    onUpgrade(socket)
                }
            })
    }
}

/// Last in a WebSocket's pipeline, behind websocket-kit's handler (which answers an error with
/// a close frame, then passes the error on): closes the socket on any error, and closes it
/// `closeGrace` after a close frame of ours if the peer has not closed it by then.
final class WebSocketDeadlines: ChannelDuplexHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let closeGrace: Duration
    private let logger: Logger
    private var closing: Scheduled<Void>?

    init(closeGrace: Duration, logger: Logger) {
        self.closeGrace = closeGrace
        self.logger = logger
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // websocket-kit has written its close frame (1009 for a frame over the limit) and
        // flushed it; the decoder that would read the answer has failed, so none would come.
        logger.debug("closing a WebSocket: \(error)")
        context.close(mode: .all, promise: nil)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if closing == nil, unwrapOutboundIn(data).opcode == .connectionClose {
            closing = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(closeGrace)) {
                context.close(mode: .all, promise: nil)
            }
        }
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        closing?.cancel()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        closing?.cancel()
    }
}
