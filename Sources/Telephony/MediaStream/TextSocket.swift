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
    private let droppedCount = DropCounter()

    /// Call on the socket's event loop before it reads (in the upgrade callback), so no frame
    /// arrives before the handler is set.
    public init(_ socket: WebSocket, bufferLimit: Int = 500) {
        self.socket = socket
        let (frames, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingOldest(bufferLimit))
        self.frames = frames
        let dropped = droppedCount
        socket.onText { _, text in
            if case .dropped = continuation.yield(text) { dropped.count.withLock { $0 += 1 } }
        }
        socket.onBinary { _, _ in }
        socket.onClose.whenComplete { _ in continuation.finish() }
    }

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

    /// Closes (a no-op when already closed); `frames` then finishes.
    public func close(_ reason: CloseReason = .normal) async {
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
