import Audio
import Foundation
import VendorHTTP
import Logging
import Speech

/// What every cloud engine shares: the vendor, its base URL and key, the shared transport
/// (limiter, timeout, retries) and the steps around one synthesis — cutting the text to the
/// vendor's limit, checking and joining the pieces' audio, and applying pitch and volume.
struct CloudSpeechClient: Sendable {
    let service: CloudService
    /// The base URL with no trailing slash.
    let baseURL: String
    let transport: VendorTransport
    let logger: Logger

    init(service: CloudService, baseURL: String, transport: VendorTransport, logger: Logger) {
        self.service = service
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
        self.transport = transport
        var logger = logger
        logger[metadataKey: "engine"] = "\(service.engineID)"
        self.logger = logger
    }

    var key: Secret? { transport.key.flatMap { $0.value.isEmpty ? nil : $0 } }
    var hasKey: Bool { key != nil }

    func requireKey(model: String) throws -> Secret {
        guard let key else { throw CloudSpeechError(.missingKey, service: service, model: model) }
        return key
    }

    /// Sends one request through the shared transport; a failure becomes a ``CloudSpeechError``
    /// about `model`.
    func send(_ request: VendorRequest, model: String) async throws -> VendorReply {
        do {
            return try await transport.send(request, logger: logger, errorMessage: Self.errorMessage)
        } catch {
            throw CloudSpeechError(error, service: service, model: model)
        }
    }

    /// The human message in a vendor's JSON error body: OpenAI and Gemini `{"error": {"message"}}`,
    /// ElevenLabs `{"detail": {"message"}}` or `{"detail": "…"}` (or a list of validation errors).
    static func errorMessage(_ data: Data) -> String? {
        guard let json = JSONValue(parsing: data) else { return nil }
        if let message = json["error"]?["message"]?.stringValue { return message }
        if let message = json["error"]?.stringValue { return message }
        if let message = json["detail"]?["message"]?.stringValue { return message }
        if let message = json["detail"]?.stringValue { return message }
        if let message = json["detail"]?[0]?["msg"]?.stringValue { return message }
        return nil
    }

    func unreadable(_ what: String, model: String) -> CloudSpeechError {
        CloudSpeechError(.unparseableAnswer, service: service, model: model, detail: transport.scrub(what))
    }

    /// Audio from a reply body: a WAV file when it starts with `RIFF` (whatever was asked for),
    /// else raw mono 16-bit little-endian PCM at `rate`.
    func audio(from data: Data, rate: Int, model: String) throws -> PCMAudio {
        if data.starts(with: Array("RIFF".utf8)) {
            do { return try WAV.decode(data) } catch { throw unreadable("the WAV audio cannot be read: \(error)", model: model) }
        }
        guard rate > 0 else { throw unreadable("the audio has no usable sample rate", model: model) }
        let count = data.count / 2
        let samples = [Int16](unsafeUninitializedCapacity: count) { buffer, initialized in
            data.withUnsafeBytes { bytes in
                for index in 0..<count {
                    buffer[index] = Int16(littleEndian: bytes.loadUnaligned(fromByteOffset: 2 * index, as: Int16.self))
                }
            }
            initialized = count
        }
        return PCMAudio(sampleRate: rate, samples: samples)
    }

    /// Speaks `text` in pieces of at most `service.characterLimit` characters, one request each
    /// (in order), and joins the audio at `outputRate`. Audio at any other rate is resampled
    /// (a vendor or compatible server answering at 16 kHz still joins cleanly); an empty piece
    /// is an error. Pitch is shifted by resampling; `speedRange` is the vendor's speed setting,
    /// when it has one, used to keep the duration the rate asks for.
    func synthesize(
        _ text: String, settings: SpeechSettings, outputRate: Int, speedRange: ClosedRange<Double>?,
        piece: (_ text: String, _ speed: Double?) async throws -> PCMAudio
    ) async throws -> PCMAudio {
        let pieces = TextChunker.chunks(text, limit: service.characterLimit)
        guard !pieces.isEmpty else { throw SpeechError.emptyAudio(engine: service.displayName, text: text) }
        // Raising pitch by resampling by k also speeds up by k: ask the vendor for rate / k.
        let shift = pow(2, settings.pitch / 12)
        let speed = speedRange.map { min($0.upperBound, max($0.lowerBound, settings.rate / shift)) }
        if pieces.count > 1 {
            logger.debug("text cut into pieces", metadata: ["pieces": "\(pieces.count)", "characters": "\(text.unicodeScalars.count)"])
        }
        var joined = PCMAudio(sampleRate: outputRate)
        for text in pieces {
            try Task.checkCancellation()
            let audio = try await piece(text, speed.flatMap { $0 == 1 ? nil : $0 })
            guard !audio.samples.isEmpty else { throw SpeechError.emptyAudio(engine: service.displayName, text: text) }
            joined.samples += Resampler.resample(audio, to: outputRate).samples
        }
        if shift != 1 {
            // Played k times faster the pitch rises by k; resampled back to the output rate.
            let raised = PCMAudio(sampleRate: Int((Double(outputRate) * shift).rounded()), samples: joined.samples)
            joined = PCMAudio(sampleRate: outputRate, samples: Resampler.resample(raised, to: outputRate).samples)
        }
        if settings.volume != 1 {
            joined.samples = joined.samples.map { Int16(clamping: Int((Double($0) * settings.volume).rounded())) }
        }
        return joined
    }

    /// `base` + `path`, where OpenAI-style bases may or may not already end in `/v1`.
    func url(versioned path: String) -> String {
        (baseURL.hasSuffix("/v1") ? baseURL : baseURL + "/v1") + path
    }
}
