import Audio
import Speech

/// Up to `size` speech workers, started on demand and kept alive between requests so the
/// model is loaded once per worker, not once per line. Workers left idle for `idleLifetime`
/// are stopped (a neural model holds hundreds of megabytes) and start again when needed.
///
/// A worker that dies mid-request (crash, out of memory, killed) is replaced and the request
/// is retried once on the new worker; a second death is reported as an engine failure.
///
/// Cancelling a request stops its work at once: the worker busy with it is killed (a Kokoro line
/// can take half a minute) and the request throws `CancellationError`; the slot is free again
/// and the next request starts a fresh worker.
actor SpeechWorkerPool {
    let launch: SpeechWorker.Launch
    let size: Int
    let idleLifetime: Duration
    private var idleSweep: Task<Void, Never>?

    private var idle: [SpeechWorker] = []
    private var busy: [Int32: SpeechWorker] = [:]
    /// Workers running or starting.
    private var started = 0
    /// Requests waiting for a worker: handed an idle worker, or nil when a slot is free to start one.
    private var waiters: [CheckedContinuation<SpeechWorker?, Never>] = []
    private var nextRequestID = 0
    /// Workers replaced after dying, since the pool was created.
    private(set) var restarts = 0

    init(launch: SpeechWorker.Launch, size: Int, idleLifetime: Duration = .seconds(120)) {
        self.launch = launch
        self.size = max(1, size)
        self.idleLifetime = idleLifetime
    }

    /// Synthesizes `request` (its id is assigned here) and returns samples at the worker's rate.
    func synthesize<Request: SpeechWorkerRequest>(_ request: Request) async throws -> (samples: [Int16], sampleRate: Int) {
        var request = request
        nextRequestID += 1
        request.id = nextRequestID
        var worker = try await acquire()
        if Task.isCancelled {
            release(worker)
            throw CancellationError()
        }
        for attempt in 1...2 {
            do {
                let busyWorker = worker
                let samples = try await withTaskCancellationHandler {
                    try await busyWorker.synthesize(request)
                } onCancel: {
                    busyWorker.interrupt()
                }
                release(worker)
                return (samples, worker.sampleRate)
            } catch let SpeechWorker.Failure.died(reason) {
                busy[worker.processID] = nil
                worker.stop()
                guard !Task.isCancelled else {
                    // Killed because its caller gave up: not a crash, and not worth a retry.
                    slotFreed()
                    throw CancellationError()
                }
                restarts += 1
                guard attempt == 1 else {
                    slotFreed()
                    throw SpeechError.engineFailed(
                        engine: launch.engine, status: "the \(launch.name) worker died twice on one line",
                        message: "\(reason). Try the line again; if it keeps failing, rerun scripts/setup.")
                }
                do {
                    worker = try await SpeechWorker.start(launch)
                    busy[worker.processID] = worker
                } catch {
                    slotFreed()
                    throw error
                }
            } catch {
                release(worker)
                throw error
            }
        }
        preconditionFailure("the loop above returns or throws on its second attempt")
    }

    /// `request` spoken and finished as every worker engine's audio is: checked for speech,
    /// raised by `pitchFactor` (the request was spoken that much slower, so resampling brings
    /// the tempo back) and set to `volume`.
    func speech<Request: SpeechWorkerRequest>(_ request: Request, text: String, pitchFactor: Double, volume: Double) async throws -> PCMAudio {
        let result = try await synthesize(request)
        var audio = PCMAudio(sampleRate: result.sampleRate, samples: result.samples)
        try EngineProcess.requireSpeech(audio, engine: launch.engine, text: text)
        if pitchFactor != 1 {
            let sampleRate = Double(audio.sampleRate)
            audio.samples = AudioAdjustments.resample(audio.samples, from: sampleRate * pitchFactor, to: sampleRate)
        }
        return AudioAdjustments.applyingGain(min(max(volume, 0), 4), to: audio)
    }

    /// Process ids of the workers, for diagnostics and tests.
    func processIDs() -> (idle: [Int32], busy: [Int32]) {
        (idle.map(\.processID), busy.keys.sorted())
    }

    /// Stops every idle worker (busy ones finish their request first and are stopped on release).
    func shutdown() {
        for worker in idle { worker.stop() }
        started -= idle.count
        idle.removeAll()
    }

    private func acquire() async throws -> SpeechWorker {
        while true {
            if Task.isCancelled {
                // A free slot this request will not use goes to the next in line.
                if started < size, !waiters.isEmpty { waiters.removeFirst().resume(returning: nil) }
                throw CancellationError()
            }
            if let worker = idle.popLast() {
                if worker.isRunning {
                    busy[worker.processID] = worker
                    return worker
                }
                // It died while idle: forget it and free its slot.
                started -= 1
            } else if started < size {
                started += 1
                do {
                    let worker = try await SpeechWorker.start(launch)
                    busy[worker.processID] = worker
                    return worker
                } catch {
                    slotFreed()
                    throw error
                }
            } else if let worker = await withCheckedContinuation({ waiters.append($0) }) {
                busy[worker.processID] = worker
                return worker
            }
            // Otherwise a slot was freed: loop round and start a worker in it.
        }
    }

    private func release(_ worker: SpeechWorker) {
        busy[worker.processID] = nil
        if !waiters.isEmpty {
            waiters.removeFirst().resume(returning: worker)
        } else {
            idle.append(worker)
            scheduleIdleSweep()
        }
    }

    /// Stops the workers once all have been idle for `idleLifetime`; any request in between
    /// pushes that back.
    private func scheduleIdleSweep() {
        idleSweep?.cancel()
        let lifetime = idleLifetime
        idleSweep = Task { [weak self] in
            try? await Task.sleep(for: lifetime)
            guard !Task.isCancelled else { return }
            await self?.stopIfIdle()
        }
    }

    private func stopIfIdle() {
        guard busy.isEmpty, waiters.isEmpty else { return }
        shutdown()
    }

    private func slotFreed() {
        started -= 1
        if !waiters.isEmpty { waiters.removeFirst().resume(returning: nil) }
    }
}
