import Foundation

/// How long a connection may hold the server without doing its part. Issue 46: connections with
/// unfinished headers, idle and keep-alive ones were still open after 900 s, one oversize frame
/// kept a media-stream socket open after its call had ended, and with the file limit at 300,
/// 276 such sockets made `/health` time out.
///
/// HTTP (`HTTPDeadlines`, on every connection): a request's head must be complete within a
/// deadline counted from when the connection was opened or its last answer sent, however
/// slowly its bytes come; a body may start late but must then keep coming; while the server
/// works on a request nothing is limited (a model may think for minutes). WebSockets
/// (`LimitedWebSocketUpgrader`): a message over the maximum closes the socket, and the peer has
/// `webSocketCloseGrace` to answer our close before the socket is closed anyway.
public struct ConnectionLimits: Sendable, Equatable {
    /// A new connection's first request head must be complete within this.
    public var requestHead: Duration = .seconds(30)
    /// After an answer, the next request's head must be complete within this.
    public var keepAlive: Duration = .seconds(60)
    /// A request body may take this long plus one second per `bodyBytesPerSecond` of it.
    public var bodyGrace: Duration = .seconds(30)
    public var bodyBytesPerSecond: Int = 1_024
    /// A media stream that has not sent `start` by then is closed.
    public var mediaStreamStart: Duration = .seconds(15)
    /// A call whose caller sends no frame for this long is ended: Twilio and the web app send
    /// 50 frames a second for as long as the call lasts, silence included.
    public var mediaStreamIdle: Duration = .seconds(30)
    /// After our close frame, how long the peer has to answer it before the socket is closed.
    public var webSocketCloseGrace: Duration = .seconds(5)
    /// The largest WebSocket message, in one frame or its fragments together.
    public var webSocketMaxMessageBytes: Int = 1 << 16
    /// Client connections open at once; one more is closed as it is accepted. The default keeps
    /// a quarter of the process's open-files limit (at least 64) for the server's own files,
    /// pipes and workers: libdispatch traps (SIGILL) when its thread-pool monitor, which opens
    /// /proc/<tid>/stat every second while work waits, finds no descriptor free.
    public var maxOpenConnections: Int = ConnectionLimits.connectionCap(openFilesLimit: ConnectionLimits.openFilesLimit())

    public init() {}

    /// `STORYVOICE_HTTP_HEAD_TIMEOUT`, `STORYVOICE_HTTP_KEEP_ALIVE_TIMEOUT`,
    /// `STORYVOICE_HTTP_BODY_TIMEOUT`, `STORYVOICE_MEDIA_STREAM_IDLE_TIMEOUT`,
    /// `STORYVOICE_WEBSOCKET_CLOSE_GRACE`: seconds (fractions allowed); anything else keeps the default.
    static func fromEnvironment(_ environment: [String: String]) -> ConnectionLimits {
        var limits = ConnectionLimits()
        func seconds(_ name: String) -> Duration? {
            guard let value = environment[name].flatMap(Double.init), value.isFinite, value > 0 else { return nil }
            return .milliseconds(Int64((value * 1_000).rounded()))
        }
        if let value = seconds("STORYVOICE_HTTP_HEAD_TIMEOUT") { limits.requestHead = value }
        if let value = seconds("STORYVOICE_HTTP_KEEP_ALIVE_TIMEOUT") { limits.keepAlive = value }
        if let value = seconds("STORYVOICE_HTTP_BODY_TIMEOUT") { limits.bodyGrace = value }
        if let value = seconds("STORYVOICE_MEDIA_STREAM_IDLE_TIMEOUT") { limits.mediaStreamIdle = value }
        if let value = seconds("STORYVOICE_WEBSOCKET_CLOSE_GRACE") { limits.webSocketCloseGrace = value }
        return limits
    }

    /// Connections allowed with `openFilesLimit` descriptors: all but a quarter of them, and at
    /// least 64, kept for the server itself; never fewer than 8.
    static func connectionCap(openFilesLimit: Int) -> Int {
        max(8, openFilesLimit - max(64, openFilesLimit / 4))
    }

    /// The process's soft limit on open files (`RLIMIT_NOFILE`), at most a million.
    static func openFilesLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1_024 }
        return Int(min(limit.rlim_cur, 1_000_000))  // RLIM_INFINITY is the largest value
    }
}
