import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import Vapor

/// Vapor's HTTP server, with `HTTPDeadlines` on every connection it accepts.
///
/// Vapor builds each connection's pipeline itself and offers no hook for a handler of ours;
/// its `idleTimeout` only closes a connection silent both ways, which a client trickling a
/// header byte at a time never is, and it would also cut a request the server is still
/// working on. So once the server listens, a handler is put on its listening channel behind
/// NIO's accept handler: it sees each new connection after Vapor has set it up and before it
/// reads, and adds `HTTPDeadlines` behind the request decoder. Vapor keeps that channel private;
/// it is found by reflection (`listeningChannel(of:)`), and if a Vapor update moves it, starting
/// fails saying so rather than serving without limits (every run of the tests starts one).
struct LimitedHTTPServer: Vapor.Server {
    let inner: HTTPServer
    let limits: ConnectionLimits
    let logger: Logger

    struct Unavailable: Error, CustomStringConvertible {
        var description: String {
            "Vapor's HTTP server no longer exposes its listening channel where StoryVoice looks for it (HTTPServer.connection.channel), so connection time limits cannot be set; see LimitedHTTPServer."
        }
    }

    var onShutdown: EventLoopFuture<Void> { inner.onShutdown }

    func start(address: BindAddress?) async throws {
        try await inner.start(address: address)
        do {
            try await watch().get()
        } catch {
            await inner.shutdown()
            throw error
        }
    }

    @available(*, noasync)
    func start(address: BindAddress?) throws {
        try inner.start(address: address)
        do {
            try watch().wait()
        } catch {
            inner.shutdown()
            throw error
        }
    }

    func shutdown() async { await inner.shutdown() }

    @available(*, noasync)
    func shutdown() { inner.shutdown() }

    private func watch() -> EventLoopFuture<Void> {
        guard let channel = Self.listeningChannel(of: inner) else {
            return MultiThreadedEventLoopGroup.singleton.any().makeFailedFuture(Unavailable())
        }
        return channel.pipeline.addHandler(AcceptedConnections(limits: limits, logger: logger), position: .last)
    }

    /// The channel `server` listens on: `HTTPServer.connection` (a lock around an
    /// `HTTPServerConnection?`), then its `channel`. Nil if Vapor's layout has changed.
    static func listeningChannel(of server: HTTPServer) -> (any Channel)? {
        guard let box = Mirror(reflecting: server).descendant("connection") as? any LockedValueReading else { return nil }
        return Mirror(reflecting: box.lockedValue).descendant("some", "channel") as? any Channel
    }
}

/// Reads a `NIOLockedValueBox` whose value's type is private to another module.
private protocol LockedValueReading {
    var lockedValue: Any { get }
}

extension NIOLockedValueBox: LockedValueReading {
    fileprivate var lockedValue: Any { withLockedValue { $0 } }
}

/// On the listening channel, behind NIO's accept handler: each accepted connection passes here
/// with Vapor's handlers in place and before it is registered to read. Past
/// `maxOpenConnections` open at once, a new one is closed at once: the descriptors left are the
/// server's own (a process with none left is killed by libdispatch, see `ConnectionLimits`).
private final class AcceptedConnections: ChannelInboundHandler, Sendable {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel

    let limits: ConnectionLimits
    let logger: Logger
    private let open = NIOLockedValueBox((count: 0, refusedSinceWarning: 0))

    init(limits: ConnectionLimits, logger: Logger) {
        self.limits = limits
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let connection = unwrapInboundIn(data)
        let limits = limits, logger = logger, open = open
        // Refused: nil when admitted, else how many to warn of now (0: not yet, one per hundred).
        let refused = open.withLockedValue { state -> Int? in
            guard state.count >= limits.maxOpenConnections else {
                state.count += 1
                return nil
            }
            state.refusedSinceWarning += 1
            guard state.refusedSinceWarning == 1 || state.refusedSinceWarning >= 100 else { return 0 }
            defer { state.refusedSinceWarning = 0 }
            return state.refusedSinceWarning
        }
        if let refused {
            connection.close(promise: nil)
            if refused > 0 {
                logger.warning("\(refused) connection(s) closed on arrival: \(limits.maxOpenConnections) are open, the most this server's open-files limit allows (raise it with ulimit -n)")
            }
            return
        }
        connection.closeFuture.whenComplete { _ in open.withLockedValue { $0.count -= 1 } }
        connection.eventLoop.execute {
            let pipeline = connection.pipeline.syncOperations
            // HTTP/1 only: the server speaks nothing else (no TLS, no HTTP/2 without it).
            guard let decoder = try? pipeline.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self) else { return }
            do {
                try pipeline.addHandler(HTTPDeadlines(limits: limits, logger: logger), position: .after(decoder.handler))
            } catch {
                logger.warning("A connection could not be given its time limits: \(error)")
            }
        }
        context.fireChannelRead(data)
    }
}
