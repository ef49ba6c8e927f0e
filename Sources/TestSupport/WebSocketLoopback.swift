import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import WebSocketKit

/// A WebSocket server on 127.0.0.1 and a free port: every upgraded connection is handed to
/// `accept` with the request's path and headers (on the socket's event loop, before it reads,
/// so handlers set there see every frame).
public final class WebSocketLoopback: Sendable {
    public struct Request: Sendable {
        public var uri: String
        public var headers: [(name: String, value: String)]

        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    public let port: Int
    private let channel: any Channel

    public var url: String { "ws://127.0.0.1:\(port)" }

    private init(port: Int, channel: any Channel) {
        self.port = port
        self.channel = channel
    }

    /// Starts a server, runs `body` with it, and stops it.
    public static func withServer<T: Sendable>(
        accept: @escaping @Sendable (WebSocket, Request) -> Void,
        _ body: (WebSocketLoopback) async throws -> T
    ) async throws -> T {
        let upgrader = NIOWebSocketServerUpgrader(
            maxFrameSize: 1 << 24,
            shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
            upgradePipelineHandler: { channel, head in
                let request = Request(uri: head.uri, headers: head.headers.map { ($0.name, $0.value) })
                return WebSocket.server(on: channel) { socket in accept(socket, request) }
            })
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.configureHTTPServerPipeline(
                        withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        guard let port = channel.localAddress?.port else {
            try? await channel.close()
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "the WebSocket loopback server has no port"])
        }
        let server = WebSocketLoopback(port: port, channel: channel)
        do {
            let result = try await body(server)
            try? await channel.close()
            return result
        } catch {
            try? await channel.close()
            throw error
        }
    }
}

/// Waits until `condition` holds, checking every 10 ms, up to `timeout` seconds (generous: a
/// loaded machine is slow, not wrong). Returns whether it held.
@discardableResult
public func eventually(timeout: Double = loopbackTimeout, _ condition: @Sendable () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(timeout)
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return await condition()
}
