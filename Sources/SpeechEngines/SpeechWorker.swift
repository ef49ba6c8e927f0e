import Foundation
import ProcessWorkers
import Speech

/// One long-lived speech worker process with its model loaded (`scripts/piper-worker.py`,
/// `scripts/kokoro-worker.py`): the project's JSON-lines worker, answering each request with a
/// header and the PCM bytes (protocol in the scripts' docstrings). A worker serves one request
/// at a time; `SpeechWorkerPool` guarantees that.
final class SpeechWorker: Sendable {
    private let worker: JSONLinesWorker
    let engine: String
    let sampleRate: Int
    var processID: Int32 { worker.processID }
    var isRunning: Bool { worker.isRunning }

    struct Launch: Sendable {
        /// The engine's id, for errors.
        var engine: String
        /// Its display name, for errors ("Piper", "Kokoro").
        var name: String
        var python: String
        var script: String
        var arguments: [String]
    }

    /// Starts the worker and waits for its ready line (the model is loaded by then).
    static func start(_ launch: Launch) async throws -> SpeechWorker {
        let worker: JSONLinesWorker
        do {
            worker = try await JSONLinesWorker.start(executable: launch.python, arguments: [launch.script] + launch.arguments, label: launch.engine)
        } catch let failure as JSONLinesWorker.Died {
            throw SpeechError.engineFailed(
                engine: launch.engine, status: "the \(launch.name) worker did not start",
                message: "\(failure.message) Rerun scripts/setup to reinstall \(launch.name) into .venv.")
        } catch {
            throw SpeechError.engineFailed(engine: launch.engine, status: "could not start the \(launch.name) worker", message: "\(error)")
        }
        guard let rate = worker.ready["sample_rate"] as? Int else {
            worker.stop()
            throw SpeechError.engineFailed(engine: launch.engine, status: "the worker did not start", message: "no sample rate in its ready line")
        }
        return SpeechWorker(worker: worker, engine: launch.engine, sampleRate: rate)
    }

    private init(worker: JSONLinesWorker, engine: String, sampleRate: Int) {
        self.worker = worker
        self.engine = engine
        self.sampleRate = sampleRate
    }

    /// Synthesizes one request; returns mono 16-bit samples at `sampleRate`. A dead worker
    /// throws `Failure.died`; a request the worker rejected throws `engineFailed`.
    func synthesize(_ request: some SpeechWorkerRequest) async throws -> [Int16] {
        let answer: JSONLinesWorker.Answer
        do {
            answer = try await worker.exchange(encoding: request)
        } catch let failure as JSONLinesWorker.Died {
            throw Failure.died(failure.message)
        }
        if let error = answer.header["error"] as? String {
            throw SpeechError.engineFailed(engine: engine, status: "synthesis failed", message: error)
        }
        guard answer.header["id"] as? Int == request.id else {
            throw Failure.died("answer to request \(answer.header["id"] ?? "nil") while waiting for \(request.id)")
        }
        return answer.payload.withUnsafeBytes { raw in
            (0..<(answer.payload.count / 2)).map { Int16(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 2, as: Int16.self)) }
        }
    }

    /// Stops the process (end of input, then signals) without waiting for it.
    func stop() {
        worker.stop()
    }

    /// Kills the process at once, mid-request if need be (its request then fails as `died`).
    func interrupt() {
        worker.interrupt()
    }

    func errorTail() -> String {
        worker.errorTail()
    }

    enum Failure: Error {
        /// The process ended or closed its pipes: restart it.
        case died(String)
    }
}

/// A request a speech worker reads: its `id` comes back in the answer's header.
protocol SpeechWorkerRequest: Encodable, Sendable {
    var id: Int { get set }
}

/// One synthesis request as `scripts/piper-worker.py` reads it.
struct PiperRequest: SpeechWorkerRequest {
    var id: Int
    var text: String
    var length_scale: Double?
    var noise_scale: Double?
    var noise_w: Double?
    var speaker: Int?
}

/// One synthesis request as `scripts/kokoro-worker.py` reads it: `voice` is a voice or a blend
/// ("jm_kumo:0.7+jf_alpha:0.3"), `speed` 0.5–2.0, `lang` en-us or en-gb.
struct KokoroRequest: SpeechWorkerRequest {
    var id: Int
    var text: String
    var voice: String
    var speed: Double
    var lang: String
}

/// One synthesis request as `scripts/hibari-worker.py` reads it: `speed` 0.5–2.0, `pitch` in
/// semitones (the model's F0 scaled), `formant` the spectral envelope's stretch (0.75–1.3),
/// `seed` the noise component's, so a line renders the same each time.
struct HibariRequest: SpeechWorkerRequest {
    var id: Int
    var text: String
    var speed: Double
    var pitch: Double
    var formant: Double
    var seed: Int
}
