import Dispatch

/// Where loopback servers answer: threads of their own, not Swift's cooperative pool.
///
/// The pool has one thread per core (two here), and CPU-bound tests running beside a test can
/// hold both for minutes; a loopback server answering on the pool then looks like a vendor
/// that stopped answering, and the test fails for what it does not test (a `journey plan`
/// subprocess waited past its limit for a loopback router this way). A concurrent Dispatch
/// queue grows threads as jobs wait, so a handler's reply is never queued behind a test's work.
public final class LoopbackExecutor: TaskExecutor {
    public static let shared = LoopbackExecutor()

    private let queue = DispatchQueue(label: "storyvoice.loopback", qos: .userInitiated, attributes: .concurrent)

    private init() {}

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
