import Audio
import Foundation
import StoryModel

/// One line's audio made small for the network: Opus at 32 kb/s in Ogg is about a tenth of the
/// 22.05 kHz WAV the cache holds, and plenty for speech.
enum LineCompression {
    static func opus(fromWAV wav: Data) async throws -> Data {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("storyvoice-line-\(UUID.random().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let input = scratch.appendingPathComponent("line.wav"), output = scratch.appendingPathComponent("line.opus")
        try wav.write(to: input)
        try await AudioEncoder().encode(wav: input, to: output, metadata: AudioMetadata(title: "", author: nil, chapters: []))
        return try Data(contentsOf: output)
    }
}
