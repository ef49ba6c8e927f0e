import Foundation
import ProcessWorkers
import Speech

/// One long-lived `scripts/piper-worker.py` process with the voice model loaded: the project's
/// JSON-lines worker, answering each request with a header and the PCM bytes (protocol in the
/// script's docstring). A worker serves one request at a time; `PiperWorkerPool` guarantees that.
final class PiperWorker: Sendable {
    private let worker: JSONLinesWorker
    let sampleRate: Int
    var processID: Int32 { worker.processID }
    var isRunning: Bool { worker.isRunning }

    struct Launch: Sendable {
        var python: String
        var script: String
        var voicePackage: String
        var threads: Int
    }

    /// Starts the worker and waits for its ready line (the model is loaded by then).
    static func start(_ launch: Launch) async throws -> PiperWorker {
        let worker: JSONLinesWorker
        do {
            worker = try await JSONLinesWorker.start(
                executable: launch.python,
                arguments: [launch.script, "--voice-package", launch.voicePackage, "--threads", String(launch.threads)], label: "piper")
        } catch let failure as JSONLinesWorker.Died {
            throw SpeechError.engineFailed(
                engine: PiperEngine.id, status: "the Piper worker did not start",
                message: "\(failure.message) Rerun scripts/setup to reinstall Piper into .venv.")
        } catch {
            throw SpeechError.engineFailed(engine: PiperEngine.id, status: "could not start the Piper worker", message: "\(error)")
        }
        guard let rate = worker.ready["sample_rate"] as? Int else {
            worker.stop()
            throw SpeechError.engineFailed(engine: PiperEngine.id, status: "the worker did not start", message: "no sample rate in its ready line")
        }
        return PiperWorker(worker: worker, sampleRate: rate)
    }

    private init(worker: JSONLinesWorker, sampleRate: Int) {
        self.worker = worker
        self.sampleRate = sampleRate
    }

    /// Synthesizes one request; returns mono 16-bit samples at `sampleRate`. A dead worker
    /// throws `Failure.died`; a request the worker rejected throws `engineFailed`.
    func synthesize(_ request: PiperRequest) async throws -> [Int16] {
        let answer: JSONLinesWorker.Answer
        do {
            answer = try await worker.exchange(encoding: request)
        } catch let failure as JSONLinesWorker.Died {
            throw Failure.died(failure.message)
        }
        if let error = answer.header["error"] as? String {
            throw SpeechError.engineFailed(engine: PiperEngine.id, status: "synthesis failed", message: error)
        }
        guard answer.header["id"] as? Int == request.id else {
            throw Failure.died("answer to request \(answer.header["id"] ?? "nil") while waiting for \(request.id)")
        }
        return answer.payload.withUnsafeBytes { raw in
            (0..<(answer.payload.count / 2)).map { Int16(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 2, as: Int16.self)) }
        }
    }

    /// Stops the process (SIGTERM) without waiting for it.
    func stop() {
        worker.stop()
    }

    func errorTail() -> String {
        worker.errorTail()
    }

    enum Failure: Error {
        /// The process ended or closed its pipes: restart it.
        case died(String)
    }
}

/// One synthesis request as the worker reads it.
struct PiperRequest: Codable, Sendable {
    var id: Int
    var text: String
    var length_scale: Double?
    var noise_scale: Double?
    var noise_w: Double?
    var speaker: Int?
}
