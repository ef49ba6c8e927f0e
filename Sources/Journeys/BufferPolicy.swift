/// Which parts of a story to make next, so the listener never waits: the part playing and the
/// `ahead` parts after it should be ready or being made. Parts are numbered from 1.
public struct BufferPolicy: Sendable, Hashable {
    /// Parts after the one playing to keep ready. Three leaves two ready even while the third is
    /// being made, so one slow part (a retry) does not stop the story.
    public var ahead: Int
    /// Parts made at once: one for the model on this machine (it serves one request at a time),
    /// more for a cloud model.
    public var concurrency: Int

    public init(ahead: Int = 3, concurrency: Int = 1) {
        self.ahead = max(1, ahead)
        self.concurrency = max(1, concurrency)
    }

    /// The parts to start making now, most urgent first: the part playing if it is not ready,
    /// then the next ones in order, skipping what is ready or in progress, never more than
    /// `concurrency` in progress at once. Parts before the playhead are never made (the listener
    /// skipped them). `playhead` is the part playing or about to play (1 before the story starts).
    public func partsToGenerate(playhead: Int, ready: Set<Int>, inProgress: Set<Int>, total: Int) -> [Int] {
        let first = max(1, playhead)
        guard total > 0, first <= total else { return [] }
        let window = first...min(total, first + ahead)
        // A part still being made behind the playhead holds its worker all the same.
        let slots = concurrency - inProgress.count
        guard slots > 0 else { return [] }
        return Array(window.filter { !ready.contains($0) && !inProgress.contains($0) }.prefix(slots))
    }

    /// Consecutive ready parts after the one playing: the minutes of story in hand.
    public func readyAhead(playhead: Int, ready: Set<Int>, total: Int) -> Int {
        var count = 0
        var part = max(1, playhead) + 1
        while part <= total, ready.contains(part) {
            count += 1
            part += 1
        }
        return count
    }

    /// Whether the listener is waiting: the part to play now is not ready ("preparing the next part").
    public func isWaiting(playhead: Int, ready: Set<Int>, total: Int) -> Bool {
        let part = max(1, playhead)
        return part <= total && !ready.contains(part)
    }
}
