import Foundation
import Testing

/// Failures that can be known before the work starts are reported before it starts.
@Suite struct FailEarlyTests {
    @Test func narrateWithoutTheEncoderStopsBeforeRenderingAnything() async throws {
        let scratch = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        // A PATH with espeak-ng but no ffmpeg.
        let bin = scratch.appendingPathComponent("bin", isDirectory: true)
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let espeak = try #require(["/usr/bin/espeak-ng", "/usr/local/bin/espeak-ng"].first { FileManager.default.isExecutableFile(atPath: $0) })
        try FileManager.default.createSymbolicLink(atPath: bin.appendingPathComponent("espeak-ng").path, withDestinationPath: espeak)
        let output = scratch.appendingPathComponent("story.m4b")
        let cache = scratch.appendingPathComponent("cache")
        let result = try await CLI.run(
            ["narrate", CLI.repositoryRoot.appendingPathComponent("examples/the-open-window.txt").path, "-o", output.path],
            cacheDirectory: cache, environment: ["PATH": bin.path, "STORYVOICE_ENGINES": "espeak-ng"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("needs ffmpeg"), "\(result.stderr)")
        #expect(!result.stderr.contains("Usage:"), "a content error is not a usage error")
        // Nothing was rendered or written.
        let rendered = (try? FileManager.default.subpathsOfDirectory(atPath: cache.path))?.filter { $0.hasSuffix(".wav") } ?? []
        #expect(rendered.isEmpty, "\(rendered.count) line(s) rendered")
        #expect(!FileManager.default.fileExists(atPath: scratch.appendingPathComponent("story.cast.json").path))
    }

    @Test func aStoryThatCannotBeReadIsNotAUsageError() async throws {
        let scratch = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let empty = scratch.appendingPathComponent("empty.txt")
        try Data().write(to: empty)
        let result = try await CLI.run(["analyze", empty.path])
        #expect(result.status != 0)
        #expect(!result.stderr.contains("Usage:"), "\(result.stderr)")
        #expect(result.stderr.contains("empty.txt"), "\(result.stderr)")
    }
}
