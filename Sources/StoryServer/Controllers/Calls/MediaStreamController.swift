import Telephony
import Vapor

/// `GET /media-stream` upgraded to a WebSocket: Twilio's Media Streams protocol (the TwiML's
/// `<Connect><Stream url="wss://…/media-stream">` with a `call_token` parameter), and the web
/// app's in-browser call speaking the same protocol. Each socket is one `MediaStreamSession`:
/// the `start` message's token is checked by `hooks.authorize`, so the upgrade itself needs no
/// auth header (Twilio sends none).
///
/// Buffering is bounded both ways: frames from the caller that the session has not read yet
/// are capped at `TextSocket`'s 500 (10 s of audio; beyond it newer frames are **dropped** and
/// counted, since websocket-kit cannot pause a socket's reads), and a message may be at most
/// 64 kB, in one frame or several; frames to the caller **back-pressure** (each send waits for
/// NIO's write), and the agent's events waiting behind them are capped by the agent (see
/// `RealtimeAgent`).
///
/// Time is bounded too (`ConnectionLimits`): no `start` within `mediaStreamStart`, or no frame
/// for `mediaStreamIdle` once the call is on, ends the session; a message over the limit
/// closes the socket; and whatever ends the session, the socket is closed once the caller has
/// answered our close frame or `webSocketCloseGrace` has passed (`LimitedWebSocketUpgrader`).
struct MediaStreamController {
    let hooks: MediaStreamHooks
    let registry: MediaStreamRegistry
    let path: [PathComponent]
    let limits: ConnectionLimits

    /// - Parameters:
    ///   - hooks: authorize (token → grant), makeAgent, limitReached (end the Twilio call), ended (record it).
    ///   - registry: the calls in progress; share it with what ends calls from outside.
    init(
        hooks: MediaStreamHooks, registry: MediaStreamRegistry = MediaStreamRegistry(), path: [PathComponent] = ["media-stream"],
        limits: ConnectionLimits = ConnectionLimits()
    ) {
        self.hooks = hooks
        self.registry = registry
        self.path = path
        self.limits = limits
    }

    func register(routes: any RoutesBuilder) {
        let hooks = hooks, registry = registry, limits = limits
        routes.grouped(RequireWebSocketUpgrade()).get(path) { request -> Response in
            let response = Response(status: .switchingProtocols)
            let logger = request.logger
            // Called on the socket's event loop before it reads: the frame handler must be in
            // place first, or Twilio's first messages (connected, start) could be missed.
            response.upgrader = LimitedWebSocketUpgrader(limits: limits, logger: logger) { socket in
                let session = MediaStreamSession(
                    socket: TextSocket(socket), hooks: hooks, registry: registry, logger: logger,
                    startTimeout: limits.mediaStreamStart, idleLimit: limits.mediaStreamIdle)
                Task { await session.run() }
            }
            return response
        }
    }
}

/// A plain request to a socket's address is told to upgrade (426), not answered 101 with
/// nothing behind it.
struct RequireWebSocketUpgrade: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let upgrade = request.headers.first(name: .upgrade)?.lowercased() ?? ""
        guard upgrade.contains("websocket") else {
            throw APIError(status: .upgradeRequired, code: "websocket_required",
                           message: "This address is a WebSocket (Twilio Media Streams): connect with Upgrade: websocket.",
                           headers: ["Upgrade": "websocket", "Connection": "Upgrade"])
        }
        return try await next.respond(to: request)
    }
}
