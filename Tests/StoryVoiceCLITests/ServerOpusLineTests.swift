import Foundation
import Testing

/// Lines sent as Ogg Opus (to listeners off this machine) are encoded once and kept beside the
/// line's WAV in the segment cache.
@Suite struct ServerOpusLineTests {
    @Test func anOpusLineIsEncodedOnceAndKept() async throws {
        let scratch = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let data = scratch.appendingPathComponent("data")
        let server = ServerProcess(dataDirectory: data)
        try await server.start()
        defer { server.kill() }
        let (token, story) = try await server.readerWithAnalysedWelcomeStory("listener@example.com")

        let path = "/api/stories/\(story)/segments/3/audio?format=opus"
        let (first, status) = try await server.request("GET", path, token: token)
        #expect(status == 200)
        #expect(first.starts(with: Data("OggS".utf8)))
        // ffmpeg gives every Ogg stream a random serial number: equal bytes mean the stored file.
        let (second, _) = try await server.request("GET", path, token: token)
        #expect(second == first)
        let stored = FileManager.default.enumerator(at: data.appendingPathComponent("segments"), includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "opus" } ?? []
        #expect(try stored.contains { try Data(contentsOf: $0) == first })
    }
}
