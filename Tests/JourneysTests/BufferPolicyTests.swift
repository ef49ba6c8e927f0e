import Journeys
import Testing

@Suite struct BufferPolicyTests {
    let policy = BufferPolicy(ahead: 3, concurrency: 1)

    @Test func beforeTheStoryStartsPartOneComesFirst() {
        #expect(policy.partsToGenerate(playhead: 1, ready: [], inProgress: [], total: 10) == [1])
        #expect(policy.partsToGenerate(playhead: 0, ready: [], inProgress: [], total: 10) == [1])
    }

    @Test func thePartsAfterThePlayheadFollowInOrder() {
        #expect(policy.partsToGenerate(playhead: 1, ready: [1], inProgress: [], total: 10) == [2])
        #expect(policy.partsToGenerate(playhead: 1, ready: [1, 2], inProgress: [], total: 10) == [3])
        #expect(policy.partsToGenerate(playhead: 1, ready: [1, 2, 3], inProgress: [], total: 10) == [4])
    }

    @Test func threeReadyAheadIsEnough() {
        #expect(policy.partsToGenerate(playhead: 1, ready: [1, 2, 3, 4], inProgress: [], total: 10).isEmpty)
        #expect(policy.partsToGenerate(playhead: 2, ready: [1, 2, 3, 4], inProgress: [], total: 10) == [5])
        #expect(policy.readyAhead(playhead: 1, ready: [1, 2, 3, 4], total: 10) == 3)
    }

    @Test func aPartInProgressHoldsTheOnlyWorker() {
        #expect(policy.partsToGenerate(playhead: 1, ready: [1], inProgress: [2], total: 10).isEmpty)
        let two = BufferPolicy(ahead: 3, concurrency: 2)
        #expect(two.partsToGenerate(playhead: 1, ready: [1], inProgress: [2], total: 10) == [3])
        #expect(two.partsToGenerate(playhead: 1, ready: [], inProgress: [], total: 10) == [1, 2])
    }

    @Test func thePlayingPartComesFirstWhenItIsMissing() {
        // The listener skipped to part 6: what is behind is not made, part 6 is the most urgent.
        let two = BufferPolicy(ahead: 3, concurrency: 2)
        #expect(two.partsToGenerate(playhead: 6, ready: [1, 2, 3, 7], inProgress: [], total: 10) == [6, 8])
        #expect(two.isWaiting(playhead: 6, ready: [1, 2, 3, 7], total: 10))
        #expect(!two.isWaiting(playhead: 3, ready: [1, 2, 3, 7], total: 10))
    }

    @Test func aWorkerStillOnASkippedPartIsBusy() {
        #expect(policy.partsToGenerate(playhead: 6, ready: [], inProgress: [2], total: 10).isEmpty)
    }

    @Test func theEndOfTheStoryIsTheEndOfTheWindow() {
        #expect(policy.partsToGenerate(playhead: 9, ready: [9], inProgress: [], total: 10) == [10])
        #expect(policy.partsToGenerate(playhead: 10, ready: [9, 10], inProgress: [], total: 10).isEmpty)
        #expect(policy.partsToGenerate(playhead: 11, ready: [], inProgress: [], total: 10).isEmpty)
        #expect(policy.partsToGenerate(playhead: 1, ready: [], inProgress: [], total: 0).isEmpty)
        #expect(policy.readyAhead(playhead: 9, ready: [9, 10], total: 10) == 1)
    }

    @Test func aOnePartStoryNeedsOnlyItself() {
        #expect(policy.partsToGenerate(playhead: 1, ready: [], inProgress: [], total: 1) == [1])
        #expect(policy.partsToGenerate(playhead: 1, ready: [1], inProgress: [], total: 1).isEmpty)
    }

    @Test func replayingTheWholeSequenceNeverLeavesTheListenerWaitingWhenGenerationKeepsUp() {
        // Each part is made in half a minute of a one-minute part: after the first, never a wait.
        var ready: Set<Int> = []
        var waits = 0
        let total = 12
        for playhead in 1...total {
            for _ in 0..<2 {
                if let next = policy.partsToGenerate(playhead: playhead, ready: ready, inProgress: [], total: total).first { ready.insert(next) }
            }
            if playhead > 1, policy.isWaiting(playhead: playhead, ready: ready, total: total) { waits += 1 }
        }
        #expect(waits == 0)
        #expect(ready == Set(1...total))
    }
}
