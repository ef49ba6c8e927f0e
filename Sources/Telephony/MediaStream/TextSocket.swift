import Foundation
import NIOCore
import Synchronization
import WebSocketKit

/// A WebSocket's text frames as a bounded stream, and sends that wait for the write.
///
/// websocket-kit delivers frames through a callback and cannot pause reading, so the bound is
/// kept by **dropping**: when the reader is `bufferLimit` frames behind, newer frames are
/// dropped and counted (`dropped`), never queued without limit. For Twilio's 50 frames a second
/// the default 500 is 10 s behind, far past the point where the call is useful anyway.
/// Sends back-pressure instead: `send` returns when NIO has written the frame, so a reader
/// that is slow on the other side slows the sender rather than growing a queue here.
public final class TextSocket: Sendable {
    public let socket: WebSocket
    public let frames: AsyncStream<String>
    private let input: AsyncStream<String>.Continuation
    private let droppedCount = DropCounter()
    private let lastFrame = LastFrame()

    /// Call on the socket's event loop before it reads (in the upgrade callback), so no frame
    /// arrives before the handler is set.
    public init(_ socket: WebSocket, bufferLimit: Int = 500) {
        self.socket = socket
        let (frames, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingOldest(bufferLimit))
        self.frames = frames
        input = continuation
        let dropped = droppedCount, lastFrame = lastFrame
        socket.onText { _, text in
            lastFrame.instant.withLock { $0 = .now }
            if case .dropped = continuation.yield(text) { dropped.count.withLock { $0 += 1 } }
        }
        socket.onBinary { _, _ in lastFrame.instant.withLock { $0 = .now } }
        socket.onClose.whenComplete { _ in continuation.finish() }
    }

    /// Connects as a client. Returns once the socket is upgraded and its frame handler set:
    /// websocket-kit's connect future can complete a moment before its upgrade callback runs.
    public static func connect(
        to url: String, headers: HTTPHeaders, configuration: WebSocketClient.Configuration,
        on group: any EventLoopGroup, bufferLimit: Int
    ) async throws -> TextSocket {
        let opened = Once<TextSocket>()
        return try await withCheckedThrowingContinuation { continuation in
            opened.set(continuation)
            WebSocket.connect(to: url, headers: headers, configuration: configuration, on: group) { socket in
                opened.resume(returning: TextSocket(socket, bufferLimit: bufferLimit))
            }.whenFailure { error in opened.resume(throwing: error) }
        }
    }

    /// When the peer's last message arrived (or the socket opened): read on the socket's event
    /// loop, so a reader that falls behind does not make the peer look quiet.
    public var lastReceived: ContinuousClock.Instant { lastFrame.instant.withLock { $0 } }

    /// Frames dropped because the reader fell `bufferLimit` behind.
    public var dropped: Int { droppedCount.count.withLock { $0 } }

    public var isClosed: Bool { socket.isClosed }

    public func send(_ text: String) async throws {
        try await socket.send(text)
    }

    /// Why we close; the WebSocket close code sent.
    public enum CloseReason: Sendable {
        case normal, refused, failed, goingAway
    }

    /// Closes (a no-op when already closed); `frames` then finishes, with no wait for the
    /// peer's answering close frame: a peer that never answers must not hold the call open.
    public func close(_ reason: CloseReason = .normal) async {
        defer { input.finish() }
        guard !socket.isClosed else { return }
        switch reason {
        case .normal: try? await socket.close(code: .normalClosure)
        case .refused: try? await socket.close(code: .policyViolation)
        case .failed: try? await socket.close(code: .unexpectedServerError)
        case .goingAway: try? await socket.close(code: .goingAway)
        }
    }
}

private final class DropCounter: Sendable {
    let count = Mutex(0)
}

private final class LastFrame: Sendable {
    let instant = Mutex(ContinuousClock.now)
}

/// A continuation resumed once, whichever of the upgrade or the failure comes first.
private final class Once<Value: Sendable>: Sendable {
    private let state = Mutex<(continuation: CheckedContinuation<Value, any Error>?, done: Bool)>((nil, false))

    func set(_ continuation: CheckedContinuation<Value, any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    func resume(returning value: Value) {
        take()?.resume(returning: value)
    }

    func resume(throwing error: any Error) {
        take()?.resume(throwing: error)
    }

    private func take() -> CheckedContinuation<Value, any Error>? {
        state.withLock { state in
            guard !state.done else { return nil }
            state.done = true
            return state.continuation
        }
    }
}
