import Audio
import Foundation
import Synchronization

/// What the caller has been sent and has heard, for one call: reply audio is cut into 20 ms
/// frames, each reply chunk is followed by a mark named `<item>:<end ms>`, and Twilio echoes a
/// mark once the audio before it has played. So the last echoed mark of a reply is how much
/// of it the caller heard, which is what an interruption truncates the reply to.
///
/// Shared by the session's two loops (agent audio out, Twilio frames in); a Mutex, not an
/// actor, because every step is a few field updates and the frames must be built in order.
final class Playback: Sendable {
    static let frameBytes = 160  // 20 ms of 8 kHz μ-law
    static let bytesPerMillisecond = 8

    struct Mark: Equatable {
        var name: String
        var itemID: String
        var endMilliseconds: Int
    }

    private struct State {
        var itemID: String?
        var itemBytesSent = 0
        var remainder: [UInt8] = []
        var pending: [Mark] = []
        var heard: [String: Int] = [:]
        var cut: Set<String> = []
        var marksSent = 0
        var framesSent = 0
        var interruptions = 0
    }

    private let state = Mutex(State())

    /// The frames (and the mark after them) to send for a chunk of reply audio; a chunk of a
    /// new reply first finishes the previous one. Nothing for a reply that was cut.
    func frames(itemID: String, audio: [UInt8], streamSid: String) -> [MediaStreamOutbound] {
        state.withLock { state in
            guard !state.cut.contains(itemID) else { return [] }
            var out: [MediaStreamOutbound] = []
            if state.itemID != itemID {
                out += Self.flush(&state, streamSid: streamSid)
                state.itemID = itemID
                state.itemBytesSent = 0
            }
            state.remainder += audio
            var offset = 0
            while state.remainder.count - offset >= Self.frameBytes {
                out.append(.media(streamSid: streamSid, payload: Array(state.remainder[offset..<offset + Self.frameBytes])))
                offset += Self.frameBytes
            }
            state.remainder.removeFirst(offset)
            state.itemBytesSent += offset
            state.framesSent += offset / Self.frameBytes
            if offset > 0 { out.append(Self.mark(&state, itemID: itemID, streamSid: streamSid)) }
            return out
        }
    }

    /// The end of a reply: its last partial frame, padded with silence, and its mark.
    func finishReply(streamSid: String) -> [MediaStreamOutbound] {
        state.withLock { Self.flush(&$0, streamSid: streamSid) }
    }

    /// Twilio played everything up to this mark. Marks come back in the order sent; a `clear`
    /// drops the rest without echoing them, so an unknown name changes nothing.
    @discardableResult
    func played(markNamed name: String) -> Mark? {
        state.withLock { state in
            guard let index = state.pending.firstIndex(where: { $0.name == name }) else { return nil }
            let mark = state.pending[index]
            state.pending.removeFirst(index + 1)
            state.heard[mark.itemID] = max(state.heard[mark.itemID] ?? 0, mark.endMilliseconds)
            return mark
        }
    }

    /// The caller spoke. When some of the current reply was sent but not yet heard, cuts it:
    /// returns the reply and how much of it was heard (nil when there is nothing to cut).
    func interrupt() -> (itemID: String, heardMilliseconds: Int)? {
        state.withLock { state in
            guard let itemID = state.itemID, !state.cut.contains(itemID),
                  !state.pending.isEmpty || !state.remainder.isEmpty else { return nil }
            state.cut.insert(itemID)
            state.pending.removeAll()
            state.remainder.removeAll()
            state.interruptions += 1
            return (itemID, state.heard[itemID] ?? 0)
        }
    }

    var framesSent: Int { state.withLock { $0.framesSent } }
    var interruptions: Int { state.withLock { $0.interruptions } }
    var pendingMarks: Int { state.withLock { $0.pending.count } }

    private static func flush(_ state: inout State, streamSid: String) -> [MediaStreamOutbound] {
        guard let itemID = state.itemID, !state.remainder.isEmpty, !state.cut.contains(itemID) else { return [] }
        var frame = state.remainder
        frame += [UInt8](repeating: MuLaw.silence, count: frameBytes - frame.count)
        state.remainder.removeAll()
        state.itemBytesSent += frameBytes
        state.framesSent += 1
        return [.media(streamSid: streamSid, payload: frame), mark(&state, itemID: itemID, streamSid: streamSid)]
    }

    private static func mark(_ state: inout State, itemID: String, streamSid: String) -> MediaStreamOutbound {
        state.marksSent += 1
        let mark = Mark(name: "\(itemID):\(state.itemBytesSent / bytesPerMillisecond):\(state.marksSent)", itemID: itemID,
                        endMilliseconds: state.itemBytesSent / bytesPerMillisecond)
        state.pending.append(mark)
        return .mark(streamSid: streamSid, name: mark.name)
    }
}
