import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP connection driven byte by byte, as a slow or hostile client drives one: it sends what
/// it is told (half a request head, a WebSocket frame), answers nothing on its own (not even a
/// WebSocket close), and notices when the server closes it. Never blocks a thread: reads are
/// non-blocking and waits sleep between tries, so the server in the same process keeps its threads.
public final class RawConnection: @unchecked Sendable {
    private var descriptor: Int32
    public private(set) var received: [UInt8] = []
    public private(set) var isClosed = false

    public init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let message = String(cString: strerror(errno))
            Glibc.close(descriptor)
            throw Failure("connect: \(message)")
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    deinit { close() }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    /// Sends `bytes`; false once the server has closed the connection.
    @discardableResult
    public func send(_ bytes: [UInt8]) async -> Bool {
        var offset = 0
        while offset < bytes.count, !isClosed {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent > 0 {
                offset += sent
            } else if sent < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                try? await Task.sleep(for: .milliseconds(5))
            } else {
                isClosed = true
            }
        }
        return !isClosed
    }

    @discardableResult
    public func send(_ text: String) async -> Bool { await send(Array(text.utf8)) }

    /// Reads what has come; notes the end when the server has closed (or reset) the connection.
    public func drain() {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !isClosed {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received += buffer[..<count]
            } else if count == 0 || !(errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                isClosed = true
            } else {
                return
            }
        }
    }

    /// Waits until the server closes the connection, reading (and keeping) whatever comes;
    /// false if it is still open after `backstop` (a loaded machine's margin, not a measure).
    public func closedByServer(within backstop: Duration = .seconds(120)) async -> Bool {
        let deadline = ContinuousClock.now + backstop
        while ContinuousClock.now < deadline {
            drain()
            if isClosed { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// Waits until `received` holds `marker` `times` times (or the connection closes, or
    /// `backstop` passes).
    public func wait(for marker: String, times: Int = 1, within backstop: Duration = .seconds(120)) async -> Bool {
        let deadline = ContinuousClock.now + backstop
        while ContinuousClock.now < deadline {
            drain()
            if String(decoding: received, as: UTF8.self).components(separatedBy: marker).count > times { return true }
            if isClosed { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    public func close() {
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
        isClosed = true
    }

    // MARK: WebSocket, as a client writes it (masked)

    /// Asks `path` to become a WebSocket and waits for the 101.
    @discardableResult
    public func upgrade(path: String) async -> Bool {
        await send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        return await wait(for: "101 Switching Protocols")
    }

    /// One frame: `opcode` 1 is text, 0 a continuation.
    public static func frame(_ payload: [UInt8], opcode: UInt8 = 1, final: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = [(final ? 0x80 : 0) | opcode]
        switch payload.count {
        case ..<126: bytes.append(0x80 | UInt8(payload.count))
        case ..<65_536: bytes += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default: bytes += [0x80 | 127] + (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        return bytes + mask + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    }

    /// Whether the server sent a close frame with `code` (frames from a server are unmasked).
    public func receivedClose(code: UInt16) -> Bool {
        var index = received.firstRange(of: Array("\r\n\r\n".utf8)).map(\.upperBound) ?? 0
        while index + 2 <= received.count {
            let opcode = received[index] & 0x0F
            var length = Int(received[index + 1] & 0x7F)
            var start = index + 2
            if length == 126, start + 2 <= received.count {
                length = Int(received[start]) << 8 | Int(received[start + 1])
                start += 2
            } else if length == 127 {
                return false
            }
            if opcode == 8, length >= 2, start + 2 <= received.count {
                return UInt16(received[start]) << 8 | UInt16(received[start + 1]) == code
            }
            index = start + length
        }
        return false
    }
}
