import Foundation
import LanguageModels
import Logging
import ProcessWorkers
import VendorHTTP

/// The model on this machine as a llama.cpp server, started on the first request and kept
/// loaded: `scripts/local-model.py serve` binds 127.0.0.1 on a free port and enforces a key
/// generated here for each start. The server reads its standard input from us and exits at its
/// end, so it dies with StoryVoice however StoryVoice ends. A server that died is started again
/// on the next request.
public actor LocalModelServer: LocalModelHost {
    public nonisolated let setup: LocalModelSetup
    public nonisolated var modelName: String { setup.modelName }
    private let logger: Logger
    private var running: (worker: JSONLinesWorker, endpoint: LocalEndpoint)?
    private var starting: Task<(worker: JSONLinesWorker, endpoint: LocalEndpoint), any Error>?

    public init(setup: LocalModelSetup, logger: Logger = Logger(label: "storyvoice.local-model")) {
        self.setup = setup
        self.logger = logger
    }

    /// The running server's address, after starting it (5–10 s to load the model) if needed.
    public func endpoint() async throws -> LocalEndpoint {
        if let running, running.worker.isRunning { return running.endpoint }
        if let running {
            logger.warning("the local model server exited; starting another", metadata: ["log": "\(running.worker.errorTail())"])
            self.running = nil
        }
        let task = starting ?? Task { [setup, logger] in try await Self.start(setup, logger: logger) }
        starting = task
        defer { starting = nil }
        let started = try await task.value
        running = started
        return started.endpoint
    }

    public func serverFailed(_ endpoint: LocalEndpoint) {
        guard let running, running.endpoint == endpoint else { return }
        running.worker.stop()
        self.running = nil
    }

    /// The server's process id while it runs (tests kill it to see it come back).
    public var processID: Int32? { running.flatMap { $0.worker.isRunning ? $0.worker.processID : nil } }

    public func stop() {
        running?.worker.stop()
        running = nil
    }

    private static func start(_ setup: LocalModelSetup, logger: Logger) async throws -> (worker: JSONLinesWorker, endpoint: LocalEndpoint) {
        let key = Secret((0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined())
        let started = Date()
        let worker: JSONLinesWorker
        do {
            worker = try await JSONLinesWorker.start(
                executable: setup.python, arguments: setup.serveArguments, label: "local-model",
                environment: ["STORYVOICE_LOCAL_LLM_KEY": key.value, "OMP_WAIT_POLICY": "PASSIVE"])
        } catch let failure as JSONLinesWorker.Died {
            throw LanguageModelError(.invalidConfiguration, provider: .local, model: setup.modelName, detail: failure.message)
        }
        guard let url = worker.ready["url"] as? String else {
            worker.stop()
            throw LanguageModelError(.invalidConfiguration, provider: .local, model: setup.modelName, detail: "the server did not say where it listens")
        }
        let endpoint = LocalEndpoint(
            baseURL: url, key: key, model: worker.ready["model"] as? String ?? setup.modelName,
            contextTokens: worker.ready["ctx_size"] as? Int ?? setup.contextTokens)
        logger.info("the local model is ready", metadata: [
            "model": "\(endpoint.model)", "seconds": "\(String(format: "%.1f", Date().timeIntervalSince(started)))", "threads": "\(setup.threads)",
        ])
        return (worker, endpoint)
    }
}
