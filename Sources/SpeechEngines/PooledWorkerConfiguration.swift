import Foundation
import ProcessWorkers

/// A local engine that speaks through a pool of long-lived Python workers of the project
/// (`SpeechWorkerPool`): Piper, hibari.
public protocol PooledWorkerEngine {
    /// The worker script, relative to the project (`scripts/piper-worker.py`).
    static var workerScriptPath: String { get }
    /// Memory one worker may take at work: the default pool holds as many as fit, one per core
    /// at most.
    static var bytesPerWorker: UInt64 { get }
}

/// Where an engine's workers and their Python live, and how many are kept alive.
public struct PooledWorkerConfiguration<Engine: PooledWorkerEngine>: Sendable {
    /// `.venv/bin/python` of the project.
    public var python: String
    /// The engine's worker script.
    public var workerScript: String
    /// Worker processes kept alive, each with the model loaded once.
    public var poolSize: Int

    /// One worker per core, as far as the memory available allows.
    public static var defaultPoolSize: Int { MachineResources.workerCount(bytesPerWorker: Engine.bytesPerWorker) }

    public init(python: String, workerScript: String, poolSize: Int = defaultPoolSize) {
        self.python = python
        self.workerScript = workerScript
        self.poolSize = max(1, poolSize)
    }

    /// The project at `directory` (holding `.venv/` and `scripts/`).
    public init(projectDirectory directory: URL, poolSize: Int = defaultPoolSize) {
        self.init(
            python: directory.appendingPathComponent(".venv/bin/python").path,
            workerScript: directory.appendingPathComponent(Engine.workerScriptPath).path,
            poolSize: poolSize)
    }

    /// The first directory holding the worker script, searching up from the current directory,
    /// then up from the running executable (a `.build/debug/storyvoice`).
    public static func locate(poolSize: Int = defaultPoolSize) -> Self? {
        ProjectDirectory.locate(containing: Engine.workerScriptPath).map { Self(projectDirectory: $0, poolSize: poolSize) }
    }
}
