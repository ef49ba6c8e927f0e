import Foundation
import Logging
import StoryModel

/// Claims and runs jobs until its task is cancelled.
///
/// Each job runs beside a heartbeat that extends its lease. If the lease is lost (this worker
/// stalled and another claimed the job) the handler is cancelled and its result discarded.
/// Cancelling `run()` is the graceful shutdown: running handlers are cancelled and their jobs
/// released to the queue at once, without counting the attempt, for the next worker to resume.
public struct JobWorker: Sendable {
    public struct Configuration: Sendable {
        /// Identifies this worker in lease tokens and logs.
        public var workerID: String
        /// How many jobs this worker runs at once.
        public var concurrency: Int
        public var leaseDuration: Duration
        public var heartbeatInterval: Duration
        /// How long to wait before looking again when no job is due.
        public var pollInterval: Duration
        /// How often a running job's row is read to see whether its owner cancelled it.
        public var cancelCheckInterval: Duration

        public init(
            workerID: String = JobWorker.defaultWorkerID(),
            concurrency: Int = 1,
            leaseDuration: Duration = .seconds(60),
            heartbeatInterval: Duration = .seconds(15),
            pollInterval: Duration = .seconds(1),
            cancelCheckInterval: Duration = .seconds(1)
        ) {
            self.workerID = workerID
            self.concurrency = max(1, concurrency)
            self.leaseDuration = leaseDuration
            self.heartbeatInterval = heartbeatInterval
            self.pollInterval = pollInterval
            self.cancelCheckInterval = cancelCheckInterval
        }
    }

    public let queue: JobQueue
    public let registry: JobHandlerRegistry
    public let configuration: Configuration
    public let logger: Logger

    public init(
        queue: JobQueue, registry: JobHandlerRegistry, configuration: Configuration = .init(),
        logger: Logger = Logger(label: "storyvoice.worker")
    ) {
        self.queue = queue
        self.registry = registry
        self.configuration = configuration
        self.logger = logger
    }

    /// "host-pid-xxxxxx": unique per process, readable in the jobs table.
    public static func defaultWorkerID() -> String {
        let host = ProcessInfo.processInfo.hostName
        let pid = ProcessInfo.processInfo.processIdentifier
        return "\(host)-\(pid)-\(UUID.random().uuidString.prefix(6).lowercased())"
    }

