/// Why a narration stopped. Whatever finished before the error stays cached, so running the
/// same command again resumes.
public enum NarrationError: Error, CustomStringConvertible {
    case unknownVoice(voice: String, role: String)
    case noVoices
    case synthesisFailed(text: String, voice: String, underlying: String)
    case nothingToSay
    case noTranscriber
    /// A rendered line vanished from (or changed in) the segment cache while the book was assembled.
    case segmentMissing(index: Int)

    /// Whether running the same narration again cannot help (the story or the cast must change
    /// first): job queues fail these at once instead of retrying.
    public var isPermanent: Bool {
        switch self {
        case .unknownVoice, .noVoices, .nothingToSay, .noTranscriber: true
        case .synthesisFailed, .segmentMissing: false
        }
    }

    public var description: String {
        switch self {
        case .unknownVoice(let voice, let role):
            "The cast gives \(role) the voice '\(voice)', which is not installed. Run 'storyvoice voices' to list voices and fix the cast file."
        case .noVoices:
            "No speech engine is installed. Run 'scripts/setup' (or 'storyvoice doctor' to see what is missing)."
        case .synthesisFailed(let text, let voice, let underlying):
            "Synthesis with \(voice) failed for \"\(text.prefix(60))\": \(underlying). Finished lines are kept; run the same command again to resume."
        case .nothingToSay:
            "The story has no text to read aloud."
        case .noTranscriber:
            "Verification needs a transcriber. Run scripts/setup (it installs faster-whisper into .venv), or narrate without verification."
        case .segmentMissing(let index):
            "Line \(index + 1)'s audio left the segment cache while the book was being put together (was the cache cleared?). Run the same command again: it renders what is missing."
        }
    }
}
