import Crypto
import Foundation
import Narration
import Platform
import StoryModel
@testable import StoryServer
import StoryWorkflows
import Synchronization

/// A `NarrationService` for tests: two voices, one line per analysis segment, and a real cache
/// on disk (a file per line, keyed by text and voice) whose hits and syntheses it counts. It
/// "synthesizes" a line by writing a small WAV, and can be told to stall after some syntheses
/// so a test can stop the worker mid-render.
final class NarrationDouble: NarrationService {
    let cacheDirectory: URL
    private struct State {
        var synthesized: [String] = []
        var cacheHits = 0
        var stallAfter: Int?
        var renderFailure: NarrationError?
        var released: [String] = []
    }
    private let state = Mutex(State())

    init(cacheDirectory: URL, stallAfter: Int? = nil) throws {
        self.cacheDirectory = cacheDirectory
        try FileManager.default.createDirectory(at: cacheDirectory, withIntermediateDirectories: true)
        state.withLock { $0.stallAfter = stallAfter }
    }

    var synthesizedTexts: [String] { state.withLock { $0.synthesized } }
    var cacheHits: Int { state.withLock { $0.cacheHits } }
    /// The voices whose engines' idle workers were released, in order.
    var releasedVoices: [String] { state.withLock { $0.released } }
    func releaseIdleWorkers(voices: [String]) async { state.withLock { $0.released += voices } }
    func stall(after count: Int?) { state.withLock { $0.stallAfter = count } }
    /// Makes every whole-book render fail with `error`, as the real narrator does for a story
    /// with nothing to say.
    func failRenders(with error: NarrationError?) { state.withLock { $0.renderFailure = error } }

    func voices() async -> [VoiceSummary] {
        [VoiceSummary(id: "test:alto", name: "Alto", engine: "test", gender: .female, age: .adult, accent: "en-GB", quality: 2),
         VoiceSummary(id: "test:bass", name: "Bass", engine: "test", gender: .male, age: .adult, accent: "en-US", quality: 1)]
    }

    func cast(_ analysis: StoryAnalysis, overrides: CastOverrides) async -> Cast {
        var characters: [String: VoiceAssignment] = [:]
        for character in analysis.characters {
            characters[character.id] = overrides.characters[character.id]
                ?? VoiceAssignment(voice: character.gender == .male ? "test:bass" : "test:alto", name: character.name)
        }
        return Cast(narrator: overrides.narrator ?? VoiceAssignment(voice: "test:bass", name: "Narrator"), characters: characters)
    }

    func plan(_ document: StoryDocument, analysis: StoryAnalysis, cast: Cast) -> [PlannedUtterance] {
        let scalars = Array(document.text.unicodeScalars)
        return analysis.segments.enumerated().compactMap { index, segment -> (Int, Segment, String)? in
            let text = String(String.UnicodeScalarView(scalars[segment.start..<min(segment.end, scalars.count)]))
                .trimmingCharacters(in: .whitespacesAndNewlines)
            return text.isEmpty ? nil : (index, segment, text)
        }.enumerated().map { position, item in
            let (index, segment, text) = item
            let voice = segment.kind == .dialogue ? cast.assignment(for: segment.speaker) : cast.narrator
            return PlannedUtterance(index: position, segment: index, start: segment.start, end: segment.end, kind: segment.kind,
                                    speaker: segment.speaker, voice: voice, spokenText: text, pauseBefore: 0.2, cached: false)
        }
    }

    func markingCached(_ lines: [PlannedUtterance]) -> [PlannedUtterance] {
        lines.map { line in
            var marked = line
            marked.cached = FileManager.default.fileExists(atPath: url(for: line).path)
            return marked
        }
    }

    func utteranceAudio(_ utterance: PlannedUtterance) async throws -> Data {
        try await renderLine(utterance)
        return try Data(contentsOf: url(for: utterance))
    }

    func render(
        _ document: StoryDocument, analysis: StoryAnalysis, cast: Cast, to output: URL,
        progress: @escaping @Sendable (RenderProgress) -> Void
    ) async throws -> RenderOutcome {
        if let failure = state.withLock({ $0.renderFailure }) { throw failure }
        let lines = plan(document, analysis: analysis, cast: cast)
        var synthesized = 0, hits = 0
        for (done, line) in lines.enumerated() {
            if try await renderLine(line) { synthesized += 1 } else { hits += 1 }
            progress(RenderProgress(fraction: Double(done + 1) / Double(lines.count), message: "Rendering line \(done + 1) of \(lines.count)"))
        }
        try Data("book of \(lines.count) lines".utf8).write(to: output)
        let timing = output.deletingPathExtension().appendingPathExtension("timing.json")
        try Data("[]".utf8).write(to: timing)
        return RenderOutcome(durationSeconds: Double(lines.count), synthesized: synthesized, cacheHits: hits, timingMap: timing)
    }

    func preview(_ voice: VoiceAssignment, text: String) async throws -> Data {
        Self.wav(text)
    }

    /// Renders one line unless cached; returns whether it synthesized.
    @discardableResult
    private func renderLine(_ line: PlannedUtterance) async throws -> Bool {
        let url = url(for: line)
        if FileManager.default.fileExists(atPath: url.path) {
            state.withLock { $0.cacheHits += 1 }
            return false
        }
        // Stalls (until cancelled) once the allowed number of lines is done: a worker killed here.
        while state.withLock({ state in state.stallAfter.map { state.synthesized.count >= $0 } ?? false }) {
            try await Task.sleep(for: .milliseconds(20))
        }
        try Self.wav(line.spokenText).write(to: url, options: .atomic)
        state.withLock { $0.synthesized.append(line.spokenText) }
        return true
    }

    private func url(for line: PlannedUtterance) -> URL {
        let material = "\(line.voice.voice)|\(line.voice.rate)|\(line.voice.pitch)|\(line.voice.volume)|\(line.spokenText)"
        let key = SHA256.hash(data: Data(material.utf8)).map { String(format: "%02x", $0) }.joined()
        return cacheDirectory.appendingPathComponent("\(key).wav")
    }

    /// A valid, silent 16-bit mono WAV whose length depends on the text.
    static func wav(_ text: String) -> Data {
        let samples = 100 * max(1, text.count)
        var data = Data("RIFF".utf8)
        func le32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { data.append(contentsOf: $0) } }
        func le16(_ v: Int) { withUnsafeBytes(of: UInt16(v).littleEndian) { data.append(contentsOf: $0) } }
        le32(36 + samples * 2)
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        le32(16); le16(1); le16(1); le32(22_050); le32(44_100); le16(2); le16(16)
        data.append(contentsOf: Array("data".utf8))
        le32(samples * 2)
        data.append(Data(count: samples * 2))
        return data
    }
}
