import Foundation
import Testing

/// Lines sent as Ogg Opus (to listeners off this machine) are encoded once and kept beside the
/// line's WAV in the segment cache.
@Suite struct ServerOpusLineTests {
    struct Story: Decodable { var id: UUID; var analysis_state: String }
    struct StoryList: Decodable { var stories: [Story] }

    @Test func anOpusLineIsEncodedOnceAndKept() async throws {
        let scratch = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let data = scratch.appendingPathComponent("data")
        let server = ServerProcess(dataDirectory: data)
        try await server.start()
        defer { server.kill() }
        let token = try await server.register("listener@example.com")
        let story = try #require(try await server.get("/api/stories", token: token, as: StoryList.self).stories.first)
        try await server.waitUntil("the welcome story is analysed") {
            try await server.get("/api/stories/\(story.id)", token: token, as: Story.self).analysis_state == "analyzed"
        }

        let path = "/api/stories/\(story.id)/segments/3/audio?format=opus"
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
