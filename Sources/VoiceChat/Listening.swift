import Audio
import Foundation

/// Hears speech while it is being spoken, so that when the speaker stops only the last piece
/// is left to transcribe. Audio arrives in pieces (`add`); a voice-activity detector keeps the
/// speech and drops silence and noise (which never reach the transcriber); while the person
/// speaks, the speech so far is transcribed again each time enough more has come (`heard`, for
/// the page to show), and a long monologue's finished utterances are transcribed once and kept
/// (`committed`); a pause starts a pass at once. `finish` returns the words: the kept ones and
/// the rest, reusing the last pass when only quiet came after it.
public actor Listening {
    public struct Heard: Sendable, Equatable {
        /// The words heard so far (the last pass; may still change).
        public var text: String
        /// Seconds of audio received, and of speech found in it.
        public var seconds: Double
        public var speechSeconds: Double
        /// Whether the speaker is speaking now (by the detector).
        public var speaking: Bool
    }

    /// Refused audio: more than `maxSeconds` were sent.
    public struct TooLong: Error, CustomStringConvertible {
        public var maxSeconds: Double
        public var description: String { "The recording is over \(Int(maxSeconds)) seconds: ask in shorter parts." }
    }

    public let sampleRate: Int
    public let maxSeconds: Double
    /// New speech (seconds) that starts another pass while the person speaks (infinity: none,
    /// for a transcriber paid by the request).
    public private(set) var passEvery: Double = 1.0
    /// Speech not yet kept beyond which a pause keeps what came before it (Whisper's short
    /// window covers ~28 s; a pass over a long monologue would be slow).
    public var commitAfter: Double = 8.0

    private let transcribe: @Sendable (PCMAudio) async throws -> String
    private var detector: SpeechDetector
    private var received = 0
    /// Utterances that ended and are not kept yet.
    private var ended: [Int16] = []
    private var committed: [String] = []
    /// The last pass: what it covered (samples of speech, not kept yet) and what it heard.
    private var lastPass: (samples: Int, text: String)?
    private var passing: Task<Void, Never>?
    private var passID = 0
    /// Counts commits: a pass started before one covered speech that is kept now.
    private var generation = 0
    private var failure: (any Error)?

    public init(sampleRate: Int, maxSeconds: Double = 120, transcribe: @escaping @Sendable (PCMAudio) async throws -> String) {
        self.sampleRate = sampleRate
        self.maxSeconds = maxSeconds
        self.transcribe = transcribe
        detector = SpeechDetector(sampleRate: sampleRate)
    }

    public func setPassEvery(_ seconds: Double) {
        passEvery = seconds
    }

    /// Adds the next piece of audio (mono 16-bit at `sampleRate`) and returns what is heard so far.
    @discardableResult
    public func add(_ samples: [Int16]) throws -> Heard {
        received += samples.count
        guard Double(received) / Double(sampleRate) <= maxSeconds else { throw TooLong(maxSeconds: maxSeconds) }
        for event in detector.add(samples) {
            if case .ended(let utterance) = event { ended += utterance }
        }
        if !detector.isSpeaking, seconds(ended.count) >= commitAfter {
            commitEnded()
        } else if passing == nil, passEvery.isFinite, voicedEnd > (lastPass?.samples ?? 0),
                  seconds(voicedEnd - (lastPass?.samples ?? 0)) >= passEvery || pausing {
            startPass()
        }
        return heard
    }

    /// Where the last loud frame of the pending speech ends: what follows is the quiet the
    /// detector waits through before it calls the utterance over.
    private var voicedEnd: Int {
        let quiet = detector.isSpeaking ? detector.trailingQuietFrames : (ended.isEmpty ? 0 : detector.endedTrailingQuietFrames)
        return max(0, pendingSpeech.count - quiet * detector.frameSamples)
    }

    /// The speaker has paused (a quarter second of quiet, or the utterance ended): a pass now
    /// is likely the last, and `finish` reuses it when nothing but quiet came after.
    private var pausing: Bool {
        !detector.isSpeaking || detector.trailingQuietFrames * detector.frameSamples >= sampleRate / 4
    }

    public var heard: Heard {
        Heard(text: (committed + [lastPass?.text ?? ""]).filter { !$0.isEmpty }.joined(separator: " "),
              seconds: seconds(received), speechSeconds: seconds(keptSamples + pendingSpeech.count), speaking: detector.isSpeaking)
    }

    /// Returns once the pass in flight, if any, is done (what `finish` waits for first).
    public func settle() async {
        await passing?.value
    }

    /// The words of everything sent: "" when it held no speech. Throws what the transcriber threw.
    public func finish() async throws -> String {
        await passing?.value
        if let failure { throw failure }
        let speech = pendingSpeech
        var words = committed
        if let lastPass, lastPass.samples >= voicedEnd {
            words.append(lastPass.text)
        } else if !speech.isEmpty {
            words.append(try await transcribe(PCMAudio(sampleRate: sampleRate, samples: speech)))
        }
        return words.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// Speech not kept yet: ended utterances and the one going on.
    private var pendingSpeech: [Int16] { ended + detector.unfinished() }
    private var keptSamples = 0

    private func seconds(_ samples: Int) -> Double { Double(samples) / Double(sampleRate) }

    private func startPass() {
        let speech = pendingSpeech
        let generation = self.generation
        passID += 1
        let id = passID
        passing = Task {
            let text = try? await transcribe(PCMAudio(sampleRate: sampleRate, samples: speech))
            self.passed(id: id, generation: generation, samples: speech.count, text: text)
        }
    }

    private func passed(id: Int, generation: Int, samples: Int, text: String?) {
        if passID == id { passing = nil }
        // A pass over speech that has since been kept says nothing about what is pending now.
        if let text, generation == self.generation { lastPass = (samples, text) }
    }

    /// Transcribes the utterances that ended and keeps their words; later passes start after them.
    private func commitEnded() {
        let speech = ended
        ended = []
        keptSamples += speech.count
        lastPass = nil
        generation += 1
        let previous = passing
        let index = committed.count
        committed.append("")
        passID += 1
        let id = passID
        passing = Task {
            await previous?.value
            do {
                let text = try await transcribe(PCMAudio(sampleRate: sampleRate, samples: speech))
                self.kept(text, at: index, id: id)
            } catch {
                self.failed(error, id: id)
            }
        }
    }

    private func kept(_ text: String, at index: Int, id: Int) {
        committed[index] = text
        if passID == id { passing = nil }
    }

    private func failed(_ error: any Error, id: Int) {
        failure = error
        if passID == id { passing = nil }
    }
}
