/// Holds whoever waits until it is opened: a loopback reply held mid-answer
/// (`LoopbackReply.beforePiece`) until a test has seen what happens meanwhile.
public actor Gate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    public init() {}

    public func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    public func open() {
        isOpen = true
        waiters.forEach { $0.resume() }
        waiters = []
    }
}
