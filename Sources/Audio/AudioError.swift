import Foundation

/// What went wrong between PCM and the file a listener gets, said so a user can act on it.
public enum AudioError: Error, Sendable, CustomStringConvertible {
    /// An external tool (`ffmpeg`, `ffprobe`) is not installed or not where it was said to be.
    case toolNotFound(tool: String, searched: String)
    /// The tool ran and failed: its exit status and the last lines it wrote to stderr.
    case toolFailed(tool: String, status: String, stderr: [String])
    /// The output's extension names no format StoryVoice writes.
    case unsupportedFormat(String)
    /// The directory the output should go in does not exist.
    case outputDirectoryMissing(URL)
    /// The input file does not exist.
    case inputMissing(URL)
    /// A PCM chunk at a different rate than the file being written.
    case sampleRateMismatch(expected: Int, actual: Int)
    /// A sample rate that is not positive.
    case invalidSampleRate(Int)
    /// `append` after `finish`.
    case writerFinished(URL)
    /// A file could not be read or written.
    case io(URL, String)
    /// ffprobe's report, or a timing map, could not be understood.
    case unreadable(URL, String)

    public var description: String {
        switch self {
        case .toolNotFound(let tool, let searched):
            "\(tool) was not found (\(searched)). Run scripts/setup, or install it with 'sudo apt-get install ffmpeg'."
        case .toolFailed(let tool, let status, let stderr):
            stderr.isEmpty
                ? "\(tool) failed (\(status)) without saying why."
                : "\(tool) failed (\(status)):\n" + stderr.map { "  " + $0 }.joined(separator: "\n")
        case .unsupportedFormat(let ext):
            "'\(ext)' is not an audio format StoryVoice writes. Use one of: "
                + AudioFormat.allCases.map { "." + $0.rawValue }.joined(separator: ", ") + "."
        case .outputDirectoryMissing(let dir):
            "The folder \(dir.path) does not exist. Create it, or choose an output path in an existing folder."
        case .inputMissing(let url):
            "The audio file \(url.path) does not exist."
        case .sampleRateMismatch(let expected, let actual):
            "Audio at \(actual) Hz cannot be appended to a \(expected) Hz file; resample it first (Resampler.resample)."
        case .invalidSampleRate(let rate):
            "\(rate) Hz is not a valid sample rate."
        case .writerFinished(let url):
            "The WAV file \(url.path) is already finished; nothing more can be appended."
        case .io(let url, let message):
            "Could not write \(url.path): \(message)"
        case .unreadable(let url, let message):
            "Could not read \(url.path): \(message)"
        }
    }
}
