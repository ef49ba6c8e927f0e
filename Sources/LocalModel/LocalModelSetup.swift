import Foundation
import LanguageModels
import ProcessWorkers

/// How to start the model on this machine: the project's Python and `scripts/local-model.py`
/// (installed by `scripts/setup`), which GGUF file, and how many threads.
public struct LocalModelSetup: Sendable, Hashable {
    public var python: String
    public var script: String
    /// A GGUF file of the user's (`STORYVOICE_LOCAL_MODEL`); nil serves the one setup installs.
    public var modelFile: String?
    /// Threads for reading prompts and for generation: every core, up to four. With idle
    /// threads sleeping (`OMP_WAIT_POLICY=PASSIVE`, set by the script) two threads beat one on
    /// two cores even with both busy (docs/local-model.md has the figures).
    public var threads: Int
    /// Slots, each with its own prompt cache (~110 MB each at 4,096 tokens): a talker's or a
    /// caller's conversation, a journey's story, its outline and a chat story being written each
    /// keep their prompts read, so a request that stepped aside for a live turn goes on without
    /// reading its prompt again. The scheduler still runs one request at a time
    /// (`ModelScheduler`, `LanguageModelFactory.defaultConcurrency`).
    public var parallel: Int
    /// Tokens one request reads at most, prompt and answer together.
    public var contextTokens: Int

    public static var defaultThreads: Int { min(4, max(1, ProcessInfo.processInfo.activeProcessorCount)) }

    public init(python: String, script: String, modelFile: String? = nil, threads: Int = defaultThreads, parallel: Int = 4, contextTokens: Int = 4096) {
        self.python = python
        self.script = script
        self.modelFile = modelFile
        self.threads = max(1, threads)
        self.parallel = max(1, parallel)
        self.contextTokens = contextTokens
    }

    /// The name the model goes by: the bundled model's, or the user's file name without `.gguf`.
    public var modelName: String {
        guard let modelFile else { return ModelSpec.localModelName }
        let name = URL(fileURLWithPath: modelFile).lastPathComponent
        return name.lowercased().hasSuffix(".gguf") ? String(name.dropLast(5)) : name
    }

    /// The checkout's setup, or nil when there is no `.venv` with the script beside it (run
    /// `scripts/setup`). `STORYVOICE_LOCAL_MODEL` names another GGUF file (or `off`),
    /// `STORYVOICE_LOCAL_MODEL_THREADS` the thread count.
    public static func located(environment: [String: String] = ProcessInfo.processInfo.environment) -> LocalModelSetup? {
        // `off`: run without it (a test server that must answer fast, a machine short of memory).
        if environment["STORYVOICE_LOCAL_MODEL"] == "off" { return nil }
        guard let project = ProjectDirectory.locate(containing: "scripts/local-model.py") else { return nil }
        let python = project.appendingPathComponent(".venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else { return nil }
        let file = environment["STORYVOICE_LOCAL_MODEL"].flatMap { $0.isEmpty ? nil : $0 }
        let threads = environment["STORYVOICE_LOCAL_MODEL_THREADS"].flatMap(Int.init) ?? defaultThreads
        return LocalModelSetup(
            python: python, script: project.appendingPathComponent("scripts/local-model.py").path,
            modelFile: file, threads: threads)
    }

    /// The arguments of `local-model.py serve`.
    var serveArguments: [String] {
        var arguments = [script, "serve", "--threads", String(threads), "--parallel", String(parallel), "--ctx-size", String(contextTokens), "--alias", modelName]
        if let modelFile { arguments += ["--model", modelFile] }
        return arguments
    }
}
