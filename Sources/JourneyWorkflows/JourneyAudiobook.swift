import Audio
import Foundation

/// A journey's story as one audio file with a chapter per part: the sentences' WAVs in order,
/// a short pause between sentences and a longer one between parts.
public struct JourneyAudiobook: Sendable {
    public var title: String
    public var parts: [JourneyPart]
    /// Where the parts' sentence files are.
    public var folder: URL
    public var ffmpegPath: String?

    static let sentencePause = 0.2
    static let partPause = 1.0

    public init(title: String, parts: [JourneyPart], folder: URL, ffmpegPath: String? = nil) {
        self.title = title
        self.parts = parts.filter { !$0.sentences.isEmpty }
        self.folder = folder
        self.ffmpegPath = ffmpegPath
    }

    /// Writes the file (`.m4b`, `.m4a`, `.mp3` or `.wav`, by its extension); `progress` hears
    /// the fraction of sentences written.
    public func write(to output: URL, progress: @escaping @Sendable (Double) async -> Void = { _ in }) async throws {
        guard let first = parts.first?.sentences.first else { throw NothingToldYet() }
        let sampleRate = try WAV.decode(Data(contentsOf: folder.appendingPathComponent(first.file))).sampleRate
        let total = parts.reduce(0) { $0 + $1.sentences.count }
        let metadata = AudioMetadata(title: title, author: "StoryVoice", chapters: chapters(sampleRate: sampleRate))
        try await AudioEncoder(ffmpegPath: ffmpegPath).encode(sampleRate: sampleRate, to: output, metadata: metadata) { sink in
            var done = 0
            for (index, part) in parts.enumerated() {
                for sentence in part.sentences {
                    try await sink.append(try samples(of: sentence, sampleRate: sampleRate))
                    try await sink.appendSilence(seconds: Self.sentencePause)
                    done += 1
                    await progress(Double(done) / Double(total))
                }
                if index < parts.count - 1 { try await sink.appendSilence(seconds: Self.partPause) }
            }
        }
    }

    /// "Part 1", "Part 2", … at the sample each part starts.
    func chapters(sampleRate: Int) -> [ChapterMark] {
        var marks: [ChapterMark] = []
        var start = 0.0
        for (index, part) in parts.enumerated() {
            var length = part.sentences.reduce(0) { $0 + $1.durationSeconds + Self.sentencePause }
            if index < parts.count - 1 { length += Self.partPause }
            marks.append(ChapterMark(title: "Part \(part.number)", startMs: Int(start * 1000), endMs: Int((start + length) * 1000)))
            start += length
        }
        return marks
    }

    private func samples(of sentence: PartSentence, sampleRate: Int) throws -> [Int16] {
        let audio = try WAV.decode(Data(contentsOf: folder.appendingPathComponent(sentence.file)))
        return audio.sampleRate == sampleRate ? audio.samples : Resampler.resample(audio, to: sampleRate).samples
    }
}

/// An audiobook of a journey asked for before any of it was told.
public struct NothingToldYet: Error, CustomStringConvertible {
    public var description: String { "No part of this journey has been told yet: listen to it first, then download it." }
}
