import Audio
import Foundation
import Logging
import Speech

/// The optional transcription check of rendered lines (`NarrationOptions.verify`).
struct Verification: Sendable {
    let transcriber: any SpeechTranscriber
    let threshold: Double

    /// One checked line, for the report.
    struct Line: Sendable {
        /// The engine of the cast voice.
        var engine: String
        var check: LineRecord.Check
    }

    /// What rendering (or loading) and checking one job did.
    struct Finished: Sendable {
        var samples: Int
        var synthesized: Bool
        var line: Line?
        var checkSeconds = 0.0
    }

    /// Transcribes `rendered` and, when its WER is above the threshold, renders the line once
    /// more by the alternate path (`LineRenderer.rerender`) and keeps whichever transcribes
    /// better. Returns the kept rendering, its record carrying the check, and whether it is
    /// the second one.
    func check(
        _ rendered: LineRenderer.Rendered, job: LineRenderer.Line, renderer: LineRenderer, logger: Logger
    ) async throws -> (LineRenderer.Rendered, replaced: Bool) {
        let transcript = try await transcriber.transcribe(rendered.audio)
        let wer = Self.wordErrorRate(of: transcript, for: job)
        var kept = rendered
        kept.record.check = LineRecord.Check(transcript: transcript, wordErrorRate: wer, firstWordErrorRate: wer, retried: false)
        guard wer > threshold else { return (kept, false) }
        kept.record.check?.retried = true
        let second: LineRenderer.Rendered
        do {
            second = try await renderer.rerender(job, logger: logger)
        } catch {
            logger.warning("re-synthesis after a failed check failed; keeping the first rendering", metadata: ["text": "\(job.spokenText)", "error": "\(error)"])
            return (kept, false)
        }
        let secondTranscript = try await transcriber.transcribe(second.audio)
        let secondWER = Self.wordErrorRate(of: secondTranscript, for: job)
        logger.info("line failed its check; re-synthesized", metadata: [
            "text": "\(job.spokenText.prefix(60))", "wer": "\(wer)", "retryWER": "\(secondWER)", "retryVoice": "\(second.record.voice)",
        ])
        guard secondWER < wer else { return (kept, false) }
        var replacement = second
        replacement.record.check = LineRecord.Check(transcript: secondTranscript, wordErrorRate: secondWER, firstWordErrorRate: wer, retried: true)
        return (replacement, true)
    }
}

extension Verification {
    /// The WER of `transcript` against the line's spoken text, or against the text the engine
    /// was given when the lexicon respelled it and that is nearer ("Framton" said as "FRAM-tun"
    /// may be written either way by the recognizer). A line given phonemes is judged against
    /// the story's words only: `[[fr'amt@n]]` is no word a recognizer writes.
    static func wordErrorRate(of transcript: String, for job: LineRenderer.Line) -> Double {
        let spoken = WordErrorRate.of(hypothesis: transcript, reference: job.spokenText)
        guard job.engineText != job.spokenText, !job.engineText.contains("[[") else { return spoken }
        return min(spoken, WordErrorRate.of(hypothesis: transcript, reference: job.engineText))
    }
}

/// What the transcription check found over a narration's distinct lines.
public struct VerificationReport: Sendable, Hashable {
    public var threshold: Double
    /// WER of the lines as finally kept.
    public var distribution: WERDistribution
    /// WER of the first renderings, before any re-synthesis.
    public var firstDistribution: WERDistribution
    /// Final WER by the engine of the cast voice.
    public var perEngine: [String: WERDistribution]
    /// Lines re-synthesized because they failed the check, and how many of those improved.
    public var retried: Int
    public var improved: Int
    /// Seconds spent checking, summed over lines: transcription, re-synthesis, and waiting
    /// for the one transcriber while other jobs use it (so with `jobs` > 1 it exceeds the
    /// wall-clock cost; compare a verified run with an unverified one for that).
    public var seconds: Double

    init(_ lines: [Verification.Line], threshold: Double, seconds: Double) {
        self.threshold = threshold
        distribution = WERDistribution(lines.map(\.check.wordErrorRate), threshold: threshold)
        firstDistribution = WERDistribution(lines.map { $0.check.firstWordErrorRate ?? $0.check.wordErrorRate }, threshold: threshold)
        perEngine = Dictionary(grouping: lines, by: \.engine).mapValues { WERDistribution($0.map(\.check.wordErrorRate), threshold: threshold) }
        retried = lines.filter(\.check.retried).count
        improved = lines.filter { $0.check.retried && $0.check.wordErrorRate < ($0.check.firstWordErrorRate ?? 0) }.count
        self.seconds = seconds
    }
}

extension Duration {
    var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