    /// Runs `concurrency` claim loops until cancelled. Returns once every running job has been
    /// finished or released.
    public func run() async {
        logger.info("worker started", metadata: [
            "worker": "\(configuration.workerID)", "kinds": "\(registry.kinds.joined(separator: ","))",
        ])
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<configuration.concurrency {
                group.addTask { await loop() }
            }
        }
        logger.info("worker stopped", metadata: ["worker": "\(configuration.workerID)"])
    }

    private func loop() async {
        while !Task.isCancelled {
            do {
                if try await runOnce() { continue }
            } catch {
                // The database may be restarting; keep the worker alive and try again shortly.
                logger.error("claiming a job failed: \(error)")
            }
            try? await Task.sleep(for: configuration.pollInterval)
        }
    }

    /// Claims one due job and runs it to the end. Returns false when no job was due.
    @discardableResult
    public func runOnce() async throws -> Bool {
        guard let job = try await queue.claim(
            workerID: configuration.workerID, kinds: registry.kinds, leaseDuration: configuration.leaseDuration.timeInterval
        ) else { return false }
        await process(job)
        return true
    }

    private enum Outcome: Sendable {
        case finished(String?)
        case failed(any Error)
        case leaseLost
        case overTime(Duration)
    }

    /// A worker for each lane that has kinds in `registry`, with `concurrency` loops (lanes
    /// not named get one): a short job never waits behind a long one, and a listener's behind
    /// neither.
    public static func lanes(
        queue: JobQueue, registry: JobHandlerRegistry, configuration: Configuration, concurrency: [JobLane: Int],
        logger: Logger = Logger(label: "storyvoice.worker")
    ) -> [JobWorker] {
        JobLane.allCases.compactMap { lane in
            let kinds = registry.lane(lane)
            let workers = concurrency[lane] ?? 1
            guard !kinds.kinds.isEmpty, workers > 0 else { return nil }
            var configured = configuration
            configured.workerID += lane == .long ? "" : "-\(lane.rawValue)"
            configured.concurrency = workers
            if lane == .live { configured.pollInterval = min(configured.pollInterval, .milliseconds(250)) }
            return JobWorker(queue: queue, registry: kinds, configuration: configured, logger: logger)
        }
    }

    /// Extends the lease every `heartbeatInterval` and looks for a cancellation in between.
    /// Returns `.leaseLost` when the job is no longer ours, nil when the watch is cancelled.
    private func watch(_ job: ClaimedJob, log: Logger) async -> Outcome? {
        let tick = min(configuration.cancelCheckInterval, configuration.heartbeatInterval)
        var sinceHeartbeat = Duration.zero
        while true {
            do {
                try await Task.sleep(for: tick)
                sinceHeartbeat += tick
                if sinceHeartbeat >= configuration.heartbeatInterval {
                    sinceHeartbeat = .zero
                    try await queue.heartbeat(job.lease, leaseDuration: configuration.leaseDuration.timeInterval)
                } else if try await !queue.isHeld(job.lease) {
                    return .leaseLost
                }
            } catch is CancellationError {
                return nil
            } catch JobError.leaseLost {
                return .leaseLost
            } catch {
                // A missed heartbeat is not fatal while the lease lasts; try again.
                log.warning("heartbeat failed: \(error)")
            }
        }
    }

    private func process(_ job: ClaimedJob) async {
        let log = logger.with(job: job)
        guard let handler = registry.handler(for: job.kind) else {
            _ = try? await queue.fail(job.lease, error: "No handler for jobs of kind \(job.kind).", retryable: false)
            return
        }
        let context = JobContext(queue: queue, lease: job.lease)
        let outcome: Outcome = await withTaskGroup(of: Outcome?.self) { group in
            group.addTask {
                do {
                    return .finished(try await handler.run(job, context: context))
                } catch {
                    return .failed(error)
                }
            }
            group.addTask { await watch(job, log: log) }
            if let limit = registry.timeLimit(for: job.kind) {
                group.addTask {
                    do { try await Task.sleep(for: limit) } catch { return nil }
                    return .overTime(limit)
                }
            }
            // The heartbeat yields nil when cancelled; wait for the handler's outcome then.
            for await outcome in group {
                if let outcome {
                    group.cancelAll()
                    return outcome
                }
            }
            return .leaseLost
        }
        do {
            switch outcome {
            case .finished(let result):
                try await queue.complete(job.lease, result: result)
                log.info("job succeeded")
            case .failed(let error) where Task.isCancelled:
                try await queue.release(job.lease)
                log.info("job released at shutdown (\(error))")
            case .failed(let error):
                let permanent = error is PermanentJobFailure || error is JobError
                let status = try await queue.fail(job.lease, error: String(describing: error), retryable: !permanent)
                log.warning("job attempt failed: \(error); now \(status.rawValue)")
            case .leaseLost:
                log.warning("job lease lost: cancelled, or another worker has it")
            case .overTime(let limit):
                let minutes = Int((limit.timeInterval / 60).rounded(.up))
                _ = try await queue.fail(job.lease, error: "It took longer than the \(minutes) minutes a job of this kind may take, and was stopped.", retryable: false)
                log.warning("job stopped after its time limit")
            }
        } catch JobError.leaseLost {
            log.warning("job lease lost before its result was recorded")
        } catch {
            log.error("recording the job's outcome failed: \(error)")
        }
    }
}

extension Logger {
    fileprivate func with(job: ClaimedJob) -> Logger {
        var copy = self
        copy[metadataKey: "job"] = "\(job.id)"
        copy[metadataKey: "kind"] = "\(job.kind)"
        copy[metadataKey: "attempt"] = "\(job.attempt)"
        return copy
    }
}

extension Duration {
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
